// tests/standins/hip/standin_hip_hooks.h — test hooks exported by the CI
// stand-in for HIP (libamdhip64.so.6 over the simulated GPU; standin_hip.c
// describes it). Tests dlopen the stand-in and dlsym these names.
//
// Misuse the stand-in detects (each recorded as one error message, and the
// call returns the HIP error named):
//   - a launch, synchronize or capture on a destroyed stream
//     (hipErrorInvalidHandle);
//   - hipFree of memory a launch still pending on some stream references
//     (the kernarg holds an address inside it): recorded, then the free
//     synchronises and proceeds, as HIP's hipFree does;
//   - hipMemcpy / hipMemGetAddressRange touching bytes outside every live
//     allocation, or a device range spanning two (hipErrorInvalidValue);
//   - hipFree of an address that is not the base of a live allocation
//     (hipErrorInvalidValue);
//   - a launch whose function belongs to an unloaded module
//     (hipErrorInvalidResourceHandle... reported as hipErrorInvalidHandle).
// Environment:
//   REDLINE_STANDIN_ISA=amdgcn-amd-amdhsa--gfx1100   the device's ISA
//   REDLINE_STANDIN_HIP_REPORT=PATH   at exit, write "errors N", "launches N"
//                                     and one "error: ..." line per error
#ifndef REDLINE_TESTS_STANDINS_HIP_STANDIN_HIP_HOOKS_H_
#define REDLINE_TESTS_STANDINS_HIP_STANDIN_HIP_HOOKS_H_

#include <stdint.h>

uint32_t rl_standin_hip_error_count(void);
const char* rl_standin_hip_error(uint32_t index);  // first 64 kept, or ""
void rl_standin_hip_clear_errors(void);
// Dispatches executed on the simulated GPU since load.
uint64_t rl_standin_hip_launch_count(void);

typedef uint32_t (*rl_standin_hip_error_count_fn)(void);
typedef const char* (*rl_standin_hip_error_fn)(uint32_t);
typedef void (*rl_standin_hip_clear_errors_fn)(void);
typedef uint64_t (*rl_standin_hip_launch_count_fn)(void);

#endif  // REDLINE_TESTS_STANDINS_HIP_STANDIN_HIP_HOOKS_H_
