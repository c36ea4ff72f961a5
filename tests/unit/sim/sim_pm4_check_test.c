// tests/unit/sim/sim_pm4_check_test.c — what the simulated PM4 interpreter
// refuses (each fault names the IB's dword offset and the opcode) and the
// hazards it reports between dispatches of one IB, with negative controls.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

// cmocka.h needs the headers above.
#include <cmocka.h>

#include "tests/unit/sim/sim_pm4_test_util.h"

#define RL_TEST_N 4096u  // 64 work-groups per dispatch
#define RL_TEST_GROUPS (RL_TEST_N / 64)

// A fixture and an IB that fills a buffer with vc_fill.
typedef struct rl_test_case_s {
  rl_pm4_fixture_t f;
  rl_pm4_test_ib_t ib;
  rl_device_allocation_t a;
  uint64_t args;
} rl_test_case_t;

static void rl_test_case_init(rl_test_case_t* c, const char* processor) {
  rl_pm4_fixture_setup(&c->f, processor, RL_SIM_HAZARDS_SEQUENTIAL);
  rl_pm4_test_ib_init(&c->f, &c->ib, 512);
  c->a = rl_sim_fixture_alloc(&c->f.sim, 4 * RL_TEST_N);
  c->args = rl_pm4_test_fill_args(&c->f, c->a.address, 1.0f, RL_TEST_N);
}

static void rl_test_raw(rl_pm4_builder_t* b, uint32_t value) {
  assert_true(b->count < b->capacity);
  b->dwords[b->count++] = value;
}

// Submits the case's IB, expects a fault whose message contains
// "dword |offset|" and |needle|, and tears the case down.
static void rl_test_expect_fault(rl_test_case_t* c, uint32_t offset,
                                 const char* opcode, const char* needle) {
  uint64_t signal = rl_sim_fixture_signal(&c->f.sim, 1);
  rl_pm4_test_submit(&c->f, &c->ib, signal, true);
  const char* message = rl_pm4_test_fault(&c->f);
  char where[64];
  snprintf(where, sizeof(where), "PM4 IB 0x%llx dword %u %s",
           (unsigned long long)c->ib.memory.address, offset, opcode);
  rl_pm4_test_contains(message, where);
  rl_pm4_test_contains(message, needle);
  assert_false(rl_test_wait(&c->f.sim, signal, RL_TEST_NEGATIVE_WAIT_NS));
  rl_pm4_fixture_teardown(&c->f);
}

static void rl_test_unknown_opcode(void** state) {
  (void)state;
  rl_test_case_t c;
  rl_test_case_init(&c, "gfx1100");
  assert_true(rl_pm4_emit_nop(&c.ib.builder, 2, NULL));  // dwords 0..2
  rl_test_raw(&c.ib.builder, rl_pm4_header(0x99, 2, 0));
  rl_test_raw(&c.ib.builder, 0);
  rl_test_expect_fault(&c, 3, "UNKNOWN(0x99)", "unknown");
}

static void rl_test_wrong_length(void** state) {
  (void)state;
  rl_test_case_t c;
  rl_test_case_init(&c, "gfx1100");
  assert_true(rl_pm4_emit_nop(&c.ib.builder, 1, NULL));  // dwords 0..1
  rl_test_raw(&c.ib.builder, rl_pm4_header(RL_PM4_DISPATCH_DIRECT, 4, 0));
  for (int i = 0; i < 3; ++i) rl_test_raw(&c.ib.builder, 1);
  rl_test_expect_fault(&c, 2, "DISPATCH_DIRECT", "has 4 dwords, expected 5");
}

static void rl_test_register_outside_window(void** state) {
  (void)state;
  rl_test_case_t c;
  rl_test_case_init(&c, "gfx1100");
  rl_test_raw(&c.ib.builder, rl_pm4_header(RL_PM4_SET_SH_REG, 4, 0));
  rl_test_raw(&c.ib.builder, 0x3FF);  // 0x2FFF and 0x3000: past the window
  rl_test_raw(&c.ib.builder, 1);
  rl_test_raw(&c.ib.builder, 2);
  rl_test_expect_fault(&c, 0, "SET_SH_REG", "SH window");
}

static void rl_test_dispatch_without_program(void** state) {
  (void)state;
  rl_test_case_t c;
  rl_test_case_init(&c, "gfx1100");
  rl_pm4_test_emit_kernarg(&c.f, &c.ib.builder, c.args);  // dwords 0..3
  rl_pm4_test_emit_dispatch(&c.f, &c.ib.builder, "vc_fill", 1, false);
  rl_test_expect_fault(&c, 4, "DISPATCH_DIRECT",
                       "COMPUTE_PGM_LO (0x2e0c) was never written");
}

static void rl_test_program_not_a_kernel(void** state) {
  (void)state;
  rl_test_case_t c;
  rl_test_case_init(&c, "gfx1100");
  rl_pm4_test_kernel_t options = {.entry_offset = 1u << 20};
  rl_pm4_test_emit_kernel(&c.f, &c.ib.builder, "vc_fill", c.args, &options);
  uint32_t offset = c.ib.builder.count;
  rl_pm4_test_emit_dispatch(&c.f, &c.ib.builder, "vc_fill", 1, false);
  rl_test_expect_fault(&c, offset, "DISPATCH_DIRECT",
                       "no kernel at program address 0x");
}

static void rl_test_missing_priv_gfx11(void** state) {
  (void)state;
  rl_test_case_t c;
  rl_test_case_init(&c, "gfx1100");
  rl_pm4_test_kernel_t options = {.no_priv = true};
  rl_pm4_test_emit_kernel(&c.f, &c.ib.builder, "vc_fill", c.args, &options);
  uint32_t offset = c.ib.builder.count;
  rl_pm4_test_emit_dispatch(&c.f, &c.ib.builder, "vc_fill", 1, false);
  rl_test_expect_fault(&c, offset, "DISPATCH_DIRECT",
                       "gfx11 PM4 dispatch needs COMPUTE_PGM_RSRC1.PRIV");
}

static void rl_test_wave32_mismatch(void** state) {
  (void)state;
  rl_test_case_t c;
  rl_test_case_init(&c, "gfx1201");
  rl_pm4_test_emit_kernel(&c.f, &c.ib.builder, "vc_fill", c.args, NULL);
  uint32_t offset = c.ib.builder.count;
  rl_pm4_test_emit_dispatch(&c.f, &c.ib.builder, "vc_fill", 1, true);
  rl_test_expect_fault(&c, offset, "DISPATCH_DIRECT", "CS_W32_EN=0");
}

// vc_partial_sum has 256 bytes of static LDS; LDS_SIZE 0 gives none.
static void rl_test_lds_too_small(void** state) {
  (void)state;
  rl_test_case_t c;
  rl_test_case_init(&c, "gfx1100");
  rl_pm4_test_kernel_t options = {.lds_bytes = -1};
  rl_pm4_test_emit_kernel(&c.f, &c.ib.builder, "vc_partial_sum", c.args,
                          &options);
  uint32_t offset = c.ib.builder.count;
  rl_pm4_test_emit_dispatch(&c.f, &c.ib.builder, "vc_partial_sum", 1, false);
  rl_test_expect_fault(&c, offset, "DISPATCH_DIRECT",
                       "LDS_SIZE is 0 (0 bytes), less than kernel "
                       "vc_partial_sum's static LDS of 256 bytes");
}

static void rl_test_kernarg_unmapped(void** state) {
  (void)state;
  rl_test_case_t c;
  rl_test_case_init(&c, "gfx1100");
  rl_pm4_test_emit_kernel(&c.f, &c.ib.builder, "vc_fill", 0x1000, NULL);
  uint32_t offset = c.ib.builder.count;
  rl_pm4_test_emit_dispatch(&c.f, &c.ib.builder, "vc_fill", 1, false);
  rl_test_expect_fault(&c, offset, "DISPATCH_DIRECT",
                       "VM fault: kernel vc_fill: kernarg segment [0x1000");
}

//===----------------------------------------------------------------------===//
// Chained IBs (docs/pm4-chaining.md): every IB of a chain is bounds-checked
// on entry; what a real CP would hang or VM-fault on is a fault naming the
// chain packet. The control, a chain that runs, is in sim_pm4_test.c.
//===----------------------------------------------------------------------===//

// The case's IB: a NOP, then an INDIRECT_BUFFER CHAIN to |address| with
// |control| as dword 3; expects the fault at the chain packet (dword 3).
static void rl_test_bad_chain(uint64_t address, uint32_t control,
                              const char* needle) {
  rl_test_case_t c;
  rl_test_case_init(&c, "gfx1100");
  assert_true(rl_pm4_emit_nop(&c.ib.builder, 2, NULL));  // dwords 0..2
  rl_test_raw(&c.ib.builder, rl_pm4_header(RL_PM4_INDIRECT_BUFFER, 4, 0));
  rl_test_raw(&c.ib.builder, (uint32_t)address);
  rl_test_raw(&c.ib.builder, (uint32_t)(address >> 32));
  rl_test_raw(&c.ib.builder, control);
  rl_test_expect_fault(&c, 3, "INDIRECT_BUFFER", needle);
}

static uint32_t rl_test_chain_control(uint32_t size) {
  return RL_PM4_PUT(INDIRECT_BUFFER, IB_SIZE, size) |
         RL_PM4_PUT(INDIRECT_BUFFER, CHAIN, 1) |
         RL_PM4_PUT(INDIRECT_BUFFER, VALID, 1);
}

static void rl_test_chain_unmapped(void** state) {
  (void)state;
  rl_test_bad_chain(0x7f0000000000ull, rl_test_chain_control(16),
                    "VM fault: IB fetch of 64 bytes at 0x7f0000000000");
}

static void rl_test_chain_zero_size(void** state) {
  (void)state;
  rl_test_case_t c;
  rl_test_case_init(&c, "gfx1100");
  assert_true(rl_pm4_emit_nop(&c.ib.builder, 2, NULL));
  assert_true(rl_pm4_emit_indirect_buffer(&c.ib.builder, c.ib.memory.address,
                                          1, true, NULL));
  c.ib.builder.dwords[6] &= ~0xfffffu;  // IB_SIZE 0
  rl_test_expect_fault(&c, 3, "INDIRECT_BUFFER", "a nonzero size");
}

static void rl_test_chain_not_valid(void** state) {
  (void)state;
  rl_test_case_t c;
  rl_test_case_init(&c, "gfx1100");
  assert_true(rl_pm4_emit_nop(&c.ib.builder, 2, NULL));
  assert_true(rl_pm4_emit_indirect_buffer(&c.ib.builder, c.ib.memory.address,
                                          8, true, NULL));
  c.ib.builder.dwords[6] &= ~(1u << RL_PM4_INDIRECT_BUFFER_VALID_SHIFT);
  rl_test_expect_fault(&c, 3, "INDIRECT_BUFFER", "expected VALID (bit 23)");
}

// A chain into mapped memory whose size runs past the allocation's end.
static void rl_test_chain_past_allocation(void** state) {
  (void)state;
  rl_test_case_t c;
  rl_test_case_init(&c, "gfx1100");
  rl_pm4_test_ib_t next;
  rl_pm4_test_ib_init(&c.f, &next, 64);
  assert_true(rl_pm4_emit_nop(&c.ib.builder, 2, NULL));
  assert_true(rl_pm4_emit_indirect_buffer(&c.ib.builder, next.memory.address,
                                          1u << 19, true, NULL));
  char needle[96];
  snprintf(needle, sizeof(needle), "VM fault: IB fetch of %u bytes at 0x%llx",
           4u << 19, (unsigned long long)next.memory.address);
  rl_test_expect_fault(&c, 3, "INDIRECT_BUFFER", needle);
}

// An IB chaining to itself: a real CP spins until the queue is reset; the
// simulator faults after RL_SIM_PM4_MAX_CHAINS chained IBs.
static void rl_test_chain_loop(void** state) {
  (void)state;
  rl_test_case_t c;
  rl_test_case_init(&c, "gfx1100");
  assert_true(rl_pm4_emit_nop(&c.ib.builder, 2, NULL));
  assert_true(rl_pm4_emit_indirect_buffer(&c.ib.builder, c.ib.memory.address,
                                          7, true, NULL));
  rl_test_expect_fault(&c, 3, "INDIRECT_BUFFER",
                       "chained IBs in one AQL packet (an IB chain loop?)");
}

// How the test separates the producer from the consumer.
typedef enum rl_test_wait_e {
  RL_TEST_NO_WAIT = 0,
  RL_TEST_FLUSH = 1,  // EVENT_WRITE CS_PARTIAL_FLUSH
  RL_TEST_FENCE = 2,  // RELEASE_MEM fence + WAIT_REG_MEM on it
} rl_test_wait_t;

static void rl_test_emit_fence(rl_pm4_fixture_t* f, rl_pm4_builder_t* b) {
  rl_device_allocation_t fence = rl_sim_fixture_alloc(&f->sim, 8);
  rl_pm4_release_mem_t release = {
      .event_type = RL_PM4_EVENT_CACHE_FLUSH_AND_INV_TS,
      .event_index = RL_PM4_EVENT_INDEX_END_OF_PIPE,
      .data_sel = RL_PM4_DATA_SEL_LOW32,
      .address = fence.address,
      .data = 5,
  };
  assert_true(rl_pm4_emit_release_mem(b, &release, NULL));
  assert_true(rl_pm4_emit_wait_reg_mem(b, RL_PM4_WAIT_EQ, fence.address, 5,
                                       0xFFFFFFFFu, 10, NULL));
}

// A kernel with ENABLE_SGPR_DISPATCH_PTR (flipped in the parsed code object:
// the loader reads it from there) takes USER_DATA_0/1 = the dispatch ptr,
// 2/3 = the kernarg ptr. The image must agree with the registers.
// Dispatches vc_fill over RL_TEST_GROUPS after what |c|'s IB holds: the
// simulator must refuse it with |fault|, or (|fault| NULL) run it and fill
// the buffer.
static void rl_test_dispatch_fill(rl_test_case_t* c, const char* fault) {
  uint32_t offset = c->ib.builder.count;
  rl_pm4_test_emit_dispatch(&c->f, &c->ib.builder, "vc_fill", RL_TEST_GROUPS,
                            false);
  if (fault != NULL) {
    rl_test_expect_fault(c, offset, "DISPATCH_DIRECT", fault);
    return;
  }
  uint64_t signal = rl_sim_fixture_signal(&c->f.sim, 1);
  rl_pm4_test_submit(&c->f, &c->ib, signal, true);
  assert_true(rl_test_wait(&c->f.sim, signal, RL_TEST_WAIT_NS));
  assert_true(((const float*)c->a.host)[RL_TEST_N - 1] == 1.0f);
  rl_pm4_fixture_teardown(&c->f);
}

static void rl_test_dispatch_ptr(uint32_t image_grid, const char* fault) {
  rl_test_case_t c;
  rl_test_case_init(&c, "gfx1100");
  rl_code_object_kernel_t* k =
      (rl_code_object_kernel_t*)rl_pm4_test_kernel(&c.f, "vc_fill");
  k->descriptor_info.enable_sgpr_dispatch_ptr = true;
  rl_device_allocation_t image = rl_sim_fixture_alloc(&c.f.sim, 64);
  rl_aql_dispatch_packet_t packet =
      rl_test_dispatch(0, c.args, image_grid, 0, true);
  memcpy(image.host, &packet, sizeof(packet));
  rl_pm4_test_emit_kernel(&c.f, &c.ib.builder, "vc_fill", c.args, NULL);
  uint32_t user[4] = {(uint32_t)image.address, (uint32_t)(image.address >> 32),
                      (uint32_t)c.args, (uint32_t)(c.args >> 32)};
  assert_true(rl_pm4_emit_set_sh_reg(
      &c.ib.builder, c.f.family->regs.user_data_0, user, 4, NULL));
  rl_test_dispatch_fill(&c, fault);
}

static void rl_test_dispatch_ptr_image(void** state) {
  (void)state;
  rl_test_dispatch_ptr(RL_TEST_N, NULL);
  rl_test_dispatch_ptr(RL_TEST_N - 64, "grid 4032x1x1");
}

// fill(a) → wait → [acquire] → scale(a → b), adversarial. Returns the
// number of hazards and copies the first into |out_hazard|; *|out_exact|
// says whether b is exactly the sequential result.
static uint32_t rl_test_hazard_run(rl_test_wait_t wait, bool acquire,
                                   rl_sim_hazard_t* out_hazard,
                                   bool* out_exact) {
  rl_pm4_fixture_t f;
  rl_pm4_fixture_setup(&f, "gfx1100", RL_SIM_HAZARDS_ADVERSARIAL);
  rl_device_allocation_t a = rl_sim_fixture_alloc(&f.sim, 4 * RL_TEST_N);
  rl_device_allocation_t b = rl_sim_fixture_alloc(&f.sim, 4 * RL_TEST_N);
  rl_pm4_test_ib_t ib;
  rl_pm4_test_ib_init(&f, &ib, 512);
  rl_pm4_test_emit_kernel(&f, &ib.builder, "vc_fill",
                          rl_pm4_test_fill_args(&f, a.address, 2.0f, RL_TEST_N),
                          NULL);
  rl_pm4_test_emit_dispatch(&f, &ib.builder, "vc_fill", RL_TEST_GROUPS, false);
  if (wait == RL_TEST_FENCE) rl_test_emit_fence(&f, &ib.builder);
  rl_pm4_test_emit_wait(&f, &ib.builder, wait == RL_TEST_FLUSH, acquire);
  rl_pm4_test_emit_kernel(
      &f, &ib.builder, "vc_scale",
      rl_pm4_test_scale_args(&f, a.address, b.address, 3.0f, RL_TEST_N), NULL);
  rl_pm4_test_emit_dispatch(&f, &ib.builder, "vc_scale", RL_TEST_GROUPS, false);
  uint64_t signal = rl_sim_fixture_signal(&f.sim, 1);
  rl_pm4_test_submit(&f, &ib, signal, false);
  assert_true(rl_test_wait(&f.sim, signal, RL_TEST_WAIT_NS));
  *out_exact = true;
  for (uint32_t i = 0; i < RL_TEST_N; ++i) {
    *out_exact = *out_exact && ((const float*)b.host)[i] == 6.0f;
  }
  memset(out_hazard, 0, sizeof(*out_hazard));
  uint32_t count = rl_sim_hazards(f.sim.device, out_hazard, 1);
  rl_pm4_fixture_teardown(&f);
  return count;
}

static void rl_test_hazard_no_flush(void** state) {
  (void)state;
  rl_sim_hazard_t hazard;
  bool exact = true;
  assert_int_equal(rl_test_hazard_run(RL_TEST_NO_WAIT, false, &hazard, &exact),
                   1);
  assert_int_equal(hazard.kind, 1);  // RAW: vc_fill wrote, vc_scale read a
  assert_true(hazard.earlier_dispatch < hazard.later_dispatch);
  assert_int_equal(hazard.size, 4 * RL_TEST_N);
  assert_false(exact);  // the interleaving read some of a before the fill
}

static void rl_test_hazard_flush_without_acquire(void** state) {
  (void)state;
  rl_sim_hazard_t hazard;
  bool exact = false;
  assert_int_equal(rl_test_hazard_run(RL_TEST_FLUSH, false, &hazard, &exact),
                   1);
  assert_int_equal(hazard.kind, RL_SIM_HAZARD_RAW_NO_ACQUIRE);
  assert_int_equal(hazard.size, 4 * RL_TEST_N);
  assert_true(exact);  // the flush ordered them: only the caches are stale
}

// Negative control: flush + acquire separates them completely.
static void rl_test_hazard_flush_and_acquire(void** state) {
  (void)state;
  rl_sim_hazard_t hazard;
  bool exact = false;
  assert_int_equal(rl_test_hazard_run(RL_TEST_FLUSH, true, &hazard, &exact), 0);
  assert_true(exact);
}

// A WAIT_REG_MEM on a RELEASE_MEM fence is a compute-idle wait too: without
// an acquire the stale-cache hazard remains, with one nothing is reported.
static void rl_test_hazard_fence(void** state) {
  (void)state;
  rl_sim_hazard_t hazard;
  bool exact = false;
  assert_int_equal(rl_test_hazard_run(RL_TEST_FENCE, false, &hazard, &exact),
                   1);
  assert_int_equal(hazard.kind, RL_SIM_HAZARD_RAW_NO_ACQUIRE);
  assert_true(exact);
  assert_int_equal(rl_test_hazard_run(RL_TEST_FENCE, true, &hazard, &exact), 0);
  assert_true(exact);
}

// fill(a) in one PM4-IB packet, scale(a → b) in the next: the end of the
// first IB is compute idle, so only the second packet's acquire fence scope
// decides whether the reader may see stale lines.
static uint32_t rl_test_two_packets(bool acquire) {
  rl_pm4_fixture_t f;
  rl_pm4_fixture_setup(&f, "gfx1201", RL_SIM_HAZARDS_ADVERSARIAL);
  rl_device_allocation_t a = rl_sim_fixture_alloc(&f.sim, 4 * RL_TEST_N);
  rl_device_allocation_t b = rl_sim_fixture_alloc(&f.sim, 4 * RL_TEST_N);
  rl_pm4_test_ib_t first, second;
  rl_pm4_test_ib_init(&f, &first, 256);
  rl_pm4_test_ib_init(&f, &second, 256);
  rl_pm4_test_emit_kernel(&f, &first.builder, "vc_fill",
                          rl_pm4_test_fill_args(&f, a.address, 2.0f, RL_TEST_N),
                          NULL);
  rl_pm4_test_emit_dispatch(&f, &first.builder, "vc_fill", RL_TEST_GROUPS,
                            false);
  rl_pm4_test_emit_kernel(
      &f, &second.builder, "vc_scale",
      rl_pm4_test_scale_args(&f, a.address, b.address, 3.0f, RL_TEST_N), NULL);
  rl_pm4_test_emit_dispatch(&f, &second.builder, "vc_scale", RL_TEST_GROUPS,
                            false);
  uint64_t signal = rl_sim_fixture_signal(&f.sim, 2);
  rl_pm4_test_submit(&f, &first, signal, false);
  rl_pm4_test_submit(&f, &second, signal, acquire);
  int64_t value = 0;
  assert_true(f.sim.device->vtable->signal_wait_lt(f.sim.device, signal, 1,
                                                   RL_TEST_WAIT_NS, &value));
  assert_true(((const float*)b.host)[RL_TEST_N - 1] == 6.0f);
  rl_sim_hazard_t hazard = {0};
  uint32_t count = rl_sim_hazards(f.sim.device, &hazard, 1);
  if (count > 0) assert_int_equal(hazard.kind, RL_SIM_HAZARD_RAW_NO_ACQUIRE);
  rl_pm4_fixture_teardown(&f);
  return count;
}

static void rl_test_hazard_across_packets(void** state) {
  (void)state;
  assert_int_equal(rl_test_two_packets(false), 1);
  assert_int_equal(rl_test_two_packets(true), 0);  // negative control
}

// More dispatches without a wait than the interpreter keeps in flight
// (RL_SIM_BATCH_MAX): launching the 65th completes the first 64, but that
// orders nothing, so scale(a) still races fill(a) across the cut; the
// fills in between write disjoint bytes. A wait before scale is the
// negative control (only the stale-cache RAW is left without an acquire).
static uint32_t rl_test_past_batch(bool wait, rl_sim_hazard_t* out_hazard) {
  enum { FILLS = 64, N = 64 };
  rl_pm4_fixture_t f;
  rl_pm4_fixture_setup(&f, "gfx1100", RL_SIM_HAZARDS_SEQUENTIAL);
  rl_device_allocation_t a = rl_sim_fixture_alloc(&f.sim, 4 * N);
  rl_device_allocation_t b = rl_sim_fixture_alloc(&f.sim, 4 * N);
  rl_device_allocation_t many = rl_sim_fixture_alloc(&f.sim, 4 * N * FILLS);
  rl_pm4_test_ib_t ib;
  rl_pm4_test_ib_init(&f, &ib, 16384);
  rl_pm4_test_emit_kernel(&f, &ib.builder, "vc_fill",
                          rl_pm4_test_fill_args(&f, a.address, 2.0f, N), NULL);
  rl_pm4_test_emit_dispatch(&f, &ib.builder, "vc_fill", 1, false);
  for (uint32_t k = 0; k < FILLS; ++k) {
    rl_pm4_test_emit_kernarg(
        &f, &ib.builder,
        rl_pm4_test_fill_args(&f, many.address + 4ull * N * k, 1.0f, N));
    rl_pm4_test_emit_dispatch(&f, &ib.builder, "vc_fill", 1, false);
  }
  if (wait) rl_pm4_test_emit_wait(&f, &ib.builder, true, true);
  rl_pm4_test_emit_kernel(
      &f, &ib.builder, "vc_scale",
      rl_pm4_test_scale_args(&f, a.address, b.address, 3.0f, N), NULL);
  rl_pm4_test_emit_dispatch(&f, &ib.builder, "vc_scale", 1, false);
  uint64_t signal = rl_sim_fixture_signal(&f.sim, 1);
  rl_pm4_test_submit(&f, &ib, signal, false);
  assert_true(rl_test_wait(&f.sim, signal, RL_TEST_WAIT_NS));
  memset(out_hazard, 0, sizeof(*out_hazard));
  uint32_t count = rl_sim_hazards(f.sim.device, out_hazard, 1);
  rl_pm4_fixture_teardown(&f);
  return count;
}

static void rl_test_hazard_past_batch(void** state) {
  (void)state;
  rl_sim_hazard_t hazard;
  assert_int_equal(rl_test_past_batch(false, &hazard), 1);
  assert_int_equal(hazard.kind, 1);  // RAW
  assert_int_equal(hazard.ordering, RL_SIM_HAZARD_ORDERING_PM4);
  assert_int_equal(hazard.later_dispatch, hazard.earlier_dispatch + 65);
  assert_int_equal(rl_test_past_batch(true, &hazard), 0);
}


// Scratch through PM4 (sim_pm4_dispatch.c): vc_fill flipped in the parsed
// code object (the loader reads it from there) to a kernel with a 100-byte
// private segment and COMPUTE_PGM_RSRC2.SCRATCH_EN; the IB then sets
// COMPUTE_TMPRING_SIZE = |waves| | |units| << 12 and, unless |base| is
// RL_TEST_NO_BASE, DISPATCH_SCRATCH_BASE_LO/HI = base >> 8 / base >> 40.
// |fault| NULL: the dispatch runs and fills the buffer.
#define RL_TEST_PRIVATE 100u
#define RL_TEST_NO_BASE UINT64_MAX
#define RL_TEST_RING 0  // |base|: a live ring big enough for |units|

static void rl_test_scratch(const char* processor, bool scratch_en,
                            uint32_t waves, uint32_t units, uint64_t base,
                            const char* fault) {
  rl_test_case_t c;
  rl_test_case_init(&c, processor);
  rl_code_object_kernel_t* k =
      (rl_code_object_kernel_t*)rl_pm4_test_kernel(&c.f, "vc_fill");
  if (scratch_en) {
    k->private_segment_size = RL_TEST_PRIVATE;
    k->descriptor.private_segment_fixed_size = RL_TEST_PRIVATE;
    k->descriptor_info.enable_private_segment = true;
    k->descriptor.compute_pgm_rsrc2 |= 1u;  // SCRATCH_EN
  }
  if (base == RL_TEST_RING) {
    uint64_t bytes = (uint64_t)waves *
                     c.f.family->regs.static_thread_mgmt_count * units * 256u;
    rl_device_allocation_t ring = rl_sim_fixture_alloc(&c.f.sim, bytes);
    base = ring.address;
    assert_int_equal(base % 256, 0);
  }
  rl_pm4_test_emit_kernel(&c.f, &c.ib.builder, "vc_fill", c.args, NULL);
  const rl_pm4_compute_regs_t* regs = &c.f.family->regs;
  uint32_t tmpring = waves | units << 12;
  assert_true(rl_pm4_emit_set_sh_reg(&c.ib.builder, regs->tmpring_size,
                                     &tmpring, 1, NULL));
  if (base != RL_TEST_NO_BASE) {
    uint32_t lohi[2] = {(uint32_t)(base >> 8), (uint32_t)(base >> 40)};
    assert_true(rl_pm4_emit_set_sh_reg(
        &c.ib.builder, regs->dispatch_scratch_base_lo, lohi, 2, NULL));
  }
  rl_test_dispatch_fill(&c, fault);
}

// The smallest covering slot: wave32 on gfx11 and gfx12 (vc_fill's
// descriptor; asserted below) needs 32 x 100 = 3200 bytes, 13 units.
static uint32_t rl_test_scratch_units(const char* processor) {
  rl_test_case_t c;
  rl_test_case_init(&c, processor);
  const rl_code_object_kernel_t* k = rl_pm4_test_kernel(&c.f, "vc_fill");
  uint32_t lanes = k->descriptor_info.enable_wavefront_size32 ? 32 : 64;
  rl_pm4_fixture_teardown(&c.f);
  return (lanes * RL_TEST_PRIVATE + 255) / 256;
}

static void rl_test_scratch_covered(void** state) {
  (void)state;
  for (int i = 0; i < 2; ++i) {
    const char* processor = i ? "gfx1201" : "gfx1100";
    uint32_t units = rl_test_scratch_units(processor);
    rl_test_scratch(processor, true, 4, units, RL_TEST_RING, NULL);
    // Without SCRATCH_EN a ring is allowed and unused (radeonsi keeps
    // TMPRING_SIZE programmed across dispatches).
    rl_test_scratch(processor, false, 4, units, RL_TEST_RING, NULL);
  }
}

// Negative controls: each missing or short piece is refused.
static void rl_test_scratch_refused(void** state) {
  (void)state;
  uint32_t units = rl_test_scratch_units("gfx1100");
  rl_test_scratch("gfx1100", true, 0, 0, RL_TEST_NO_BASE,
                  "SCRATCH_EN but COMPUTE_TMPRING_SIZE is 0x00000000");
  rl_test_scratch("gfx1100", true, 4, units - 1, RL_TEST_RING,
                  "kernel vc_fill needs 100 private bytes per work-item");
  rl_test_scratch("gfx1201", true, 4, units - 1, RL_TEST_RING,
                  "kernel vc_fill needs 100 private bytes per work-item");
  rl_test_scratch("gfx1100", true, 4, units, RL_TEST_NO_BASE,
                  "COMPUTE_DISPATCH_SCRATCH_BASE_LO (0x2e10) was never "
                  "written");
  rl_test_scratch("gfx1100", true, 4, units, 0x1000,
                  "is not inside one live allocation");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rl_test_hazard_past_batch),
      cmocka_unit_test(rl_test_unknown_opcode),
      cmocka_unit_test(rl_test_wrong_length),
      cmocka_unit_test(rl_test_register_outside_window),
      cmocka_unit_test(rl_test_dispatch_without_program),
      cmocka_unit_test(rl_test_program_not_a_kernel),
      cmocka_unit_test(rl_test_missing_priv_gfx11),
      cmocka_unit_test(rl_test_wave32_mismatch),
      cmocka_unit_test(rl_test_lds_too_small),
      cmocka_unit_test(rl_test_kernarg_unmapped),
      cmocka_unit_test(rl_test_chain_unmapped),
      cmocka_unit_test(rl_test_chain_zero_size),
      cmocka_unit_test(rl_test_chain_not_valid),
      cmocka_unit_test(rl_test_chain_past_allocation),
      cmocka_unit_test(rl_test_chain_loop),
      cmocka_unit_test(rl_test_scratch_covered),
      cmocka_unit_test(rl_test_scratch_refused),
      cmocka_unit_test(rl_test_dispatch_ptr_image),
      cmocka_unit_test(rl_test_hazard_no_flush),
      cmocka_unit_test(rl_test_hazard_flush_without_acquire),
      cmocka_unit_test(rl_test_hazard_flush_and_acquire),
      cmocka_unit_test(rl_test_hazard_fence),
      cmocka_unit_test(rl_test_hazard_across_packets),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
