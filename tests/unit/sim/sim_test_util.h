// tests/unit/sim/sim_test_util.h — shared pieces of the simulated-device tests:
// a fixture (device, one queue, the vecchain code object loaded), a producer
// that publishes packets by hand with the AQL protocol, and a small test
// executor.
//
// The test executor implements two vecchain kernels with their real kernarg
// layouts (kernels/vecchain.hip), one 4-byte access per work-item:
//   vc_fill(float* out @0, float value @8, unsigned n @12): out[i] = value;
//   vc_copy_u32(const unsigned* in @0, unsigned* out @8, unsigned n @16):
//     out[i] = in[i].
// Every other kernel is refused in begin() with RL_STATUS_UNSUPPORTED, which
// the command processor turns into a queue fault.
#ifndef REDLINE_TESTS_UNIT_SIM_TEST_UTIL_H_
#define REDLINE_TESTS_UNIT_SIM_TEST_UTIL_H_

#include <stdbool.h>
#include <stdint.h>

#include "aql/aql_packet.h"
#include "sim/sim.h"

// Bounded waits: long enough for a loaded CI machine when something must
// happen, short when the test proves that something does not.
#define RL_TEST_WAIT_NS 10000000000ull        // 10 s
#define RL_TEST_NEGATIVE_WAIT_NS 50000000ull  // 50 ms

typedef struct rl_sim_fixture_s {
  rl_device_t* device;
  rl_device_queue_t queue;
  void* code_bytes;
  size_t code_size;
  rl_code_object_t* code;
  rl_device_code_object_t loaded;
} rl_sim_fixture_t;

// The executor described above.
extern const rl_sim_executor_t rl_test_executor;

// Creates the device with |options| (executor defaulted to the test
// executor), a queue of |packet_count| slots and loads vecchain-gfx1100.co.
void rl_sim_fixture_setup(rl_sim_fixture_t* fixture,
                          const rl_sim_options_t* options,
                          uint32_t packet_count);
// The same with the code object at |path| instead of vecchain's.
void rl_sim_fixture_setup_code(rl_sim_fixture_t* fixture,
                               const rl_sim_options_t* options,
                               uint32_t packet_count, const char* path);
// Destroys the queue (must return OK), unloads and destroys the device.
void rl_sim_fixture_teardown(rl_sim_fixture_t* fixture);

// The kernel object (device address of the `.kd`) of kernel |name|.
uint64_t rl_sim_fixture_kernel(rl_sim_fixture_t* fixture, const char* name);

// A device allocation of |size| bytes; the test fails if it cannot be made.
rl_device_allocation_t rl_sim_fixture_alloc(rl_sim_fixture_t* fixture,
                                            uint64_t size);
// A signal with |value|.
uint64_t rl_sim_fixture_signal(rl_sim_fixture_t* fixture, int64_t value);

// Kernarg segments for the two executor kernels (16-byte aligned).
uint64_t rl_sim_fixture_fill_args(rl_sim_fixture_t* fixture, uint64_t out,
                                  float value, uint32_t n);
uint64_t rl_sim_fixture_copy_args(rl_sim_fixture_t* fixture, uint64_t in,
                                  uint64_t out, uint32_t n);

// A 1-D dispatch packet of |items| work-items in work-groups of 64.
rl_aql_dispatch_packet_t rl_test_dispatch(uint64_t kernel_object,
                                          uint64_t kernarg, uint32_t items,
                                          uint64_t signal, bool barrier);

// Publishes |packet| with the producer protocol: claims the next id, waits
// (bounded) for room, copies bytes 4..63, release-stores the header word.
// Does not ring the doorbell. Returns the dispatch id.
uint64_t rl_test_publish(rl_sim_fixture_t* fixture, const void* packet);
// Publishes and rings the doorbell.
uint64_t rl_test_submit(rl_sim_fixture_t* fixture, const void* packet);

// Waits until |signal| < 1; returns whether it happened within |timeout_ns|.
bool rl_test_wait(rl_sim_fixture_t* fixture, uint64_t signal,
                  uint64_t timeout_ns);

#endif  // REDLINE_TESTS_UNIT_SIM_TEST_UTIL_H_
