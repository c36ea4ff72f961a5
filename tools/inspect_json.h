// tools/inspect_json.h — the JSON form of `redline inspect`.
#ifndef REDLINE_TOOLS_INSPECT_JSON_H_
#define REDLINE_TOOLS_INSPECT_JSON_H_

#include <stddef.h>

#include <cjson/cJSON.h>

#include "redline/capture.h"
#include "redline/hazard.h"

// Builds {workload, target, identity, code_objects, kernels, buffers,
// buffers_by_role, parameters, bindings, regions, windows, hazard_plan
// {waits, boundaries, wait_before: [...]}, launch_count} and, with
// |with_launches|, `launches` (kernel, grid, block, dynamic_lds, wait,
// slots with effects, bindings). Returns NULL when memory runs out.
// Formats why a wait is needed: "RAW on y[0, +4096) after launch 3".
void rl_inspect_format_reason(const rl_capture_t* capture,
                              const rl_hazard_conflict_t* conflict, char* out,
                              size_t out_size);

cJSON* rl_inspect_json(const rl_capture_t* capture,
                       const rl_digest128_t* identity,
                       const rl_hazard_plan_t* plan, bool with_launches);

// Prints the text summary of `redline inspect` (everything but --launches)
// on stdout; `redline demo` reuses it (tools/cmd_inspect.c).
void rl_inspect_print_summary(const rl_capture_t* capture,
                              const rl_digest128_t* identity,
                              const rl_hazard_plan_t* plan);

// Prints the same facts as counts, a handful of lines (`redline demo`
// without --verbose): the header, kernels and code objects, buffers by
// role, parameters with the number of bindings, state regions by name and
// the windows.
void rl_inspect_print_brief(const rl_capture_t* capture,
                            const rl_digest128_t* identity,
                            const rl_hazard_plan_t* plan);

#endif  // REDLINE_TOOLS_INSPECT_JSON_H_
