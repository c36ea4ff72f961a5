// tools/shadow_cli.h — option parsing shared by `redline shadow`, `bench`
// and `demo`: arms, windows, device options and binds onto
// rl_shadow_options_t (shadow/shadow.h).
#ifndef REDLINE_TOOLS_SHADOW_CLI_H_
#define REDLINE_TOOLS_SHADOW_CLI_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "redline/capture.h"
#include "shadow/shadow.h"

// Applies |flag| |value| when it is one of --arms, --windows, --processor,
// --hazards, --seed, --executor, --cache-model, --adversarial-seeds,
// --device (sim, rocr or drm: shadow/shadow.h Devices) or a
// budget option (tools/cli_limits.h:
// --max-*, --timeout-ms); returns false for other flags. *|out_exit| is
// RL_EXIT_OK or the usage error already reported (prefixed by |command|).
// Applies the value-less flag |flag| when it is --no-hazard-check (the
// dynamic hazard verdicts, shadow/hazard_verdict.h, are on by default) or
// --no-sim-reference (no simulated reference arm on a real device);
// returns false for other flags.
bool rl_shadow_cli_flag(const char* flag, rl_shadow_options_t* options);

bool rl_shadow_cli_option(const char* command, const char* flag,
                          const char* value, rl_shadow_options_t* options,
                          int* out_exit);

// The default arms on a real device: every redline arm the device runs
// plus HIP's on the same GPU (shadow adds the sim reference); bench times
// the retained routes against HIP and HIP graphs.
#define RL_SHADOW_CLI_ROCR_ARMS "eager,recorded,aql,pm4,pm4-relay,hip,hipgraph"
#define RL_SHADOW_CLI_ROCR_BENCH_ARMS "hip,hipgraph,aql,pm4"
#define RL_SHADOW_CLI_DRM_ARMS "drm,hip,hipgraph"

// After parsing: with --device rocr or drm and no --arms, the arms are the
// device's defaults above (the drm device runs route drm only,
// shadow/shadow.h Devices); |bench| picks bench's.
void rl_shadow_cli_device_arms(rl_shadow_options_t* options, bool arms_given,
                               bool bench);

// On the simulator (no --device, or --device sim) the hip and hipgraph
// arms default to redline's HIP runtime over the simulator
// (REDLINE_HIP_LIBRARY overrides); on a real device they use the GPU's HIP
// (the loader's defaults).
void rl_shadow_cli_hip_default(const rl_shadow_options_t* options);

// Resolves "NAME:OFFSET" (--flip-byte) against |capture| into |options|.
int rl_shadow_cli_flip(const char* command, const char* text,
                       const rl_capture_t* capture,
                       rl_shadow_options_t* options);

// Resolves "BUFFER=BYTES" (--bind) against |capture| into |options|.
int rl_shadow_cli_bind(const char* command, const char* text,
                       const rl_capture_t* capture,
                       rl_shadow_options_t* options);

// Runs the shadow of |capture| with |options| (progress on a terminal),
// prints the report on stdout (the summary: one line per arm, the first
// divergence and the verdict; with |verbose| also every window and
// region), writes the JSON report to |json_path| when given and returns
// the exit code (|context| prefixes errors). When |out_reason| is given it
// receives the FAIL reason ("" on PASS).
int rl_cli_shadow_capture(const rl_capture_t* capture,
                          const rl_shadow_options_t* options, bool verbose,
                          const char* json_path, const char* context,
                          char* out_reason, size_t reason_size);

// Runs the bench (shadow/bench.h) of |capture| with the arms, window and
// device options of |shadow| and |rounds| rounds (threads pinned when |pin|,
// rl_bench_options_t.pin), prints the table,
// writes JSON to |json_path| when given and returns the exit code;
// |out_reason| as for rl_cli_shadow_capture.
int rl_cli_bench_capture(const rl_capture_t* capture,
                         const rl_shadow_options_t* shadow, uint32_t rounds,
                         bool pin, const char* json_path, const char* context,
                         char* out_reason, size_t reason_size);

#endif  // REDLINE_TOOLS_SHADOW_CLI_H_
