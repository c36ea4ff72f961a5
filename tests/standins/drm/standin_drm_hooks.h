// tests/standins/drm/standin_drm_hooks.h — test hooks exported by the CI
// stand-in for libdrm_amdgpu.so.1 (standin_drm.c: libdrm_amdgpu over the
// simulated GPU). Tests dlopen the stand-in and dlsym these names.
//
// Misuse the stand-in detects (each recorded as one error message, and the
// call fails with -EINVAL as the kernel's would):
//   - a submission whose IB is not inside a BO of its buffer list (the
//     kernel's amdgpu_cs_find_mapping), or with no / a destroyed list;
//   - a submission on a destroyed context;
//   - a fence query for a context that was destroyed or a sequence number
//     that was never submitted;
//   - freeing a BO that is still VA-mapped or CPU-mapped, or a VA range
//     still bound to a BO; any use of a freed handle.
// Environment (read at amdgpu_device_initialize unless noted):
//   REDLINE_STANDIN_DRM_TARGET=gfx1100    the device's processor: gfx1100
//       (family 145, rev 0x01), gfx1151 (150, 0xC1), gfx1201 (152, 0x50),
//       gfx1101 (145, 0x20) or gfx1030 (143, 0x28); the sim runs the first
//       three (others run as gfx1100, so redline's refusal is what gets
//       tested).
//   REDLINE_STANDIN_DRM_HANG=1           submissions never complete
//   REDLINE_STANDIN_DRM_CODE_OBJECTS=DIR where the .co files are (default:
//       the build's kernels directory). The GPU needs no loader; the
//       simulator does, so at submission the stand-in recognises a BO that
//       holds a laid-out code object image by laying out each .co of DIR
//       for the BO's address and comparing.
//   REDLINE_STANDIN_REPORT=PATH          at exit, "errors N" then each.
// A render node is accepted when it is a character device or a regular
// file (tests point REDLINE_DRM_RENDER_NODE at an empty file).
#ifndef REDLINE_TESTS_STANDINS_DRM_STANDIN_DRM_HOOKS_H_
#define REDLINE_TESTS_STANDINS_DRM_STANDIN_DRM_HOOKS_H_

#include <stdint.h>

uint32_t rl_standin_drm_error_count(void);
const char* rl_standin_drm_error(uint32_t index);  // first 64 kept, or ""
void rl_standin_drm_clear_errors(void);
uint32_t rl_standin_drm_submissions(void);  // accepted submissions

typedef uint32_t (*rl_standin_drm_error_count_fn)(void);
typedef const char* (*rl_standin_drm_error_fn)(uint32_t);
typedef void (*rl_standin_drm_clear_errors_fn)(void);
typedef uint32_t (*rl_standin_drm_submissions_fn)(void);

#endif  // REDLINE_TESTS_STANDINS_DRM_STANDIN_DRM_HOOKS_H_
