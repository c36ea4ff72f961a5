// tests/unit/pm4/pm4_test_util.h — fixtures for the PM4 lowering tests: the
// vecchain workload recorded through the funnel with the record-only device
// for one target, lowering inputs at fixed fake device addresses, and an
// IB walker that simulates the SH register file independently of the
// library (its own decode loop over rl_pm4_decode_next).
#ifndef REDLINE_TESTS_UNIT_PM4_TEST_UTIL_H_
#define REDLINE_TESTS_UNIT_PM4_TEST_UTIL_H_

#include <stdbool.h>
#include <stdint.h>

#include "pm4/pm4_decode.h"
#include "pm4/pm4_lower.h"
#include "redline/capture.h"
#include "redline/hazard.h"

#define RL_PM4_TEST_BUFFER_BASE 0x0000900000000000ull
#define RL_PM4_TEST_CODE_BASE 0x0000a00000000000ull
#define RL_PM4_TEST_KERNARG 0x0000b00000000000ull
#define RL_PM4_TEST_IB 0x0000b80000000000ull
#define RL_PM4_TEST_SIGNAL 0x0000c00000000040ull
#define RL_PM4_TEST_SCRATCH 0x0000c80000000000ull
#define RL_PM4_TEST_SH_COUNT 0x400u

typedef struct rl_pm4_fixture_s {
  const char* processor;
  rl_capture_t* capture;
  rl_hazard_plan_t* plan;
  uint64_t* buffers;
  uint64_t* objects;
  uint64_t* entries;
  int64_t pos;
  rl_pm4_lower_inputs_t inputs;
} rl_pm4_fixture_t;

// Records vecchain for |processor| and fills the inputs (cmocka asserts).
void rl_pm4_fixture_init(rl_pm4_fixture_t* f, const char* processor);
void rl_pm4_fixture_deinit(rl_pm4_fixture_t* f);
// The same for a capture of |launch_count| launches cycling vecchain's
// (tests/unit/capture/capture_repeat.h), and for any capture (taken over).
void rl_pm4_fixture_repeat(rl_pm4_fixture_t* f, const char* processor,
                           uint32_t launch_count, uint32_t first,
                           uint32_t stride);
void rl_pm4_fixture_adopt(rl_pm4_fixture_t* f, const char* processor,
                          rl_capture_t* capture);

// What one dispatch of a walked IB saw.
typedef struct rl_pm4_view_s {
  uint32_t offset;      // of the DISPATCH_DIRECT header
  uint32_t dims[3];
  uint32_t initiator;
  uint32_t flushes;     // CS_PARTIAL_FLUSH since the previous dispatch
  uint32_t acquires;    // ACQUIRE_MEM since the previous dispatch
  uint32_t value[RL_PM4_TEST_SH_COUNT];  // SH register file (index - 0x2C00)
  bool known[RL_PM4_TEST_SH_COUNT];
} rl_pm4_view_t;

// Walks the stream of |program| (a chain's NOP padding and chain packets
// skipped); calls |visit| at every dispatch (NULL: count only). Returns the number of dispatches; *|out_tail| (may be NULL)
// receives the packets after the last dispatch as "flush,acquire,release"
// counts packed as flushes | acquires << 8 | releases << 16.
typedef void (*rl_pm4_visit_fn)(void* context, uint32_t dispatch,
                                const rl_pm4_view_t* view);
uint32_t rl_pm4_walk(const rl_pm4_program_t* program, rl_pm4_visit_fn visit,
                     void* context, uint32_t* out_tail);

// The value of SH register |index| (dword index) in |view|, asserting it
// was written.
uint32_t rl_pm4_view_reg(const rl_pm4_view_t* view, uint32_t index);

// Re-binding a lowered PM4 program outside a replay (moved out of pm4/ by
// issue 29: nothing in the product called it; the engine applies through
// its route table, redline/replay_route.c).
// Re-binds |program| to |values| and |buffer_addresses| with the apply
// every route shares (capture/bind/bind_table.h; rl_aql_program_apply in
// aql/aql_patch.h has the contract): pointers are re-resolved only when
// |buffer_addresses| is not NULL, each distinct expression is evaluated
// once, and only changed sites are written — segment sites into
// program->kernarg and |kernarg_host|, GRID_DIM into program->dwords and
// |ib_host| (either host view may be NULL or alias the program's copy),
// relay slots into program->relay only —
// so a failed evaluation (RL_STATUS_CONTRACT naming launch, kernel and
// binding) changes nothing and leaves *|out_changed_count| 0. The caller
// must not apply while the packet processor may still read the IB or
// segment.
rl_status_t rl_pm4_program_apply(rl_pm4_program_t* program,
                                 const rl_capture_t* capture,
                                 const int64_t* values, uint32_t param_count,
                                 const uint64_t* buffer_addresses,
                                 uint8_t* kernarg_host, uint32_t* ib_host,
                                 uint32_t* out_changed_count);

#endif  // REDLINE_TESTS_UNIT_PM4_TEST_UTIL_H_
