// redline/shadow_json.h — shadow parity runs and interleaved benchmarks
// behind a JSON interface, for language bindings and tools that embed
// libredline (the Python package in python/ uses it).
//
// The options and the report are JSON text, so the structures of the
// shadow runner stay private and can change without breaking the ABI:
//
//   options  {"arms": "eager,recorded,aql,pm4,pm4-relay",  // the default
//             "windows": "START:COUNT[:STRIDE]",  // default: the capture's
//             "processor": "gfx1100", "executor": "ref" | "isa",
//             "adversarial": false, "seed": 0,
//             "oracle": "sample" | "full" | "off",  // default sample:
//                  // the oracle executor (the CLI's --oracle, docs/cli.md)
//                  // checks the isa executor's work-groups; bench ignores it
//             "device": "sim" | "rocr" | "drm",    // default sim; the
//                  // eager, recorded and retained arms' device; a real
//                  // one adds the simulated reference arm "sim"
//             "no_sim_reference": false,          // ... unless true
//             "timeout_ms": 10000,                // bound of every wait
//             "arm_jobs": 2,    // shadow only: host threads the arms
//                  // step on, 1..16 (default: the CPUs over the simulator's
//                  // threads; docs/cli.md "Arms in parallel")
//             "rounds": 5}                        // bench only
//            Every key is optional; NULL or "" means {}. Bench's default
//            arms are "eager,aql,pm4". Unknown keys are refused.
//   report   the document `redline shadow --json` / `redline bench --json`
//            write (docs/cli.md), plus "code": the status code of the
//            result as a number (rl_status_code_t: 0 on PASS, 1
//            (RL_STATUS_MISMATCH) on a divergence or a failed proof, the
//            failing arm's status code otherwise) and "code_name", its
//            name. The CLI's exit code for it is tools/ business.
//
// A divergence or a failing arm is a result, not an error: the call returns
// OK and the report says FAIL. Errors are invalid options
// (RL_STATUS_INVALID_ARGUMENT naming the key), a window outside the
// admitted range (RL_STATUS_CONTRACT) and out of memory.
//
// Thread-safety: as rl_replay_t; each call opens its own simulated devices.
// Ownership: |capture| is borrowed; *|out_report| is the caller's, freed
// with rl_json_free().
#ifndef REDLINE_SHADOW_JSON_H_
#define REDLINE_SHADOW_JSON_H_

#include "redline/capture.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// Runs the shadow of |capture| with |options_json| into *|out_report|.
rl_status_t rl_shadow_run_json(const rl_capture_t* capture,
                               const char* options_json, char** out_report);

// Runs the bench of |capture| with |options_json| into *|out_report|.
rl_status_t rl_bench_run_json(const rl_capture_t* capture,
                              const char* options_json, char** out_report);

// Frees a report returned above; NULL is ignored.
void rl_json_free(char* text);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_SHADOW_JSON_H_
