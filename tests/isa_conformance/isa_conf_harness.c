// tests/isa_conformance/isa_conf_harness.c — the simulated device and the
// executor wrapper of the conformance suite (isa_conf_harness.h).
#include "tests/isa_conformance/isa_conf_harness.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/isa/isa_executor.h"
#include "tests/unit/sim/sim_test_util.h"

struct rl_conf_device_s {
  rl_sim_fixture_t fixture;
  rl_device_allocation_t code, in, out, aux, args;
  uint64_t kernel_object;
  uint32_t dispatches;
};

// The wrapper's settings for the dispatch in flight (one at a time: the
// test thread waits for each dispatch before starting the next).
static struct {
  uint64_t entry_address;
  rl_conf_config_t config;
} rl_conf_current;

// The executor the wrapper hands each dispatch to: the isa executor, or
// what rl_conf_set_inner() installed (the oracle executor around it).
static const rl_sim_executor_t* rl_conf_inner_executor;

void rl_conf_set_inner(const rl_sim_executor_t* inner) {
  rl_conf_inner_executor = inner;
}

static const rl_sim_executor_t* rl_conf_inner(void) {
  return rl_conf_inner_executor ? rl_conf_inner_executor : rl_isa_executor();
}

static rl_status_t rl_conf_begin(void* self, const rl_sim_dispatch_t* dispatch,
                                 void** out_state) {
  (void)self;
  rl_sim_dispatch_t copy = *dispatch;
  rl_code_object_kernel_t kernel = *dispatch->kernel;
  rl_kernel_descriptor_info_t* info = &kernel.descriptor_info;
  const rl_conf_config_t* config = &rl_conf_current.config;
  copy.kernel = &kernel;
  copy.entry_address = rl_conf_current.entry_address;
  copy.processor = config->processor ? config->processor : "gfx1100";
  if (rl_conf_gfx12) copy.processor = "gfx1201";
  info->granulated_workitem_vgpr_count = 31;  // 256 VGPRs
  info->float_denorm_mode_32 = config->ftz32 ? 0 : 3;
  info->enable_ieee_mode = config->ieee;
  info->enable_dx10_clamp = config->dx10_clamp;
  info->enable_sgpr_workgroup_id_x = true;
  info->enable_sgpr_workgroup_id_y = false;
  info->enable_sgpr_workgroup_id_z = false;
  info->enable_sgpr_workgroup_info = false;
  info->enable_vgpr_workitem_id = 0;
  if (config->private_bytes != 0) {  // scratch, as a packet would give it
    info->enable_private_segment = true;
    copy.private_segment_size = config->private_bytes;
  }
  const rl_sim_executor_t* isa = rl_conf_inner();
  return isa->begin(isa->self, &copy, out_state);
}

static rl_status_t rl_conf_run_wg(void* self, void* state, rl_sim_wg_t* wg) {
  (void)self;
  const rl_sim_executor_t* isa = rl_conf_inner();
  return isa->run_workgroup(isa->self, state, wg);
}

static void rl_conf_end(void* self, void* state) {
  (void)self;
  const rl_sim_executor_t* isa = rl_conf_inner();
  isa->end(isa->self, state);
}

// No static check: the suite runs hand-encoded programs, not the code
// object's kernels.
static const rl_sim_executor_t rl_conf_executor = {
    "isa-conformance", NULL, rl_conf_begin, rl_conf_run_wg, rl_conf_end, NULL,
    false, NULL, NULL, NULL, NULL, NULL, NULL, NULL};

// Creates the simulated device, its queue and the buffers; also used to
// start afresh after a dispatch faulted (a faulted queue stays stopped).
static void rl_conf_device_setup(rl_conf_device_t* device) {
  rl_sim_options_t options = {.processor = "gfx1100",
                              .executor = &rl_conf_executor};
  rl_sim_fixture_setup(&device->fixture, &options, 16);
  device->code = rl_sim_fixture_alloc(&device->fixture, 4 * RL_CONF_MAX_WORDS);
  device->in = rl_sim_fixture_alloc(&device->fixture, RL_CONF_BUFFER_BYTES);
  device->out = rl_sim_fixture_alloc(&device->fixture, RL_CONF_BUFFER_BYTES);
  device->aux = rl_sim_fixture_alloc(&device->fixture, RL_CONF_BUFFER_BYTES);
  device->args = rl_sim_fixture_alloc(&device->fixture, 64);
  memcpy((uint8_t*)device->args.host + 0, &device->in.address, 8);
  memcpy((uint8_t*)device->args.host + 8, &device->out.address, 8);
  memcpy((uint8_t*)device->args.host + 16, &device->aux.address, 8);
  device->kernel_object = rl_sim_fixture_kernel(&device->fixture, "vc_fill");
}

rl_conf_device_t* rl_conf_device_create(void) {
  rl_conf_device_t* device = calloc(1, sizeof(*device));
  assert_non_null(device);
  rl_conf_device_setup(device);
  return device;
}

void rl_conf_device_destroy(rl_conf_device_t* device) {
  if (device == NULL) return;
  rl_sim_fixture_teardown(&device->fixture);
  rl_isa_executor_clear_cache();
  free(device);
}

uint8_t* rl_conf_in(rl_conf_device_t* device) { return device->in.host; }
uint8_t* rl_conf_out(rl_conf_device_t* device) { return device->out.host; }
uint8_t* rl_conf_aux(rl_conf_device_t* device) { return device->aux.host; }
uint64_t rl_conf_in_address(rl_conf_device_t* device) {
  return device->in.address;
}
uint64_t rl_conf_out_address(rl_conf_device_t* device) {
  return device->out.address;
}
uint64_t rl_conf_aux_address(rl_conf_device_t* device) {
  return device->aux.address;
}
uint64_t rl_conf_code_address(rl_conf_device_t* device) {
  return device->code.address;
}
uint32_t rl_conf_dispatches(const rl_conf_device_t* device) {
  return device->dispatches;
}

bool rl_conf_run(rl_conf_device_t* device, const rl_conf_program_t* program,
                 const rl_conf_config_t* config, char* fault,
                 uint32_t fault_capacity) {
  rl_sim_fixture_t* fixture = &device->fixture;
  memcpy(device->code.host, program->words, program->count * 4u);
  // A zero tail so the builder's sweep never reads a stale program.
  memset((uint8_t*)device->code.host + program->count * 4u, 0, 64);
  memset(device->out.host, 0xcd, RL_CONF_BUFFER_BYTES);
  rl_conf_current.entry_address = device->code.address;
  rl_conf_current.config = *config;
  uint64_t signal = rl_sim_fixture_signal(fixture, 1);
  rl_aql_dispatch_packet_t packet = rl_test_dispatch(
      device->kernel_object, device->args.address, config->lanes, signal,
      true);
  packet.group_segment_size = config->lds_bytes;
  rl_test_submit(fixture, &packet);
  ++device->dispatches;
  // Poll in short steps so that a fault (the signal then never drops) is
  // seen at once.
  rl_device_fault_t queue_fault = {0};
  for (uint32_t step = 0; step < 5000; ++step) {
    if (rl_test_wait(fixture, signal, 2000000ull)) return true;
    fixture->device->vtable->queue_fault(fixture->device, &fixture->queue,
                                         &queue_fault);
    if (queue_fault.faulted) break;
  }
  if (fault) {
    snprintf(fault, fault_capacity, "%s",
             queue_fault.faulted ? queue_fault.message : "dispatch timed out");
  }
  // The faulted queue is stopped for good: start a fresh device, with the
  // caller's buffers carried over.
  uint8_t* saved = malloc(3u * RL_CONF_BUFFER_BYTES);
  assert_non_null(saved);
  memcpy(saved, device->in.host, RL_CONF_BUFFER_BYTES);
  memcpy(saved + RL_CONF_BUFFER_BYTES, device->out.host, RL_CONF_BUFFER_BYTES);
  memcpy(saved + 2u * RL_CONF_BUFFER_BYTES, device->aux.host,
         RL_CONF_BUFFER_BYTES);
  rl_sim_fixture_teardown(fixture);
  rl_conf_device_setup(device);
  memcpy(device->in.host, saved, RL_CONF_BUFFER_BYTES);
  memcpy(device->out.host, saved + RL_CONF_BUFFER_BYTES, RL_CONF_BUFFER_BYTES);
  memcpy(device->aux.host, saved + 2u * RL_CONF_BUFFER_BYTES,
         RL_CONF_BUFFER_BYTES);
  free(saved);
  return false;
}
