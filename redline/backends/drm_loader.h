// redline/backends/drm_loader.h — libdrm_amdgpu.so.1 and libdrm.so.2 loaded
// with dlopen, type-checked against Debian's amdgpu.h and xf86drm.h.
//
// Loading: rl_drm_api_open() opens libdrm_amdgpu (explicit path, else
// $REDLINE_DRM_LIBRARY, else libdrm_amdgpu.so.1) and libdrm.so.2 (what
// libdrm_amdgpu itself depends on), and resolves every function of
// drm_symbols.h up front (dl_library.h has the search rules).
//
// Errors: libdrm returns negative errno values; rl_drm_error_info()
// translates them once (name, redline status, description) and
// RL_DRM_CALL(api, function, args...) turns a negative return into a status
// at the caller's file and line.
//
// Family ids: Debian's libdrm 2.4.114 amdgpu_drm.h stops at
// AMDGPU_FAMILY_YC (146). The ones redline's targets report are defined
// here from Linux include/uapi/drm/amdgpu_drm.h (v6.8+):
//   AMDGPU_FAMILY_GC_11_0_0 145  (gfx1100, gfx1101, gfx1102)
//   AMDGPU_FAMILY_GC_11_0_1 148  (gfx1103)
//   AMDGPU_FAMILY_GC_11_5_0 150  (gfx1150, gfx1151)
//   AMDGPU_FAMILY_GC_12_0_0 152  (gfx1200, gfx1201)
#ifndef REDLINE_BACKENDS_DRM_LOADER_H_
#define REDLINE_BACKENDS_DRM_LOADER_H_

#include <amdgpu.h>
#include <amdgpu_drm.h>
#include <xf86drm.h>

#include "redline/backends/dl_library.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef AMDGPU_FAMILY_GC_11_0_0
#define AMDGPU_FAMILY_GC_11_0_0 145
#endif
#ifndef AMDGPU_FAMILY_GC_11_0_1
#define AMDGPU_FAMILY_GC_11_0_1 148
#endif
#ifndef AMDGPU_FAMILY_GC_11_5_0
#define AMDGPU_FAMILY_GC_11_5_0 150
#endif
#ifndef AMDGPU_FAMILY_GC_12_0_0
#define AMDGPU_FAMILY_GC_12_0_0 152
#endif

#define RL_DRM_LIBRARY_ENV "REDLINE_DRM_LIBRARY"

#define RL_DRM_AMDGPU_SYMBOL(name) typedef __typeof__(name) rl_drm_##name##_t;
#define RL_DRM_CORE_SYMBOL(name) typedef __typeof__(name) rl_drm_##name##_t;
#include "redline/backends/drm_symbols.h"
#undef RL_DRM_AMDGPU_SYMBOL
#undef RL_DRM_CORE_SYMBOL

typedef struct rl_drm_functions_s {
#define RL_DRM_AMDGPU_SYMBOL(name) rl_drm_##name##_t* name;
#define RL_DRM_CORE_SYMBOL(name) rl_drm_##name##_t* name;
#include "redline/backends/drm_symbols.h"
#undef RL_DRM_AMDGPU_SYMBOL
#undef RL_DRM_CORE_SYMBOL
} rl_drm_functions_t;

typedef struct rl_drm_api_s {
  rl_dl_library_t amdgpu;  // libdrm_amdgpu.so.1
  rl_dl_library_t core;    // libdrm.so.2
  rl_drm_functions_t fn;
} rl_drm_api_t;

rl_status_t rl_drm_api_open(rl_drm_api_t* api, const char* explicit_path);
void rl_drm_api_close(rl_drm_api_t* api);

typedef struct rl_drm_error_info_s {
  int error;  // positive errno
  const char* name;
  rl_status_code_t code;
  const char* description;
} rl_drm_error_info_t;

// The row for |result| (a libdrm return: -errno, or errno); unknown values
// get a shared "E?" row with RL_STATUS_UNAVAILABLE.
const rl_drm_error_info_t* rl_drm_error_info(int result);

// RL_OK for |result| >= 0.
rl_status_t rl_drm_check(int result, const char* call, const char* file,
                         int line);

#define RL_DRM_CALL(api, function, ...) \
  rl_drm_check((api)->fn.function(__VA_ARGS__), #function, __FILE__, __LINE__)

// "GC 11.0.0 (gfx1100, gfx1101, gfx1102)" for an amdgpu family id, or NULL
// for families redline does not target.
const char* rl_drm_family_name(uint32_t family_id);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_BACKENDS_DRM_LOADER_H_
