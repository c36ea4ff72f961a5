// shadow/bench.h — interleaved timing of shadow arms (`redline bench`).
//
// Every arm is created and prepared exactly as for a shadow run
// (shadow/shadow_arm.h: its own simulated device, buffers from the
// capture's initial contents). Then |rounds| rounds run in interleaved
// order A B C A B C ...: in each round every arm in turn walks the whole
// window (one step per value), so drift of the host (frequency, other
// load) hits all arms alike. Each arm's state carries on from round to
// round; the bench measures cost, not results (the shadow checks those).
//
// Per step and arm it records:
//   wall    host CLOCK_MONOTONIC around the whole step (bind, submit, wait);
//   host    retained arms: the engine's host time of that run
//           (rl_replay_counters last_host_ns: admission, binding, patching,
//           publication, doorbell; not the wait). Eager and recorded have
//           no such counter (their per-launch waits are interleaved with
//           submission) and report none. Split in two:
//     engine   host minus the doorbell: admission + apply + publication
//              (the engine's own work; tests/bench/host_cost_bench's
//              admit + apply + publish-before-the-doorbell phases);
//     doorbell the run's growth of rl_replay_counters doorbell_ns: the
//              hand-off to the device (on the simulator, the store that
//              wakes its command-processor thread);
//   handoff retained arms on the simulator: the run's wait
//           (last_wait_ns) minus the device span: the command processor
//           noticing the doorbell, its packet fetch, and the host noticing
//           the completion (with any sleep and wake-up);
//   device  from the simulator's dispatch log (sim/sim.h; 100 MHz
//           timestamps): span = first dispatch start .. last dispatch end
//           of the step, and busy = the sum of the dispatch durations. The
//           span includes the command processor's gaps between dispatches
//           (waits, barriers, IB parsing); busy is the kernels alone. When a
//           step has more dispatches than the log keeps
//           (RL_SIM_DISPATCH_LOG) the figures cover the last ones only and
//           |device_partial| says so.
// and reports median and p95 (nearest rank) per arm.
//
// Route proof on every row: the arm's proof after the bench; a retained
// arm must have replayed once per step (rounds x window count), eager and
// recorded never. For the pm4 arm the IB is read back from the device and
// decoded (pm4/pm4_decode.h): dwords, dwords per dispatch, CS_PARTIAL_FLUSH
// waits, ACQUIRE_MEM, RELEASE_MEM and SET_SH_REG packets.
//
// Thread-safety: one thread per bench.
#ifndef REDLINE_SHADOW_BENCH_H_
#define REDLINE_SHADOW_BENCH_H_

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "redline/capture.h"
#include "redline/status.h"
#include "shadow/shadow.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rl_bench_options_s {
  rl_shadow_arm_kind_t arms[RL_SHADOW_MAX_ARMS];
  uint32_t arm_count;
  bool has_window;  // false: the capture's first window
  rl_shadow_window_t window;
  uint32_t rounds;  // >= 1
  rl_shadow_device_options_t device;
  rl_shadow_progress_fn_t progress;  // may be NULL
  void* progress_user;
  // Skips the dynamic hazard verdicts (shadow/hazard_verdict.h): otherwise a
  // finding in any step fails that arm (RL_STATUS_MISMATCH). The check runs
  // outside the timed span.
  bool no_hazard_check;
  // Budgets and the bound of every wait, as for shadow (zero: defaults).
  rl_limits_t limits;
  // When set, every step goes into this trace as for rl_shadow_run
  // (shadow/shadow_trace.h); arms are processes |trace_pid_base| + 1 + index.
  struct rl_trace_s* trace;
  uint32_t trace_pid_base;
  // Pins the calling thread to the first CPU it may run on and every
  // simulated command processor to the last (restored after the run), as
  // tests/bench/host_cost_bench places them; |pinning| then says where, or
  // why not (one CPU allowed). Wait mode: device.spin_wait.
  bool pin;
} rl_bench_options_t;

// Nanoseconds over the samples of one arm (wall-clock times). The p95 is
// only a p95 from RL_BENCH_P95_MIN_SAMPLES samples on; below that |p95|
// holds the maximum and |p95_valid| is false (reports then say "max").
#define RL_BENCH_P95_MIN_SAMPLES 200u
typedef struct rl_bench_stat_s {
  bool present;
  bool p95_valid;
  uint64_t median;
  uint64_t p95;
  uint64_t min;
  uint64_t max;
} rl_bench_stat_t;

// The decoded IB of a pm4 arm.
typedef struct rl_bench_pm4_s {
  bool present;
  uint32_t dwords;
  uint32_t dispatches;        // DISPATCH_DIRECT
  uint32_t waits;             // EVENT_WRITE CS_PARTIAL_FLUSH
  uint32_t acquires;          // ACQUIRE_MEM
  uint32_t releases;          // RELEASE_MEM
  uint32_t set_sh_reg;        // SET_SH_REG packets
  double dwords_per_dispatch;
} rl_bench_pm4_t;

typedef struct rl_bench_arm_result_s {
  rl_shadow_arm_kind_t kind;
  bool failed;
  rl_status_code_t failure_code;
  char failure[768];
  uint32_t samples;
  rl_bench_stat_t wall;
  rl_bench_stat_t host;
  rl_bench_stat_t engine;    // host minus doorbell (see above)
  rl_bench_stat_t doorbell;
  rl_bench_stat_t handoff;   // wait minus device span
  rl_bench_stat_t device_span;
  rl_bench_stat_t device_busy;
  bool device_partial;
  rl_shadow_proof_t proof;
  bool proof_ok;
  char proof_problem[256];
  rl_bench_pm4_t pm4;
  // With the isa executor: wave-instructions the arm's steps retired and
  // the device busy time they took, so rate = instructions / busy (one
  // command-processor thread, i.e. per core). Zero with other executors.
  uint64_t isa_instructions;
  uint64_t isa_busy_ns;
} rl_bench_arm_result_t;

typedef struct rl_bench_result_s {
  const rl_capture_t* capture;  // borrowed
  rl_shadow_window_t window;
  uint32_t rounds;
  uint32_t arm_count;
  rl_bench_arm_result_t arms[RL_SHADOW_MAX_ARMS];
  bool spin_wait;      // the retained arms' wait mode
  char pinning[96];    // "" when not asked; else where the threads ran
  bool pass;        // every arm ran and proved its route
  char reason[768];
} rl_bench_result_t;

// Runs the bench; fails (no result) only on invalid options, as
// rl_shadow_run does. Arm failures are results.
rl_status_t rl_bench_run(const rl_capture_t* capture,
                         const rl_bench_options_t* options,
                         rl_bench_result_t** out_result);
void rl_bench_result_destroy(rl_bench_result_t* result);

// A malloc'd text table (one row per arm) ending with "bench: PASS" or
// "bench: FAIL (<reason>)"; NULL when out of memory.
char* rl_bench_report_text(const rl_bench_result_t* result);
cJSON* rl_bench_report_json(const rl_bench_result_t* result);

// The status code of the first failed arm, RL_STATUS_MISMATCH for a failed
// proof, RL_STATUS_OK on PASS.
rl_status_code_t rl_bench_result_code(const rl_bench_result_t* result);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_SHADOW_BENCH_H_
