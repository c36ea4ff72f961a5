// redline/backends/hsa_loader.h — ROCr (libhsa-runtime64) loaded with
// dlopen, type-checked against Debian's hsa/hsa.h and hsa/hsa_ext_amd.h.
//
// Loading: rl_hsa_api_open() opens the library (explicit path, else
// $REDLINE_HSA_LIBRARY, else "libhsa-runtime64.so.1" on the search path,
// then /opt/rocm/lib/libhsa-runtime64.so.1; dl_library.h has the rules)
// and resolves every function of hsa_symbols.h up front; a missing one
// fails the open, naming all that are missing. It does not call hsa_init.
//
// Types: each function pointer's type is __typeof__ the header's prototype,
// so a table entry whose signature drifts from the header does not compile.
//
// Errors: hsa_status_t is translated once, here, by a table of code, name,
// redline status code and description (rl_hsa_error_info()). Call through
// RL_HSA_CALL(api, function, args...): it yields RL_OK on HSA_STATUS_SUCCESS
// (and HSA_STATUS_INFO_BREAK, which is a completed early exit, not an
// error) and otherwise a status raised at the caller's file and line:
//   "hsa_queue_create: HSA_STATUS_ERROR_OUT_OF_RESOURCES: the runtime
//    failed to allocate resources (runtime: <hsa_status_string text>)".
//
// Thread-safety: the API struct is immutable after rl_hsa_api_open(); ROCr's
// functions are thread-safe as documented by HSA.
#ifndef REDLINE_BACKENDS_HSA_LOADER_H_
#define REDLINE_BACKENDS_HSA_LOADER_H_

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "redline/backends/dl_library.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RL_HSA_LIBRARY_ENV "REDLINE_HSA_LIBRARY"

// rl_hsa_<name>_t: the function type of <name>, from the header.
#define RL_HSA_SYMBOL(name) typedef __typeof__(name) rl_hsa_##name##_t;
#include "redline/backends/hsa_symbols.h"
#undef RL_HSA_SYMBOL

typedef struct rl_hsa_functions_s {
#define RL_HSA_SYMBOL(name) rl_hsa_##name##_t* name;
#include "redline/backends/hsa_symbols.h"
#undef RL_HSA_SYMBOL
} rl_hsa_functions_t;

typedef struct rl_hsa_api_s {
  rl_dl_library_t library;
  rl_hsa_functions_t fn;
} rl_hsa_api_t;

// Opens and resolves the library into caller storage |api| (cleared first).
// |explicit_path| may be NULL. RL_STATUS_UNAVAILABLE names every path
// tried, or every missing function.
rl_status_t rl_hsa_api_open(rl_hsa_api_t* api, const char* explicit_path);
void rl_hsa_api_close(rl_hsa_api_t* api);

// One row of the translation table.
typedef struct rl_hsa_error_info_s {
  hsa_status_t status;
  const char* name;         // "HSA_STATUS_ERROR_OUT_OF_RESOURCES"
  rl_status_code_t code;    // what redline reports it as
  const char* description;  // one sentence, from the header's comment
} rl_hsa_error_info_t;

// The row for |status|; unknown values (newer runtimes add codes) get a
// shared row named "HSA_STATUS_UNKNOWN" with RL_STATUS_UNAVAILABLE.
const rl_hsa_error_info_t* rl_hsa_error_info(hsa_status_t status);

// The status for |status| returned by |call| (RL_OK on success or
// INFO_BREAK). |api| may be NULL; with it, the runtime's own
// hsa_status_string text is appended.
rl_status_t rl_hsa_check(const rl_hsa_api_t* api, hsa_status_t status,
                         const char* call, const char* file, int line);

#define RL_HSA_CALL(api, function, ...)                               \
  rl_hsa_check((api), (api)->fn.function(__VA_ARGS__), #function, \
               __FILE__, __LINE__)

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_BACKENDS_HSA_LOADER_H_
