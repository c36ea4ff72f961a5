// redline/backends/dl_library.h — dlopen with a record of every path tried,
// and up-front resolution of a whole symbol table. The per-runtime loaders
// (hsa_loader.h, drm_loader.h, hip_loader.h) are built on it; each keeps
// its symbols in an X-macro table (hsa_symbols.h, ...) that generates the
// function-pointer struct and the rl_dl_symbol_t array passed here.
//
// Search order for one library: the explicit path the caller passes (an
// API option), else the path in the environment variable the loader names
// (REDLINE_HSA_LIBRARY, ...), else the loader's default list (SONAMEs on
// the dynamic linker's search path, then /opt/rocm/lib). An explicit path
// or variable is the only path tried: pointing redline at one library and
// silently getting another would defeat the point (the CI stand-ins are
// selected this way and are never on the default search path).
//
// Thread-safety: none needed beyond dlopen's own; a library object is used
// by one thread at a time while it is opened or closed.
#ifndef REDLINE_BACKENDS_DL_LIBRARY_H_
#define REDLINE_BACKENDS_DL_LIBRARY_H_

#include <stdbool.h>
#include <stddef.h>

#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RL_DL_PATH_MAX 512
#define RL_DL_TRIED_MAX 2048

typedef struct rl_dl_library_s {
  void* handle;                // NULL until opened
  char path[RL_DL_PATH_MAX];   // the path that loaded
  // "path: dlerror; path: dlerror; ..." for every path tried, including
  // the one that loaded ("path: loaded").
  char tried[RL_DL_TRIED_MAX];
} rl_dl_library_t;

// One entry of a loader's symbol table: the exported name and the byte
// offset of its function pointer inside the loader's API struct.
typedef struct rl_dl_symbol_s {
  const char* name;
  size_t offset;
} rl_dl_symbol_t;

// Opens |what| (a display name, "libhsa-runtime64") into |library|:
// |explicit_path| when not NULL/empty, else $|env_var| when set and
// non-empty, else each of the NULL-terminated |defaults| in order. Fails
// with RL_STATUS_UNAVAILABLE naming every path tried and its dlerror().
rl_status_t rl_dl_library_open(rl_dl_library_t* library, const char* what,
                               const char* explicit_path, const char* env_var,
                               const char* const* defaults);

// Resolves all |count| |symbols| into the struct at |api| (each pointer
// written at its offset). Fails with RL_STATUS_UNAVAILABLE listing every
// missing symbol when any is missing; then no pointer is left set.
rl_status_t rl_dl_library_resolve(const rl_dl_library_t* library,
                                  const char* what,
                                  const rl_dl_symbol_t* symbols, size_t count,
                                  void* api, size_t api_size);

// dlclose()s |library| when open and clears its handle and path; the
// tried list stays for reports.
void rl_dl_library_close(rl_dl_library_t* library);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_BACKENDS_DL_LIBRARY_H_
