// tests/hip_programs/hip_programs_harness.h — runs the corpus programs
// (tests/hip_programs/*.hip) on a simulated GPU whose kernels are executed
// by the `isa` interpreter, through the recording funnel: the program's
// code object is loaded into a funnel over the device, buffers are
// registered and uploaded, kernels launched and results read back, exactly
// as a HIP application's launches would be recorded.
//
// Every helper fails the calling cmocka test with the status message on
// error. One thread drives one harness.
#ifndef REDLINE_TESTS_HIP_PROGRAMS_HIP_PROGRAMS_HARNESS_H_
#define REDLINE_TESTS_HIP_PROGRAMS_HIP_PROGRAMS_HARNESS_H_

#include <stddef.h>
#include <stdint.h>

#include "redline/capture.h"
#include "redline/device/device.h"
#include "redline/funnel.h"

typedef struct rl_hp_s {
  void* bytes;  // the code object
  size_t size;
  rl_device_t* device;
  rl_funnel_device_t funnel_device;
  rl_funnel_t* funnel;
  uint32_t code_object;
  uint32_t param;  // the capture's window parameter (unused by kernels)
} rl_hp_t;

// Opens program |program| ("transpose") for |target| ("gfx1100") built with
// |variant| ("" for -O2, "-O1", ...): reads
// RL_HIP_PROGRAMS_DIR/<program>-<target><variant>.co, creates the simulated
// device (sequential hazards, the isa executor), the funnel and loads the
// code object.
void rl_hp_open(rl_hp_t* hp, const char* program, const char* target,
                const char* variant);
void rl_hp_close(rl_hp_t* hp);

// Registers buffer |name| of |bytes| bytes and uploads |data| when
// non-NULL (zero-filled otherwise); returns the buffer index and the device
// address in *|out_address|.
uint32_t rl_hp_buffer(rl_hp_t* hp, const char* name, const void* data,
                      uint64_t bytes, uint64_t* out_address);

// Launches kernel |name| on grid |gx| x |gy| work-groups of |bx| x |by|.
void rl_hp_launch(rl_hp_t* hp, const char* name, uint32_t gx, uint32_t gy,
                  uint32_t bx, uint32_t by, const rl_funnel_arg_t* args,
                  uint32_t count);

// Reads |bytes| bytes of |buffer| back.
void rl_hp_read(rl_hp_t* hp, uint32_t buffer, void* data, uint64_t bytes);

// Declares |buffer| (|bytes| bytes, elements of |type|) a state region of
// the capture; the first call also declares the window (two steps of an
// unused parameter, so a shadow run replays the launches twice).
void rl_hp_region(rl_hp_t* hp, const char* name, uint32_t buffer,
                  uint64_t bytes, rl_region_type_t type);

// Finishes the funnel and writes the capture to |path|.
void rl_hp_write_capture(rl_hp_t* hp, const char* path);

// splitmix64: the seeded input generator of every test.
uint64_t rl_hp_next(uint64_t* state);

#endif  // REDLINE_TESTS_HIP_PROGRAMS_HIP_PROGRAMS_HARNESS_H_
