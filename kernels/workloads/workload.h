// kernels/workloads/workload.h — the registry of sample workloads that
// record a capture through the funnel (redline/funnel.h).
//
// A workload is a program written against the funnel: it loads its code
// object, registers buffers (with roles and deterministic initial contents),
// declares its parameters, issues its launches, and declares the state
// regions and windows a shadow run walks. It does not create or finish the
// funnel: the caller does, so the same record() runs against the record-only
// device, the simulated GPU or HIP.
//
// The caller supplies the code-object bytes: the CLI loads
// `<kernels dir>/<code_object>-<target>.co` (for vecchain,
// `vecchain-gfx1100.co`), so a workload never touches the file system.
//
// Parameters: every workload lists its parameters with an admitted range and
// a default. |options->params| overrides values by name; an unknown name or a
// value outside the admitted range is RL_STATUS_INVALID_ARGUMENT.
//
// Configuration: a workload may also list configuration entries (same shape:
// name, range, default) that shape the recorded program itself, e.g. the
// decode workload's layer count; they are not dynamic parameters of the
// capture. |options->config| overrides them by name, checked the same way.
//
// Thread-safety: the registry is static, read-only data.
#ifndef REDLINE_KERNELS_WORKLOADS_WORKLOAD_H_
#define REDLINE_KERNELS_WORKLOADS_WORKLOAD_H_

#include <stddef.h>
#include <stdint.h>

#include "redline/funnel.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// A parameter of a workload: admitted range [min, max) and default value.
typedef struct rl_workload_param_s {
  const char* name;
  const char* description;
  int64_t min;
  int64_t max;
  int64_t default_value;
} rl_workload_param_t;

// A value for a parameter, chosen by the caller.
typedef struct rl_workload_param_value_s {
  const char* name;
  int64_t value;
} rl_workload_param_value_t;

typedef struct rl_workload_options_s {
  const void* code_object;  // bytes of <code_object>-<target>.co
  size_t code_object_size;
  uint64_t seed;  // seeds deterministic initial contents (weights)
  const rl_workload_param_value_t* params;  // overrides of defaults
  uint32_t param_count;
  const rl_workload_param_value_t* config;  // overrides of config defaults
  uint32_t config_count;
} rl_workload_options_t;

typedef struct rl_workload_s {
  const char* name;         // "vecchain"
  const char* description;  // one line for `redline kernels`/help
  const char* code_object;  // code-object base name, "vecchain"
  uint32_t param_count;
  const rl_workload_param_t* params;
  uint32_t config_count;  // configuration entries (0 for none)
  const rl_workload_param_t* config;
  // Records the workload through |funnel|. The funnel must be fresh (no code
  // objects, buffers or launches yet).
  rl_status_t (*record)(rl_funnel_t* funnel,
                        const rl_workload_options_t* options);
  // Optional (NULL: the workload has no configuration, the defaults
  // re-record it): the configuration entries a capture of this workload was
  // recorded with, derived from the capture's shape, so that a shadow can
  // record the same program again at other parameter values
  // (shadow/shadow_rerecord.h). Writes at most |capacity| entries (names
  // are static) and their count; RL_STATUS_NOT_FOUND when the capture's
  // shape matches no configuration.
  rl_status_t (*config_of)(const rl_capture_t* capture,
                           rl_workload_param_value_t* out_config,
                           uint32_t capacity, uint32_t* out_count);
} rl_workload_t;

// The number of registered workloads and the one at |index| (NULL past the
// end), in a stable order.
uint32_t rl_workload_count(void);
const rl_workload_t* rl_workload_at(uint32_t index);

// The workload named |name|, or NULL.
const rl_workload_t* rl_workload_find(const char* name);

// The value of parameter |name| of |workload| under |options|: the override
// when one is given, otherwise the default. Fails with
// RL_STATUS_INVALID_ARGUMENT when an override names no parameter of
// |workload| or a value is outside the admitted range, and with
// RL_STATUS_NOT_FOUND when |workload| has no parameter |name|.
rl_status_t rl_workload_param_value(const rl_workload_t* workload,
                                    const rl_workload_options_t* options,
                                    const char* name, int64_t* out_value);

// The value of configuration entry |name| of |workload| under |options|,
// with the checks and codes of rl_workload_param_value() applied to
// |options->config| and |workload->config|.
rl_status_t rl_workload_config_value(const rl_workload_t* workload,
                                     const rl_workload_options_t* options,
                                     const char* name, int64_t* out_value);

// The registered workloads (defined in their own files).
extern const rl_workload_t rl_workload_vecchain;
extern const rl_workload_t rl_workload_decode;
extern const rl_workload_t rl_workload_verify;

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_KERNELS_WORKLOADS_WORKLOAD_H_
