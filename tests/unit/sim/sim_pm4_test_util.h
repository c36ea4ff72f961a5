// tests/unit/sim/sim_pm4_test_util.h — shared pieces of the simulated device's
// PM4 tests: a fixture for any processor running the reference executor
// (kernels/ref) on the vecchain code object, IBs in device memory built with
// pm4/pm4_builder.h, the register recipe of pm4_reference.md §3.4 for one
// kernel, and the vendor PM4-IB AQL packet ROCR builds (§4.4).
#ifndef REDLINE_TESTS_UNIT_SIM_PM4_TEST_UTIL_H_
#define REDLINE_TESTS_UNIT_SIM_PM4_TEST_UTIL_H_

#include <stdbool.h>
#include <stdint.h>

#include "pm4/pm4_builder.h"
#include "tests/unit/sim/sim_test_util.h"

typedef struct rl_pm4_fixture_s {
  rl_sim_fixture_t sim;  // device, queue, vecchain-<processor>.co loaded
  const rl_pm4_family_t* family;
  rl_device_fault_t fault;  // filled by rl_pm4_test_fault
} rl_pm4_fixture_t;

// An IB in device memory and a builder writing into its host view.
typedef struct rl_pm4_test_ib_s {
  rl_device_allocation_t memory;
  rl_pm4_builder_t builder;
} rl_pm4_test_ib_t;

// What rl_pm4_test_emit_kernel writes; zero-initialised = the recipe.
typedef struct rl_pm4_test_kernel_s {
  bool no_priv;           // leave COMPUTE_PGM_RSRC1.PRIV clear
  int32_t lds_bytes;      // -1: LDS_SIZE 0; else the kernel's static LDS +
                          // this many bytes (rounded up to 512)
  uint64_t entry_offset;  // added to the entry address (not a kernel)
} rl_pm4_test_kernel_t;

void rl_pm4_fixture_setup(rl_pm4_fixture_t* fixture, const char* processor,
                          rl_sim_hazard_mode_t hazards);
// The same with the cache model in |cache_model| (sim_cache.h).
void rl_pm4_fixture_setup_cache(rl_pm4_fixture_t* fixture,
                                const char* processor,
                                rl_sim_hazard_mode_t hazards,
                                rl_sim_cache_mode_t cache_model);
void rl_pm4_fixture_teardown(rl_pm4_fixture_t* fixture);

// The parsed kernel |name| and its entry address on the device.
const rl_code_object_kernel_t* rl_pm4_test_kernel(rl_pm4_fixture_t* fixture,
                                                  const char* name);

void rl_pm4_test_ib_init(rl_pm4_fixture_t* fixture, rl_pm4_test_ib_t* ib,
                         uint32_t capacity_dwords);

// SET_SH_REGs of program, RSRC1..3 (+PRIV per family, +LDS_SIZE), START and
// NUM_THREAD (64x1x1), TMPRING_SIZE = 0 and the kernarg pointer in
// USER_DATA_0/1. |options| may be NULL.
void rl_pm4_test_emit_kernel(rl_pm4_fixture_t* fixture, rl_pm4_builder_t* b,
                             const char* name, uint64_t kernarg,
                             const rl_pm4_test_kernel_t* options);
// USER_DATA_0/1 = |kernarg| only.
void rl_pm4_test_emit_kernarg(rl_pm4_fixture_t* fixture, rl_pm4_builder_t* b,
                              uint64_t kernarg);
// DISPATCH_DIRECT of |groups| x 1 x 1 with CS_EN | FORCE_START_AT_000 |
// ORDER_MODE | CS_W32_EN (from the kernel's descriptor unless |w32_flip|).
void rl_pm4_test_emit_dispatch(rl_pm4_fixture_t* fixture, rl_pm4_builder_t* b,
                               const char* name, uint32_t groups,
                               bool w32_flip);
// CS_PARTIAL_FLUSH and/or the family's hazard-boundary ACQUIRE_MEM.
void rl_pm4_test_emit_wait(rl_pm4_fixture_t* fixture, rl_pm4_builder_t* b,
                           bool flush, bool acquire);

// Publishes the PM4-IB AQL packet for |ib| (its builder's count dwords)
// with system acquire/release scopes (|acquire| false: none) and rings the
// doorbell. Returns the packet id.
uint64_t rl_pm4_test_submit(rl_pm4_fixture_t* fixture,
                            const rl_pm4_test_ib_t* ib, uint64_t signal,
                            bool acquire);

// The same with explicit AQL fence scopes (RL_AQL_FENCE_SCOPE_*).
uint64_t rl_pm4_test_submit_scopes(rl_pm4_fixture_t* fixture,
                                   const rl_pm4_test_ib_t* ib,
                                   uint64_t signal, uint32_t acquire_scope,
                                   uint32_t release_scope);
// Kernarg segments (16-byte aligned) for vc_fill, vc_scale.
uint64_t rl_pm4_test_fill_args(rl_pm4_fixture_t* fixture, uint64_t out,
                               float value, uint32_t n);
uint64_t rl_pm4_test_scale_args(rl_pm4_fixture_t* fixture, uint64_t in,
                                uint64_t out, float s, uint32_t n);

// Waits for the queue's fault (bounded) and returns its message.
const char* rl_pm4_test_fault(rl_pm4_fixture_t* fixture);

// Asserts that |text| contains |needle|.
void rl_pm4_test_contains(const char* text, const char* needle);

#endif  // REDLINE_TESTS_UNIT_SIM_PM4_TEST_UTIL_H_
