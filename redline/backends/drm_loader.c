// Implementation of redline/backends/drm_loader.h.
#include "redline/backends/drm_loader.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const rl_dl_symbol_t rl_drm_amdgpu_symbols[] = {
#define RL_DRM_AMDGPU_SYMBOL(name) {#name, offsetof(rl_drm_functions_t, name)},
#define RL_DRM_CORE_SYMBOL(name)
#include "redline/backends/drm_symbols.h"
#undef RL_DRM_AMDGPU_SYMBOL
#undef RL_DRM_CORE_SYMBOL
};

static const rl_dl_symbol_t rl_drm_core_symbols[] = {
#define RL_DRM_AMDGPU_SYMBOL(name)
#define RL_DRM_CORE_SYMBOL(name) {#name, offsetof(rl_drm_functions_t, name)},
#include "redline/backends/drm_symbols.h"
#undef RL_DRM_AMDGPU_SYMBOL
#undef RL_DRM_CORE_SYMBOL
};

static const char* const rl_drm_amdgpu_paths[] = {"libdrm_amdgpu.so.1", NULL};
static const char* const rl_drm_core_paths[] = {"libdrm.so.2", NULL};

// Resolves |count| |symbols| of |library| into |api|->fn, keeping the
// pointers already resolved from the other library.
static rl_status_t rl_drm_resolve(rl_drm_api_t* api,
                                  const rl_dl_library_t* library,
                                  const char* what,
                                  const rl_dl_symbol_t* symbols,
                                  size_t count) {
  rl_drm_functions_t part;
  memset(&part, 0, sizeof(part));
  RL_RETURN_IF_ERROR(rl_dl_library_resolve(library, what, symbols, count,
                                           &part, sizeof(part)));
  for (size_t i = 0; i < count; ++i) {
    memcpy((char*)&api->fn + symbols[i].offset,
           (const char*)&part + symbols[i].offset, sizeof(void*));
  }
  return RL_OK;
}

rl_status_t rl_drm_api_open(rl_drm_api_t* api, const char* explicit_path) {
  memset(api, 0, sizeof(*api));
  rl_status_t status = rl_dl_library_open(&api->amdgpu, "libdrm_amdgpu",
                                          explicit_path, RL_DRM_LIBRARY_ENV,
                                          rl_drm_amdgpu_paths);
  if (!status) {
    status = rl_dl_library_open(&api->core, "libdrm", NULL, NULL,
                                rl_drm_core_paths);
  }
  if (!status) {
    status = rl_drm_resolve(
        api, &api->amdgpu, "libdrm_amdgpu", rl_drm_amdgpu_symbols,
        sizeof(rl_drm_amdgpu_symbols) / sizeof(rl_drm_amdgpu_symbols[0]));
  }
  if (!status) {
    status = rl_drm_resolve(
        api, &api->core, "libdrm", rl_drm_core_symbols,
        sizeof(rl_drm_core_symbols) / sizeof(rl_drm_core_symbols[0]));
  }
  if (status) rl_drm_api_close(api);
  return status;
}

void rl_drm_api_close(rl_drm_api_t* api) {
  rl_dl_library_close(&api->amdgpu);
  rl_dl_library_close(&api->core);
  memset(&api->fn, 0, sizeof(api->fn));
}

#define RL_DRM_ROW(error, code, description) \
  {error, #error, RL_STATUS_##code, description}

// The errno values libdrm_amdgpu and the amdgpu kernel driver return
// (amdgpu_cs.c, amdgpu_bo.c, amdgpu_device.c; drivers/gpu/drm/amd/amdgpu).
static const rl_drm_error_info_t rl_drm_errors[] = {
    RL_DRM_ROW(EPERM, UNAVAILABLE, "not permitted (render node access)"),
    RL_DRM_ROW(ENOENT, UNAVAILABLE, "no such device node"),
    RL_DRM_ROW(EINTR, UNAVAILABLE, "interrupted; retry"),
    RL_DRM_ROW(EIO, UNAVAILABLE, "I/O error talking to the GPU"),
    RL_DRM_ROW(EBADF, INTERNAL, "bad file descriptor"),
    RL_DRM_ROW(EAGAIN, UNAVAILABLE, "resource temporarily unavailable"),
    RL_DRM_ROW(ENOMEM, OUT_OF_MEMORY, "out of memory"),
    RL_DRM_ROW(EACCES, UNAVAILABLE,
               "permission denied (is the user in the render group?)"),
    RL_DRM_ROW(EFAULT, INTERNAL, "bad address passed to the kernel"),
    RL_DRM_ROW(EBUSY, UNAVAILABLE, "device or resource busy"),
    RL_DRM_ROW(ENODEV, UNAVAILABLE, "no such device"),
    RL_DRM_ROW(EINVAL, INVALID_ARGUMENT,
               "the kernel rejected an argument (IB, BO list or chunk)"),
    RL_DRM_ROW(ENOSPC, OUT_OF_MEMORY, "no space left (VA range or heap)"),
    RL_DRM_ROW(ERANGE, INVALID_ARGUMENT, "value out of range"),
    RL_DRM_ROW(ETIME, QUARANTINED, "a fence wait timed out"),
    RL_DRM_ROW(ETIMEDOUT, QUARANTINED, "the operation timed out"),
    RL_DRM_ROW(ECANCELED, POISONED,
               "the context was lost (GPU reset); submissions are refused"),
    RL_DRM_ROW(ENODATA, UNAVAILABLE, "no data (unsupported query)"),
    RL_DRM_ROW(EOPNOTSUPP, UNSUPPORTED, "operation not supported"),
};

static const rl_drm_error_info_t rl_drm_error_unknown = {
    0, "E?", RL_STATUS_UNAVAILABLE, "an errno value redline does not know"};

const rl_drm_error_info_t* rl_drm_error_info(int result) {
  int error = result < 0 ? -result : result;
  for (size_t i = 0; i < sizeof(rl_drm_errors) / sizeof(rl_drm_errors[0]);
       ++i) {
    if (rl_drm_errors[i].error == error) return &rl_drm_errors[i];
  }
  return &rl_drm_error_unknown;
}

rl_status_t rl_drm_check(int result, const char* call, const char* file,
                         int line) {
  if (result >= 0) return RL_OK;
  const rl_drm_error_info_t* info = rl_drm_error_info(result);
  return rl_status_make(info->code, file, line, "%s: -%s (%d): %s", call,
                        info->name, result, info->description);
}

const char* rl_drm_family_name(uint32_t family_id) {
  switch (family_id) {
    case AMDGPU_FAMILY_GC_11_0_0: return "GC 11.0.0 (gfx1100, gfx1101, gfx1102)";
    case AMDGPU_FAMILY_GC_11_0_1: return "GC 11.0.1 (gfx1103)";
    case AMDGPU_FAMILY_GC_11_5_0: return "GC 11.5.0 (gfx1150, gfx1151)";
    case AMDGPU_FAMILY_GC_12_0_0: return "GC 12.0.0 (gfx1200, gfx1201)";
    default: return NULL;
  }
}
