// Tests of the PM4 lowering (pm4/pm4_lower.h: pm4_layout.c, pm4_emit.c,
// pm4_lower.c), its census (pm4_census.c) and apply (pm4_patch.c) on the
// vecchain workload recorded for gfx1100, gfx1151 and gfx1201 through the
// funnel with the record-only device. Retention exactness is in
// pm4_retain_test.c.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "aql/aql_decode.h"
#include "capture/bind/launch_bind.h"
#include "tests/unit/pm4/pm4_test_util.h"

typedef struct rl_test_s {
  rl_pm4_fixture_t f;
  rl_pm4_program_t* program;  // retention on
} rl_test_t;

static int rl_test_setup(void** state) {
  rl_test_t* t = calloc(1, sizeof(*t));
  rl_pm4_fixture_init(&t->f, (const char*)*state);
  rl_status_t status = rl_pm4_lower(&t->f.inputs, NULL, &t->program);
  if (status) fail_msg("%s", rl_status_message(status));
  *state = t;
  return 0;
}

static int rl_test_teardown(void** state) {
  rl_test_t* t = *state;
  rl_pm4_program_destroy(t->program);
  rl_pm4_fixture_deinit(&t->f);
  free(t);
  return 0;
}

// Expects |status| to be |code| with |needle| in its message; frees it.
static void rl_test_expect(rl_status_t status, rl_status_code_t code,
                           const char* needle) {
  if (rl_status_code(status) != code ||
      !strstr(rl_status_message(status), needle)) {
    fail_msg("expected %s with '%s', got %s: %s", rl_status_code_name(code),
             needle, rl_status_code_name(rl_status_code(status)),
             rl_status_message(status));
  }
  rl_status_free(status);
}

//===----------------------------------------------------------------------===//
// Structure
//===----------------------------------------------------------------------===//

// Per dispatch: PGM = entry, PRIV only on gfx11, LDS granules, wave32 bit
// from the descriptor, USER_DATA = the launch's kernarg slice, dims.
static void rl_test_visit_structure(void* context, uint32_t i,
                                    const rl_pm4_view_t* v) {
  const rl_test_t* t = context;
  const rl_pm4_program_t* p = t->program;
  const rl_pm4_compute_regs_t* r = &p->family->regs;
  const rl_capture_launch_t* launch = &t->f.capture->launches[i];
  const rl_code_object_kernel_t* info =
      t->f.capture->kernels[launch->kernel].info;
  const uint64_t entry = t->f.entries[launch->kernel];
  assert_int_equal(v->offset, p->dispatch_offsets[i]);
  assert_int_equal(rl_pm4_view_reg(v, r->pgm_lo), (uint32_t)(entry >> 8));
  assert_int_equal(rl_pm4_view_reg(v, r->pgm_lo + 1), (uint32_t)(entry >> 40));
  uint32_t rsrc1 = rl_pm4_view_reg(v, r->pgm_rsrc1);
  bool gfx11 = strncmp(t->f.processor, "gfx11", 5) == 0;
  assert_int_equal((rsrc1 >> 20) & 1, gfx11);  // PRIV
  assert_int_equal(rsrc1 & ~(1u << 20), info->descriptor.compute_pgm_rsrc1);
  uint32_t rsrc2 = rl_pm4_view_reg(v, r->pgm_rsrc1 + 1);
  uint32_t granules = (info->group_segment_size + launch->dynamic_lds + 511) / 512;
  assert_int_equal((rsrc2 >> 15) & 0x1ff, granules);
  assert_int_equal(granules, i == 4 ? 1 : 0);  // vc_partial_sum: 256 bytes
  assert_int_equal(rsrc2 & ~(0x1ffu << 15), info->descriptor.compute_pgm_rsrc2);
  assert_int_equal(rl_pm4_view_reg(v, r->pgm_rsrc3),
                   info->descriptor.compute_pgm_rsrc3);
  assert_int_equal((v->initiator >> 15) & 1,
                   info->descriptor_info.enable_wavefront_size32);
  assert_int_equal(v->initiator & 0x7fff, 0x45);  // CS_EN|FORCE_START|ORDER
  for (uint32_t axis = 0; axis < 3; ++axis) {
    assert_int_equal(rl_pm4_view_reg(v, r->num_thread_x + axis),
                     launch->block[axis]);
    assert_int_equal(rl_pm4_view_reg(v, r->start_x + axis), 0);
    assert_int_equal(rl_pm4_view_reg(v, r->restart_x + axis), 0);
    assert_int_equal(v->dims[axis], launch->grid[axis]);
  }
  assert_int_equal(rl_pm4_view_reg(v, r->tmpring_size), 0);
  assert_int_equal(rl_pm4_view_reg(v, r->resource_limits), 0);
  assert_true(info->descriptor_info.user_sgpr_count >= 2);  // gfx1100: 15
  uint64_t kernarg = rl_pm4_view_reg(v, r->user_data_0) |
                     (uint64_t)rl_pm4_view_reg(v, r->user_data_0 + 1) << 32;
  assert_int_equal(kernarg, RL_PM4_TEST_KERNARG + p->kernarg_offsets[i]);
  // vecchain waits before launches 2, 3, 4, 5 and 7; dispatch 0 sees the
  // entry acquire.
  static const bool waits[8] = {0, 0, 1, 1, 1, 1, 0, 1};
  assert_int_equal(v->flushes, waits[i]);
  assert_int_equal(v->acquires, i == 0 ? 1 : waits[i]);
}

static void test_structure_per_launch(void** state) {
  rl_test_t* t = *state;
  const rl_pm4_program_t* p = t->program;
  assert_int_equal(p->stats.dispatches, 8);
  uint32_t tail = 0;
  assert_int_equal(rl_pm4_walk(p, rl_test_visit_structure, t, &tail), 8);
  assert_int_equal(tail, 1u << 16);  // only the terminal release
  assert_int_equal(p->stats.waits, 5);
  assert_int_equal(p->stats.waits, t->f.plan->wait_count);
  assert_int_equal(p->stats.acquires, 6);
  assert_int_equal(p->stats.releases, 1);
  assert_int_equal(p->stats.dwords, p->dword_count);
  assert_int_equal(p->image_count, 0);
  assert_null(rl_pm4_program_check(p, &t->f.inputs));
  // The size measured before allocation is the size built.
  uint32_t measured = 0;
  assert_null(rl_pm4_lower_measure(&t->f.inputs, NULL, &measured));
  assert_int_equal(measured, p->dword_count);
  // The vendor packet jumps to the IB.
  rl_aql_decoded_t d;
  assert_int_equal(rl_aql_packet_decode(&p->packet, &d), RL_AQL_OK);
  assert_int_equal(d.type, RL_AQL_PACKET_TYPE_VENDOR_SPECIFIC);
  assert_int_equal(d.ib_address, RL_PM4_TEST_IB);
  assert_int_equal(d.ib_size_dw, p->dword_count);
  assert_int_equal(d.completion_signal, RL_PM4_TEST_SIGNAL);
  assert_int_equal(p->packet.dw_cnt_remain, 0xA);
  // Kernarg slices: the recorded bytes with rebased pointers.
  for (uint32_t i = 0; i < 8; ++i) {
    const rl_capture_launch_t* launch = &t->f.capture->launches[i];
    uint8_t* bound = malloc(launch->kernarg_size + 1u);
    uint32_t grid[3];
    assert_null(rl_launch_bind(t->f.capture, i, &t->f.pos, t->f.buffers,
                               bound, grid));
    assert_memory_equal(p->kernarg + p->kernarg_offsets[i], bound,
                        launch->kernarg_size);
    free(bound);
  }
}

// Density stats for the log, both modes.
static void test_density(void** state) {
  rl_test_t* t = *state;
  rl_pm4_lower_options_t off = {.retain = false};
  rl_pm4_program_t* full = NULL;
  assert_null(rl_pm4_lower(&t->f.inputs, &off, &full));
  assert_null(rl_pm4_program_check(full, &t->f.inputs));
  const rl_pm4_stats_t* a = &full->stats;
  const rl_pm4_stats_t* b = &t->program->stats;
  assert_true(b->dwords < a->dwords);
  assert_int_equal(a->registers_elided, 0);
  assert_int_equal(a->waits, b->waits);
  assert_int_equal(a->acquires, b->acquires);
  printf("# %s vecchain pm4: retain off %u dwords (%.2f/dispatch), retain "
         "on %u dwords (%.2f/dispatch, %u register writes elided); %u "
         "dispatches, %u waits, %u acquires, %u patch sites\n",
         t->f.processor, a->dwords, rl_pm4_stats_dwords_per_dispatch(a),
         b->dwords, rl_pm4_stats_dwords_per_dispatch(b), b->registers_elided,
         b->dispatches, b->waits, b->acquires, b->patch_sites);
  rl_pm4_program_destroy(full);
}

//===----------------------------------------------------------------------===//
// Apply
//===----------------------------------------------------------------------===//

static void test_apply_changes_exact_sites(void** state) {
  rl_test_t* t = *state;
  rl_pm4_program_t* p = t->program;
  assert_int_equal(p->patch_count, 3 + 1 + 15);
  uint32_t* ib = malloc(p->dword_count * 4u);
  uint8_t* kernarg = malloc(p->kernarg_size);
  memcpy(ib, p->dwords, p->dword_count * 4u);
  memcpy(kernarg, p->kernarg, p->kernarg_size);
  uint32_t* before = malloc(p->dword_count * 4u);
  memcpy(before, p->dwords, p->dword_count * 4u);
  uint32_t changed = 99;
  int64_t pos = 7;
  assert_null(rl_pm4_program_apply(p, t->f.capture, &pos, 1, t->f.buffers,
                                   kernarg, ib, &changed));
  assert_int_equal(changed, 0);
  // pos = 100: axpy's pos, partial_sum's n, merge's count and the grid
  // dim of partial_sum: ceil(101 / 64) = 2.
  pos = 100;
  assert_null(rl_pm4_program_apply(p, t->f.capture, &pos, 1, t->f.buffers,
                                   kernarg, ib, &changed));
  assert_int_equal(changed, p->patch_count - 15);
  uint32_t dim = p->dispatch_offsets[4] + 1;
  assert_int_equal(p->dwords[dim], 2);
  assert_int_equal(ib[dim], 2);
  for (uint32_t i = 0; i < p->dword_count; ++i) {
    if (i != dim) assert_int_equal(p->dwords[i], before[i]);
  }
  assert_memory_equal(kernarg, p->kernarg, p->kernarg_size);
  assert_memory_equal(ib, p->dwords, p->dword_count * 4u);
  assert_null(rl_pm4_program_check(p, &t->f.inputs));
  // Moving every buffer rewrites exactly the 15 pointer slots.
  for (uint32_t b = 0; b < t->f.capture->buffer_count; ++b) {
    t->f.buffers[b] += 0x1000000;
  }
  assert_null(rl_pm4_program_apply(p, t->f.capture, &pos, 1, t->f.buffers,
                                   kernarg, ib, &changed));
  assert_int_equal(changed, 15);
  for (uint32_t i = 0; i < 8; ++i) {
    const rl_capture_launch_t* launch = &t->f.capture->launches[i];
    uint8_t* bound = malloc(launch->kernarg_size + 1u);
    uint32_t grid[3];
    assert_null(rl_launch_bind(t->f.capture, i, &pos, t->f.buffers, bound,
                               grid));
    assert_memory_equal(kernarg + p->kernarg_offsets[i], bound,
                        launch->kernarg_size);
    assert_int_equal(ib[p->dispatch_offsets[i] + 1], grid[0]);
    free(bound);
  }
  assert_null(rl_pm4_program_check(p, &t->f.inputs));
  free(ib);
  free(kernarg);
  free(before);
}

static void test_apply_is_all_or_nothing(void** state) {
  rl_test_t* t = *state;
  rl_pm4_program_t* p = t->program;
  size_t ib_bytes = p->dword_count * 4u;
  size_t patch_bytes = p->patch_count * sizeof(*p->patches);
  uint32_t* ib = malloc(ib_bytes);
  uint8_t* kernarg = malloc(p->kernarg_size);
  void* patches = malloc(patch_bytes);
  memcpy(ib, p->dwords, ib_bytes);
  memcpy(kernarg, p->kernarg, p->kernarg_size);
  memcpy(patches, p->patches, patch_bytes);
  static const struct {
    int64_t pos;
    const char* needle;
  } cases[] = {{-5, "launch 3 (vc_axpy_pos) binding"},
               {4294967290ll, "launch 4 (vc_partial_sum) binding"},
               {4294967296ll, "does not fit its 4 bytes"}};
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); ++c) {
    uint32_t changed = 99;
    int64_t pos = cases[c].pos;
    rl_test_expect(rl_pm4_program_apply(p, t->f.capture, &pos, 1,
                                        t->f.buffers, p->kernarg, p->dwords,
                                        &changed),
                   RL_STATUS_CONTRACT, cases[c].needle);
    assert_int_equal(changed, 0);
    assert_memory_equal(p->dwords, ib, ib_bytes);
    assert_memory_equal(p->kernarg, kernarg, p->kernarg_size);
    assert_memory_equal(p->patches, patches, patch_bytes);
  }
  assert_null(rl_pm4_program_check(p, &t->f.inputs));
  free(ib);
  free(kernarg);
  free(patches);
}

//===----------------------------------------------------------------------===//
// Census negative controls
//===----------------------------------------------------------------------===//

// Corrupts dword |offset| with |value|, expects the census to name
// |needle|, restores it.
static void rl_test_corrupt(rl_test_t* t, uint32_t offset, uint32_t value,
                            const char* needle) {
  uint32_t saved = t->program->dwords[offset];
  t->program->dwords[offset] = value;
  rl_test_expect(rl_pm4_program_check(t->program, &t->f.inputs),
                 RL_STATUS_PREPARE, needle);
  t->program->dwords[offset] = saved;
}

// The IB dword holding the last value written to |reg| before dispatch
// |dispatch|.
static uint32_t rl_test_find_write(const rl_pm4_program_t* p, uint32_t reg,
                                   uint32_t dispatch) {
  uint32_t found = UINT32_MAX;
  for (uint32_t offset = 0; offset < p->dispatch_offsets[dispatch];) {
    rl_pm4_packet_t packet;
    assert_null(rl_pm4_decode_next(p->family, p->dwords, p->dword_count,
                                   offset, &packet));
    uint32_t first = (packet.body[0] & 0xffffu) + RL_PM4_SH_REG_BASE;
    if (packet.opcode == RL_PM4_SET_SH_REG && reg >= first &&
        reg < first + packet.dwords - 2) {
      found = offset + 2 + (reg - first);
    }
    offset += packet.dwords;
  }
  assert_int_not_equal(found, UINT32_MAX);
  return found;
}

static void test_census_negative_controls(void** state) {
  rl_test_t* t = *state;
  rl_pm4_program_t* p = t->program;
  const rl_pm4_compute_regs_t* r = &p->family->regs;
  char needle[64];
  // A register value: named at the dword that wrote it.
  uint32_t rsrc2 = rl_test_find_write(p, r->pgm_rsrc1 + 1, 3);
  snprintf(needle, sizeof(needle), "IB dword %u ", rsrc2);
  rl_test_corrupt(t, rsrc2, p->dwords[rsrc2] ^ 0x8000u, needle);
  uint32_t user = rl_test_find_write(p, r->user_data_0, 5);
  snprintf(needle, sizeof(needle), "IB dword %u ", user);
  rl_test_corrupt(t, user, p->dwords[user] + 16, needle);
  // The initiator and a dim of a dispatch.
  uint32_t d = p->dispatch_offsets[6];
  snprintf(needle, sizeof(needle), "IB dword %u ", d + 4);
  rl_test_corrupt(t, d + 4, p->dwords[d + 4] ^ (1u << 15), needle);
  snprintf(needle, sizeof(needle), "IB dword %u ", d + 1);
  rl_test_corrupt(t, d + 1, 7, needle);
  // A header that no longer decodes.
  snprintf(needle, sizeof(needle), "IB dword %u ", d);
  rl_test_corrupt(t, d, 0x12345678u, needle);
  // The first wait's CS_PARTIAL_FLUSH event becomes another event.
  uint32_t flush = p->dispatch_offsets[1] + 5;
  assert_int_equal(p->dwords[flush] >> 8 & 0xff, RL_PM4_EVENT_WRITE);
  snprintf(needle, sizeof(needle), "IB dword %u ", flush);
  rl_test_corrupt(t, flush + 1, 0x0406u, needle);
  // A wait dropped: the flush + acquire before launch 2 become one NOP.
  uint32_t saved[10];
  memcpy(saved, p->dwords + flush, sizeof(saved));
  p->dwords[flush] = rl_pm4_header(RL_PM4_NOP, 10, 0);
  memset(p->dwords + flush + 1, 0, 9 * 4);
  rl_test_expect(rl_pm4_program_check(p, &t->f.inputs), RL_STATUS_PREPARE,
                 "NOP");
  memcpy(p->dwords + flush, saved, sizeof(saved));
  // A patch whose current value is stale, and the vendor packet's size.
  p->binds->sites[0].current += 8;
  rl_test_expect(rl_pm4_program_check(p, &t->f.inputs), RL_STATUS_PREPARE,
                 "current value");
  p->binds->sites[0].current -= 8;
  p->packet.ib_jump_cmd[3] -= 1;
  rl_test_expect(rl_pm4_program_check(p, &t->f.inputs), RL_STATUS_PREPARE,
                 "vendor packet");
  p->packet.ib_jump_cmd[3] += 1;
  assert_null(rl_pm4_program_check(p, &t->f.inputs));
}

//===----------------------------------------------------------------------===//
// Refusals
//===----------------------------------------------------------------------===//

// Lowering |t| must fail with |code| naming |needle|.
static void rl_test_lower_fails(rl_test_t* t, rl_status_code_t code,
                                const char* needle) {
  rl_pm4_program_t* program = (rl_pm4_program_t*)1;
  rl_test_expect(rl_pm4_lower(&t->f.inputs, NULL, &program), code, needle);
  assert_null(program);
}

static void test_refuses_what_it_cannot_provide(void** state) {
  rl_test_t* t = *state;
  // The capture's parsed descriptor of vc_axpy_pos (launch 3), patched in
  // place and restored: a copy the code object no longer vouches for.
  rl_code_object_kernel_t* info = (rl_code_object_kernel_t*)
      t->f.capture->kernels[t->f.capture->launches[3].kernel].info;
  rl_kernel_descriptor_info_t saved = info->descriptor_info;
  info->descriptor_info.enable_sgpr_queue_ptr = true;
  rl_test_lower_fails(t, RL_STATUS_UNSUPPORTED,
                      "kernel vc_axpy_pos: code property "
                      "ENABLE_SGPR_QUEUE_PTR (queue ptr)");
  info->descriptor_info = saved;
  info->descriptor_info.enable_sgpr_flat_scratch_init = true;
  rl_test_lower_fails(t, RL_STATUS_UNSUPPORTED,
                      "ENABLE_SGPR_FLAT_SCRATCH_INIT");
  info->descriptor_info = saved;
  info->descriptor_info.kernarg_preload_spec_length = 2;
  rl_test_lower_fails(t, RL_STATUS_UNSUPPORTED, "KERNARG_PRELOAD");
  info->descriptor_info = saved;
  info->descriptor_info.user_sgpr_count = 1;
  rl_test_lower_fails(t, RL_STATUS_UNSUPPORTED, "USER_SGPR = 1");
  info->descriptor_info = saved;
  info->descriptor_info.uses_dynamic_stack = true;
  rl_test_lower_fails(t, RL_STATUS_UNSUPPORTED, "dynamic stack");
  info->descriptor_info = saved;
  info->descriptor_info.enable_private_segment = true;
  rl_test_lower_fails(t, RL_STATUS_UNSUPPORTED, "without a fixed size");
  info->descriptor_info = saved;
  // Scratch needs a ring: none given, or one that does not encode.
  info->private_segment_size = 16;
  rl_test_lower_fails(t, RL_STATUS_CONTRACT, "scratch ring at 0x0 ");
  t->f.inputs.scratch_address = RL_PM4_TEST_SCRATCH + 128;
  rl_test_lower_fails(t, RL_STATUS_CONTRACT, "256-byte aligned allocation");
  t->f.inputs.scratch_address = 0;
  info->private_segment_size = 0;
  // Bad addresses.
  t->f.inputs.ib_address = RL_PM4_TEST_IB + 2;
  rl_test_lower_fails(t, RL_STATUS_INVALID_ARGUMENT, "IB at");
  t->f.inputs.ib_address = RL_PM4_TEST_IB;
  t->f.inputs.completion_signal = 0;
  rl_test_lower_fails(t, RL_STATUS_INVALID_ARGUMENT, "completion signal");
  t->f.inputs.completion_signal = RL_PM4_TEST_SIGNAL;
  t->f.entries[1] += 4;
  rl_test_lower_fails(t, RL_STATUS_CONTRACT, "256-byte aligned");
  t->f.entries[1] -= 4;
  t->f.inputs.kernarg_address += 8;
  rl_test_lower_fails(t, RL_STATUS_INVALID_ARGUMENT, "kernarg segment");
  t->f.inputs.kernarg_address -= 8;
  int64_t pos = -1;
  t->f.inputs.param_values = &pos;
  rl_test_lower_fails(t, RL_STATUS_CONTRACT, "launch 3");
  t->f.inputs.param_values = &t->f.pos;
  assert_null(rl_pm4_program_check(t->program, &t->f.inputs));
}

// A kernel with the dispatch ptr: USER_DATA_0/1 point at a dispatch-packet
// image next to the kernargs, the kernarg ptr moves to USER_DATA_2/3, and
// the grid binding gets a second site in the image.
static void test_dispatch_ptr_image(void** state) {
  rl_test_t* t = *state;
  const uint32_t launch = 4;  // vc_partial_sum, grid bound to pos
  rl_code_object_kernel_t* info = (rl_code_object_kernel_t*)
      t->f.capture->kernels[t->f.capture->launches[launch].kernel].info;
  rl_kernel_descriptor_info_t saved_info = info->descriptor_info;
  rl_kernel_descriptor_t saved = info->descriptor;
  info->descriptor_info.enable_sgpr_dispatch_ptr = true;
  // Two more user SGPRs, unless gfx1100's padding to 16 already covers
  // them (LLVM's UserSGPRInit16Bug workaround keeps the count at 15).
  if (info->descriptor_info.user_sgpr_count == 2) {
    info->descriptor_info.user_sgpr_count += 2;
    info->descriptor.compute_pgm_rsrc2 += 2u << 1;  // USER_SGPR[5:1]
  }
  rl_pm4_program_t* p = NULL;
  assert_null(rl_pm4_lower(&t->f.inputs, NULL, &p));
  assert_int_equal(p->image_count, 1);
  assert_int_equal(p->patch_count, t->program->patch_count + 1);
  uint32_t image = p->image_offsets[launch];
  assert_int_equal(image % 64, 0);
  const rl_aql_dispatch_packet_t* packet =
      (const rl_aql_dispatch_packet_t*)(p->kernarg + image);
  rl_aql_decoded_t d;
  assert_int_equal(rl_aql_packet_decode(packet, &d), RL_AQL_OK);
  assert_int_equal(d.grid_size[0], 64);
  assert_int_equal(d.kernarg_address,
                   RL_PM4_TEST_KERNARG + p->kernarg_offsets[launch]);
  assert_null(rl_pm4_program_check(p, &t->f.inputs));
  int64_t pos = 100;
  uint32_t changed = 0;
  assert_null(rl_pm4_program_apply(p, t->f.capture, &pos, 1, t->f.buffers,
                                   NULL, NULL, &changed));
  assert_int_equal(changed, p->patch_count - 15);
  assert_int_equal(packet->grid_size_x, 128);
  assert_int_equal(p->dwords[p->dispatch_offsets[launch] + 1], 2);
  assert_null(rl_pm4_program_check(p, &t->f.inputs));
  // The census notices an image that no longer matches its dispatch.
  ((rl_aql_dispatch_packet_t*)(p->kernarg + image))->workgroup_size_x = 32;
  rl_test_expect(rl_pm4_program_check(p, &t->f.inputs), RL_STATUS_PREPARE,
                 "dispatch-packet image");
  rl_pm4_program_destroy(p);
  info->descriptor_info = saved_info;
  info->descriptor = saved;
}

// The PM4 segment (slices, then dispatch-packet images) also ends at least
// RL_KERNARG_READ_SLACK bytes after the last slice (redline/code_object.h),
// so a widened scalar kernarg load stays inside it on every family.
static void test_kernarg_segment_maps_read_slack_after_last_slice(
    void** state) {
  rl_test_t* t = *state;
  const rl_pm4_program_t* p = t->program;
  const uint32_t last = t->f.capture->launch_count - 1;
  const uint64_t end =
      p->kernarg_offsets[last] + t->f.capture->launches[last].kernarg_size;
  assert_true(p->kernarg_size >= end + RL_KERNARG_READ_SLACK);
  assert_int_equal(p->kernarg_size,
                   rl_pm4_kernarg_segment_size(t->f.capture));
}


//===----------------------------------------------------------------------===//
// Scratch
//===----------------------------------------------------------------------===//

// What every dispatch of a scratch capture sees.
typedef struct rl_test_scratch_s {
  const rl_pm4_program_t* program;
  uint32_t tmpring;
  bool base;  // DISPATCH_SCRATCH_BASE_LO/HI expected (else never written)
} rl_test_scratch_t;

static void rl_test_visit_scratch(void* context, uint32_t i,
                                  const rl_pm4_view_t* v) {
  (void)i;
  const rl_test_scratch_t* s = context;
  const rl_pm4_compute_regs_t* r = &s->program->family->regs;
  assert_int_equal(rl_pm4_view_reg(v, r->tmpring_size), s->tmpring);
  const uint32_t lo = r->dispatch_scratch_base_lo - RL_PM4_SH_REG_BASE;
  if (!s->base) {
    assert_false(v->known[lo]);
    assert_false(v->known[lo + 1]);
    return;
  }
  assert_int_equal(rl_pm4_view_reg(v, r->dispatch_scratch_base_lo),
                   (uint32_t)(RL_PM4_TEST_SCRATCH >> 8));
  assert_int_equal(rl_pm4_view_reg(v, r->dispatch_scratch_base_lo + 1),
                   (uint32_t)(RL_PM4_TEST_SCRATCH >> 40));
}

// vc_axpy_pos (launch 3) given a 100-byte private segment: TMPRING_SIZE =
// WAVES 32 | WAVESIZE ceil(lanes x 100 / 256) and the base at every
// dispatch, written once; the census checks both (negative controls: a
// moved ring, a changed size). Without scratch (the fixture's program)
// TMPRING_SIZE is 0 and no base is written.
static void test_scratch_registers(void** state) {
  rl_test_t* t = *state;
  rl_test_scratch_t none = {.program = t->program};
  assert_int_equal(rl_pm4_walk(t->program, rl_test_visit_scratch, &none, NULL),
                   t->f.capture->launch_count);
  rl_pm4_scratch_t scratch;
  assert_null(rl_pm4_scratch_layout(t->f.capture, &scratch));
  assert_int_equal(scratch.bytes, 0);
  assert_int_equal(scratch.tmpring_size, 0);

  rl_code_object_kernel_t* info = (rl_code_object_kernel_t*)
      t->f.capture->kernels[t->f.capture->launches[3].kernel].info;
  info->private_segment_size = 100;
  const uint32_t lanes = info->descriptor_info.enable_wavefront_size32 ? 32 : 64;
  const uint32_t units = (lanes * 100 + 255) / 256;
  assert_null(rl_pm4_scratch_layout(t->f.capture, &scratch));
  assert_int_equal(scratch.wave_bytes, units * 256);
  assert_int_equal(scratch.waves, RL_PM4_SCRATCH_WAVES_PER_SE);
  assert_int_equal(scratch.tmpring_size, RL_PM4_SCRATCH_WAVES_PER_SE |
                                             units << 12);
  assert_int_equal(scratch.bytes,
                   (uint64_t)RL_PM4_SCRATCH_WAVES_PER_SE *
                       t->program->family->regs.static_thread_mgmt_count *
                       units * 256);
  t->f.inputs.scratch_address = RL_PM4_TEST_SCRATCH;
  rl_pm4_program_t* p = NULL;
  assert_null(rl_pm4_lower(&t->f.inputs, NULL, &p));
  rl_test_scratch_t with = {.program = p, .tmpring = scratch.tmpring_size,
                            .base = true};
  assert_int_equal(rl_pm4_walk(p, rl_test_visit_scratch, &with, NULL),
                   t->f.capture->launch_count);
  // Written once with the entry constants: the base adds its two values
  // (one SET_SH_REG run with TMPRING's neighbours or its own packet).
  assert_true(p->dword_count > t->program->dword_count);
  assert_true(p->dword_count <= t->program->dword_count + 4);
  printf("scratch on %s: %u IB dwords (without: %u)\n", t->f.processor,
         p->dword_count, t->program->dword_count);
  assert_null(rl_pm4_program_check(p, &t->f.inputs));
  t->f.inputs.scratch_address = RL_PM4_TEST_SCRATCH + 0x10000;
  rl_test_expect(rl_pm4_program_check(p, &t->f.inputs), RL_STATUS_PREPARE,
                 "COMPUTE_DISPATCH_SCRATCH_BASE_LO: expected");
  t->f.inputs.scratch_address = RL_PM4_TEST_SCRATCH;
  info->private_segment_size = 200;
  rl_test_expect(rl_pm4_program_check(p, &t->f.inputs), RL_STATUS_PREPARE,
                 "COMPUTE_TMPRING_SIZE: expected");
  info->private_segment_size = 100;
  assert_null(rl_pm4_program_check(p, &t->f.inputs));
  rl_pm4_program_destroy(p);
  // WAVESIZE is 15 bits on gfx11, 18 on gfx12: a 1 MiB private segment
  // (32 MiB per wave32 slot, 2^17 units) encodes only on gfx12.
  info->private_segment_size = 1u << 20;
  rl_status_t status = rl_pm4_scratch_layout(t->f.capture, &scratch);
  if (t->program->family->gfx_major == 11) {
    rl_test_expect(status, RL_STATUS_CONTRACT, "does not fit "
                                               "COMPUTE_TMPRING_SIZE.WAVESIZE "
                                               "(15 bits");
  } else {
    assert_null(status);
    assert_int_equal(scratch.tmpring_size >> 12,
                     (lanes << 20) / 256);
  }
  info->private_segment_size = 0;
  t->f.inputs.scratch_address = 0;
}

typedef struct rl_test_views_s {
  rl_pm4_view_t* views;
} rl_test_views_t;

static void rl_test_keep_view(void* context, uint32_t i,
                              const rl_pm4_view_t* view) {
  rl_test_views_t* c = context;
  c->views[i] = *view;
}

// A kernel enabling the dispatch id and the private segment size SGPRs
// (what -O0 code objects do): after the kernarg ptr, USER_DATA holds the
// launch index (2 dwords) and the kernel's fixed private size (1); the
// census checks them (negative control: a changed private size).
static void test_dispatch_id_and_private_size(void** state) {
  rl_test_t* t = *state;
  const uint32_t launch = 3;  // vc_axpy_pos
  rl_code_object_kernel_t* info = (rl_code_object_kernel_t*)
      t->f.capture->kernels[t->f.capture->launches[launch].kernel].info;
  rl_kernel_descriptor_info_t saved_info = info->descriptor_info;
  rl_kernel_descriptor_t saved = info->descriptor;
  info->descriptor_info.enable_sgpr_dispatch_id = true;
  info->descriptor_info.enable_sgpr_private_segment_size = true;
  info->private_segment_size = 48;
  if (info->descriptor_info.user_sgpr_count == 2) {
    info->descriptor_info.user_sgpr_count += 3;
    info->descriptor.compute_pgm_rsrc2 += 3u << 1;  // USER_SGPR[5:1]
  }
  t->f.inputs.scratch_address = RL_PM4_TEST_SCRATCH;
  rl_pm4_program_t* p = NULL;
  assert_null(rl_pm4_lower(&t->f.inputs, NULL, &p));
  rl_pm4_view_t* views = calloc(t->f.capture->launch_count, sizeof(*views));
  rl_test_views_t ctx = {.views = views};
  rl_pm4_walk(p, rl_test_keep_view, &ctx, NULL);
  const rl_pm4_compute_regs_t* r = &p->family->regs;
  // USER_DATA_0/1 kernarg ptr, 2/3 dispatch id, 4 private segment size.
  assert_int_equal(rl_pm4_view_reg(&views[launch], r->user_data_0 + 2), launch);
  assert_int_equal(rl_pm4_view_reg(&views[launch], r->user_data_0 + 3), 0);
  assert_int_equal(rl_pm4_view_reg(&views[launch], r->user_data_0 + 4), 48);
  free(views);
  assert_null(rl_pm4_program_check(p, &t->f.inputs));
  info->private_segment_size = 47;  // the same WAVESIZE in wave32 and 64
  rl_test_expect(rl_pm4_program_check(p, &t->f.inputs), RL_STATUS_PREPARE,
                 "COMPUTE_USER_DATA_4: expected 0x0000002f");
  rl_pm4_program_destroy(p);
  info->private_segment_size = 0;
  info->descriptor_info = saved_info;
  info->descriptor = saved;
  t->f.inputs.scratch_address = 0;
}

#define RL_TEST(fn, target) \
  cmocka_unit_test_prestate_setup_teardown(fn, rl_test_setup, \
                                           rl_test_teardown, (void*)target)
#define RL_TEST_ALL(fn) \
  RL_TEST(fn, "gfx1100"), RL_TEST(fn, "gfx1151"), RL_TEST(fn, "gfx1201")

int main(void) {
  const struct CMUnitTest tests[] = {
      RL_TEST_ALL(test_structure_per_launch),
      RL_TEST_ALL(test_density),
      RL_TEST_ALL(test_apply_changes_exact_sites),
      RL_TEST(test_apply_is_all_or_nothing, "gfx1100"),
      RL_TEST_ALL(test_census_negative_controls),
      RL_TEST(test_refuses_what_it_cannot_provide, "gfx1100"),
      RL_TEST(test_refuses_what_it_cannot_provide, "gfx1201"),
      RL_TEST_ALL(test_dispatch_ptr_image),
      RL_TEST_ALL(test_kernarg_segment_maps_read_slack_after_last_slice),
      RL_TEST_ALL(test_scratch_registers),
      RL_TEST_ALL(test_dispatch_id_and_private_size),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
