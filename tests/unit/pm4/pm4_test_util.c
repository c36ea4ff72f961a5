// Fixtures for the PM4 lowering tests (tests/unit/pm4/pm4_test_util.h).
#include "tests/unit/pm4/pm4_test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/capture/capture_repeat.h"
#include "tests/support/test_record.h"

static rl_capture_t* rl_pm4_test_record(const char* processor) {
  char path[512];
  snprintf(path, sizeof(path), "%s/vecchain-%s.co", RL_KERNELS_DIR, processor);
  return rl_test_record_null("vecchain", path);
}

void rl_pm4_fixture_init(rl_pm4_fixture_t* f, const char* processor) {
  rl_pm4_fixture_adopt(f, processor, rl_pm4_test_record(processor));
}

void rl_pm4_fixture_repeat(rl_pm4_fixture_t* f, const char* processor,
                           uint32_t launch_count, uint32_t first,
                           uint32_t stride) {
  rl_capture_t* recorded = rl_pm4_test_record(processor);
  rl_capture_t* repeated = NULL;
  assert_null(
      rl_capture_repeat(recorded, launch_count, first, stride, &repeated));
  rl_capture_destroy(recorded);
  rl_pm4_fixture_adopt(f, processor, repeated);
}

void rl_pm4_fixture_adopt(rl_pm4_fixture_t* f, const char* processor,
                          rl_capture_t* capture) {
  memset(f, 0, sizeof(*f));
  f->processor = processor;
  f->capture = capture;
  assert_null(rl_hazard_plan_create(f->capture, &f->plan));
  f->buffers = calloc(capture->buffer_count, sizeof(uint64_t));
  f->objects = calloc(capture->kernel_count, sizeof(uint64_t));
  f->entries = calloc(capture->kernel_count, sizeof(uint64_t));
  for (uint32_t b = 0; b < capture->buffer_count; ++b) {
    f->buffers[b] = RL_PM4_TEST_BUFFER_BASE + (uint64_t)b * 0x100000;
  }
  // One code object loaded at RL_PM4_TEST_CODE_BASE, as a device would.
  for (uint32_t k = 0; k < capture->kernel_count; ++k) {
    const rl_code_object_kernel_t* info = capture->kernels[k].info;
    f->objects[k] = RL_PM4_TEST_CODE_BASE + info->descriptor_address;
    f->entries[k] = RL_PM4_TEST_CODE_BASE + info->entry_address;
  }
  assert_int_equal(capture->param_count, 1);
  f->pos = capture->params[0].capture_value;
  f->inputs = (rl_pm4_lower_inputs_t){
      .capture = capture, .plan = f->plan, .buffer_addresses = f->buffers,
      .kernel_objects = f->objects, .kernel_entries = f->entries,
      .kernarg_address = RL_PM4_TEST_KERNARG, .ib_address = RL_PM4_TEST_IB,
      .completion_signal = RL_PM4_TEST_SIGNAL, .param_values = &f->pos};
}

void rl_pm4_fixture_deinit(rl_pm4_fixture_t* f) {
  rl_hazard_plan_destroy(f->plan);
  rl_capture_destroy(f->capture);
  free(f->buffers);
  free(f->objects);
  free(f->entries);
  memset(f, 0, sizeof(*f));
}

uint32_t rl_pm4_view_reg(const rl_pm4_view_t* view, uint32_t index) {
  assert_true(index >= RL_PM4_SH_REG_BASE && index < RL_PM4_SH_REG_END);
  assert_true(view->known[index - RL_PM4_SH_REG_BASE]);
  return view->value[index - RL_PM4_SH_REG_BASE];
}

static void rl_pm4_walk_set(rl_pm4_view_t* view, const rl_pm4_packet_t* p) {
  uint32_t first = p->body[0] & 0xffffu;
  for (uint32_t i = 0; i + 2 < p->dwords; ++i) {
    assert_true(first + i < RL_PM4_TEST_SH_COUNT);
    view->value[first + i] = p->body[1 + i];
    view->known[first + i] = true;
  }
}

uint32_t rl_pm4_walk(const rl_pm4_program_t* program, rl_pm4_visit_fn visit,
                     void* context, uint32_t* out_tail) {
  rl_pm4_view_t* view = calloc(1, sizeof(*view));
  assert_non_null(view);
  uint32_t dispatches = 0, releases = 0;
  for (uint32_t offset = 0; offset < program->dword_count;) {
    rl_pm4_packet_t p;
    rl_status_t status = rl_pm4_decode_next(program->family, program->dwords,
                                            program->dword_count, offset, &p);
    if (status) fail_msg("decode: %s", rl_status_message(status));
    assert_int_equal(p.type, 3);
    switch (p.opcode) {
      case RL_PM4_SET_SH_REG: rl_pm4_walk_set(view, &p); break;
      case RL_PM4_EVENT_WRITE: ++view->flushes; break;
      case RL_PM4_ACQUIRE_MEM: ++view->acquires; break;
      case RL_PM4_RELEASE_MEM: ++releases; break;
      case RL_PM4_NOP: break;  // padding before a chain packet
      case RL_PM4_INDIRECT_BUFFER:  // a chain to the next dword
        assert_true(RL_PM4_GET(INDIRECT_BUFFER, CHAIN, p.body[2]));
        break;
      case RL_PM4_DISPATCH_DIRECT:
        view->offset = p.offset;
        memcpy(view->dims, p.body, sizeof(view->dims));
        view->initiator = p.body[3];
        if (visit) visit(context, dispatches, view);
        ++dispatches;
        view->flushes = view->acquires = 0;
        break;
      default: fail_msg("unexpected opcode 0x%x", p.opcode);
    }
    offset += p.dwords;
  }
  if (out_tail) {
    *out_tail = view->flushes | view->acquires << 8 | releases << 16;
  }
  free(view);
  return dispatches;
}

rl_status_t rl_pm4_program_apply(rl_pm4_program_t* program,
                                 const rl_capture_t* capture,
                                 const int64_t* values, uint32_t param_count,
                                 const uint64_t* buffer_addresses,
                                 uint8_t* kernarg_host, uint32_t* ib_host,
                                 uint32_t* out_changed_count) {
  *out_changed_count = 0;
  if (param_count != capture->param_count ||
      program->stats.dispatches != capture->launch_count ||
      program->binds->capture != capture) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "apply: %u parameter values for %u parameters, program "
                     "of %u dispatches for %u launches%s",
                     param_count, capture->param_count,
                     program->stats.dispatches, capture->launch_count,
                     program->binds->capture != capture
                         ? ", lowered from another capture"
                         : "");
  }
  rl_bind_dest_t dests[RL_BIND_MAX_DESTS];
  rl_pm4_program_dests(program, kernarg_host, ib_host, NULL, dests);
  uint32_t changed = 0, rebased = 0;
  RL_RETURN_IF_ERROR(
      rl_bind_table_apply(program->binds, values, param_count, dests, &changed));
  if (buffer_addresses) {
    RL_RETURN_IF_ERROR(rl_bind_table_rebase(program->binds, buffer_addresses,
                                            dests, &rebased));
  }
  *out_changed_count = changed + rebased;
  return RL_OK;
}
