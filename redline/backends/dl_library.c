// Implementation of redline/backends/dl_library.h.
#include "redline/backends/dl_library.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Appends "|path|: |result|" to the tried list (separated by "; "),
// truncating quietly when the list is full.
static void rl_dl_note(rl_dl_library_t* library, const char* path,
                       const char* result) {
  size_t used = strlen(library->tried);
  if (used >= sizeof(library->tried) - 1) return;
  snprintf(library->tried + used, sizeof(library->tried) - used, "%s%s: %s",
           used ? "; " : "", path, result);
}

static bool rl_dl_try(rl_dl_library_t* library, const char* path) {
  dlerror();
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* error = dlerror();
    rl_dl_note(library, path, error ? error : "dlopen failed");
    return false;
  }
  library->handle = handle;
  snprintf(library->path, sizeof(library->path), "%s", path);
  rl_dl_note(library, path, "loaded");
  return true;
}

rl_status_t rl_dl_library_open(rl_dl_library_t* library, const char* what,
                               const char* explicit_path, const char* env_var,
                               const char* const* defaults) {
  memset(library, 0, sizeof(*library));
  const char* chosen = explicit_path && explicit_path[0] ? explicit_path : NULL;
  const char* source = "option";
  if (!chosen && env_var) {
    const char* value = getenv(env_var);
    if (value && value[0]) {
      chosen = value;
      source = env_var;
    }
  }
  if (chosen) {
    if (rl_dl_try(library, chosen)) return RL_OK;
    return RL_STATUS(RL_STATUS_UNAVAILABLE, "%s not loaded (path from %s): %s",
                     what, source, library->tried);
  }
  for (size_t i = 0; defaults && defaults[i]; ++i) {
    if (rl_dl_try(library, defaults[i])) return RL_OK;
  }
  return RL_STATUS(RL_STATUS_UNAVAILABLE, "%s not loaded; tried %s%s%s%s",
                   what, library->tried, env_var ? " (set " : "",
                   env_var ? env_var : "", env_var ? " to choose a path)" : "");
}

rl_status_t rl_dl_library_resolve(const rl_dl_library_t* library,
                                  const char* what,
                                  const rl_dl_symbol_t* symbols, size_t count,
                                  void* api, size_t api_size) {
  char missing[1024] = "";
  size_t missing_count = 0;
  for (size_t i = 0; i < count; ++i) {
    void* address = dlsym(library->handle, symbols[i].name);
    if (!address) {
      size_t used = strlen(missing);
      snprintf(missing + used, sizeof(missing) - used, "%s%s",
               missing_count ? ", " : "", symbols[i].name);
      ++missing_count;
      continue;
    }
    // POSIX guarantees data and function pointers share a representation.
    memcpy((char*)api + symbols[i].offset, &address, sizeof(address));
  }
  if (missing_count == 0) return RL_OK;
  memset(api, 0, api_size);
  return RL_STATUS(RL_STATUS_UNAVAILABLE,
                   "%s at %s lacks %zu of the %zu functions redline needs: %s",
                   what, library->path, missing_count, count, missing);
}

void rl_dl_library_close(rl_dl_library_t* library) {
  if (library->handle) dlclose(library->handle);
  library->handle = NULL;
  library->path[0] = '\0';
}
