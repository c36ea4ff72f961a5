// tests/unit/kernels/workloads/decode_test_util.h — helpers shared by the
// decode and verify tests (decode_ref_test.c, decode_workload_test.c,
// verify_ref_test.c, verify_workload_test.c, verify_route_test.c,
// verify_serve_test.c): the code object, a funnel over the simulated GPU
// running the reference executor, and single-kernel launches through it.
#ifndef REDLINE_TESTS_UNIT_DECODE_TEST_UTIL_H_
#define REDLINE_TESTS_UNIT_DECODE_TEST_UTIL_H_

#include <stddef.h>
#include <stdint.h>

#include "redline/device/device.h"
#include "redline/funnel.h"
#include "redline/status.h"


// A funnel recording on a fresh simulated GPU (gfx1100 unless named;
// sequential hazards, the `ref` executor), with the decode code-object bytes
// of that target at hand.
typedef struct rl_dt_sim_s {
  void* bytes;
  size_t size;
  rl_device_t* device;
  rl_funnel_device_t funnel_device;
  rl_funnel_t* funnel;
  uint32_t code_object;  // loaded by rl_dt_sim_load_kernels only
} rl_dt_sim_t;

// Fails the test with the status message when |status| is not OK.
void rl_dt_ok(rl_status_t status);

// Fails the test unless |status| has |code| and its message contains
// |needle|; frees |status|.
void rl_dt_expect(rl_status_t status, rl_status_code_t code,
                  const char* needle);

// Creates the device, the adapter and a funnel named |workload|; reads the
// code object. |null_device| records only (no execution).
void rl_dt_sim_open(rl_dt_sim_t* sim, const char* workload, int null_device);

// Same on a simulated |target| ("gfx1151", ...) with decode-<target>.co.
void rl_dt_sim_open_target(rl_dt_sim_t* sim, const char* workload,
                           int null_device, const char* target);

// Same with the code object of |kernels| ("verify": verify-gfx1100.co).
void rl_dt_sim_open_kernels(rl_dt_sim_t* sim, const char* workload,
                            int null_device, const char* target,
                            const char* kernels);
void rl_dt_sim_close(rl_dt_sim_t* sim);

// Loads the code object into the funnel (for single-kernel launches).
void rl_dt_sim_load(rl_dt_sim_t* sim);

// Registers buffer |name| of |bytes| bytes (role scratch) and uploads |data|
// when non-NULL; *|out_address| is its device address.
uint32_t rl_dt_buffer(rl_dt_sim_t* sim, const char* name, const void* data,
                      uint64_t bytes, uint64_t* out_address);

// Launches kernel |name| on |gx| x |gy| work-groups of 64.
void rl_dt_launch(rl_dt_sim_t* sim, const char* name, uint32_t gx,
                  uint32_t gy, const rl_funnel_arg_t* args, uint32_t count);

// Reads |bytes| bytes of |buffer|.
void rl_dt_read(rl_dt_sim_t* sim, uint32_t buffer, void* data,
                uint64_t bytes);

// splitmix64 and a uniform float in (-amplitude, amplitude).
uint64_t rl_dt_next(uint64_t* state);
float rl_dt_uniform(uint64_t* state, double amplitude);

#endif  // REDLINE_TESTS_UNIT_DECODE_TEST_UTIL_H_
