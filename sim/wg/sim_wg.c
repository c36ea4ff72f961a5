// sim/wg/sim_wg.c — from a decoded dispatch (an AQL packet, or PM4
// registers through rl_sim_launch_t) to executor calls:
// dispatch validation, work-group geometry, and the rl_sim_wg_* memory
// interface every executor uses (translation, VM faults, hazard recording,
// kernarg readers, per-work-group LDS).
//
// Validation of a kernel-dispatch packet, beyond what aql_decode checks, in
// the order a CP meets the fields:
//   - kernel_object must be the device address of a loaded `.kd` (a real CP
//     would fetch garbage as a descriptor and hang or fault);
//   - scratch: a kernel with a private segment (fixed size, dynamic stack
//     or ENABLE_PRIVATE_SEGMENT) needs a dispatch that provides at least its
//     fixed size per work-item, and none may ask for more than
//     RL_SIM_PRIVATE_LIMIT (CONTRACT); the executor gives every work-item
//     that many private bytes (sim_executor.h);
//   - group_segment_size must cover the kernel's static LDS and be at most
//     RL_SIM_LDS_LIMIT;
//   - the work-group must not exceed the kernel's max_flat_workgroup_size;
//   - kernarg_address must be aligned to max(16, kernarg alignment) (HSA:
//     kernarg segments are 16-byte aligned) and [kernarg_address,
//     + kernarg_size) must lie inside one live allocation;
//   - at most 2^32 work-groups (a simulator limit).
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/test_fault.h"
#include "sim/wg/sim_wg.h"

// Largest number of work-groups one dispatch may have on the simulator.
#define RL_SIM_MAX_WORKGROUPS (1ull << 32)
// Largest private segment per work-item a dispatch may ask for (bytes).
#define RL_SIM_PRIVATE_LIMIT (64u * 1024u)

// The apertures lie above every address the simulator hands out.
_Static_assert(RL_SIM_VA_END <= RL_SIM_APERTURE_SHARED_BASE &&
                   RL_SIM_APERTURE_SHARED_BASE + RL_SIM_APERTURE_SIZE <=
                       RL_SIM_APERTURE_PRIVATE_BASE,
               "the flat apertures overlap the simulator's VA");

// The work cap (rl_sim_options_t.max_work_items), before anything runs.
static rl_status_t rl_sim_run_check_work(const rl_sim_device_t* device,
                                         const rl_sim_launch_t* launch) {
  uint64_t items = (uint64_t)launch->grid_size[0] * launch->grid_size[1];
  uint64_t z = launch->grid_size[2];
  items = z != 0 && items > UINT64_MAX / z ? UINT64_MAX : items * z;
  if (items <= device->options.max_work_items) return RL_OK;
  return RL_STATUS(RL_STATUS_CONTRACT,
                   "kernel %s: %" PRIu64 " work-items exceed the work cap of "
                   "%" PRIu64 " per dispatch (rl_sim_options_t."
                   "max_work_items); refused before running",
                   launch->kernel.kernel->name, items,
                   device->options.max_work_items);
}

static rl_status_t rl_sim_run_check_limits(const rl_sim_launch_t* launch) {
  const rl_code_object_kernel_t* kernel = launch->kernel.kernel;
  bool scratch = kernel->private_segment_size != 0 ||
                 kernel->uses_dynamic_stack ||
                 kernel->descriptor_info.enable_private_segment;
  if (scratch && launch->private_segment_size < kernel->private_segment_size) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "kernel %s needs scratch (%u private bytes per "
                     "work-item%s) but the dispatch provides %u (AQL: the "
                     "packet's private_segment_size; PM4: COMPUTE_TMPRING_"
                     "SIZE and the scratch base)",
                     kernel->name, kernel->private_segment_size,
                     kernel->uses_dynamic_stack ? " and a dynamic stack" : "",
                     launch->private_segment_size);
  }
  if (scratch && launch->private_segment_size == 0) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "kernel %s enables its private segment (a dynamic "
                     "stack: %d) but the dispatch provides no scratch",
                     kernel->name, kernel->uses_dynamic_stack ? 1 : 0);
  }
  if (launch->private_segment_size > RL_SIM_PRIVATE_LIMIT) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "kernel %s: %u private bytes per work-item, the "
                     "simulated device provides at most %u",
                     kernel->name, launch->private_segment_size,
                     RL_SIM_PRIVATE_LIMIT);
  }
  if (launch->group_segment_size < kernel->group_segment_size ||
      launch->group_segment_size > RL_SIM_LDS_LIMIT) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "kernel %s: group segment %u bytes, expected %u..%u",
                     kernel->name, launch->group_segment_size,
                     kernel->group_segment_size, RL_SIM_LDS_LIMIT);
  }
  uint32_t items = launch->workgroup_size[0] * launch->workgroup_size[1] *
                   launch->workgroup_size[2];
  if (kernel->max_flat_workgroup_size != 0 &&
      items > kernel->max_flat_workgroup_size) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "kernel %s: work-group of %u work-items, the kernel "
                     "allows at most %u",
                     kernel->name, items, kernel->max_flat_workgroup_size);
  }
  return RL_OK;
}

static rl_status_t rl_sim_run_check_kernarg(rl_sim_device_t* device,
                                            const rl_sim_launch_t* launch,
                                            uint64_t* out_fault_address) {
  const rl_code_object_kernel_t* kernel = launch->kernel.kernel;
  uint64_t align = kernel->kernarg_align > 16 ? kernel->kernarg_align : 16;
  uint64_t address = launch->kernarg_address;
  if (kernel->kernarg_size == 0) return RL_OK;
  if (address % align != 0) {
    *out_fault_address = address;
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "kernel %s: kernarg_address 0x%" PRIx64 " is not %" PRIu64
                     "-byte aligned",
                     kernel->name, address, align);
  }
  if (rl_sim_memory_translate(&device->memory, address, kernel->kernarg_size) ==
      NULL) {
    *out_fault_address = address;
    return RL_STATUS(RL_STATUS_POISONED,
                     "VM fault: kernel %s: kernarg segment [0x%" PRIx64
                     ", +%u) is not inside live memory",
                     kernel->name, address, kernel->kernarg_size);
  }
  return RL_OK;
}

// Fills |run| from |launch|; fails only on a too-large grid.
static rl_status_t rl_sim_run_fill(const rl_sim_launch_t* launch,
                                   rl_sim_run_t* run) {
  rl_sim_dispatch_t* d = &run->dispatch;
  memset(d, 0, sizeof(*d));
  uint64_t total = 1;
  // Test-only (base/test_fault.h): a dispatch that ignores the
  // grid's Y dimension (one row of work-groups), the dispatch audit's
  // negative control (shadow/effects_audit.h).
  const bool ignore_y = rl_test_fault("grid-ignore-y", 0);
  for (int axis = 0; axis < 3; ++axis) {
    d->workgroup_size[axis] = launch->workgroup_size[axis];
    d->grid_size[axis] = launch->grid_size[axis];
    d->workgroup_count[axis] = (uint32_t)(((uint64_t)launch->grid_size[axis] +
                                           launch->workgroup_size[axis] - 1) /
                                          launch->workgroup_size[axis]);
    if (axis == 1 && ignore_y) d->workgroup_count[1] = 1;
    total *= d->workgroup_count[axis];
  }
  if (total > RL_SIM_MAX_WORKGROUPS) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "kernel %s: %" PRIu64
                     " work-groups exceed the "
                     "simulator's limit of 2^32",
                     launch->kernel.kernel->name, total);
  }
  d->packet_id = launch->packet_id;
  d->packet_address = launch->packet_address;
  d->kernel_object = launch->kernel.kernel_object;
  d->entry_address = launch->kernel.entry_address;
  d->kernarg_address = launch->kernarg_address;
  d->kernel = launch->kernel.kernel;
  d->dimensions = launch->dimensions;
  d->group_segment_size = launch->group_segment_size;
  d->private_segment_size = launch->private_segment_size;
  d->user_sgprs = launch->user_sgprs;
  d->user_sgpr_count = launch->user_sgpr_count;
  d->cooperative = false;  // rl_sim_run_launch sets it from the device
  run->completion_signal = launch->completion_signal;
  run->wg_total = total;
  run->wg_done = 0;
  run->wg_opened = 0;
  run->finished = false;
  run->acquire_scope = 0;
  run->begun = false;
  run->start_timestamp = 0;
  rl_sim_range_set_clear(&run->reads);
  rl_sim_range_set_clear(&run->writes);
  return RL_OK;
}

rl_status_t rl_sim_run_prepare(rl_sim_queue_t* queue, uint64_t id,
                               const rl_aql_decoded_t* packet,
                               rl_sim_run_t* run, uint64_t* out_fault_address) {
  *out_fault_address = 0;
  rl_sim_launch_t launch = {
      .packet_id = id,
      .packet_address = queue->ring_address +
                        (id & (queue->packet_count - 1)) * RL_AQL_PACKET_SIZE,
      .dimensions = packet->dimensions,
      .group_segment_size = packet->group_segment_size,
      .private_segment_size = packet->private_segment_size,
      .kernarg_address = packet->kernarg_address,
      .completion_signal = packet->completion_signal,
  };
  if (!rl_sim_loader_find(&queue->device->loader, packet->kernel_object,
                          &launch.kernel)) {
    *out_fault_address = packet->kernel_object;
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "kernel_object 0x%" PRIx64
                     " is not the address of a "
                     "loaded kernel descriptor (.kd)",
                     packet->kernel_object);
  }
  for (int axis = 0; axis < 3; ++axis) {
    launch.workgroup_size[axis] = packet->workgroup_size[axis];
    launch.grid_size[axis] = packet->grid_size[axis];
  }
  RL_RETURN_IF_ERROR(rl_sim_run_launch(queue, &launch, run, out_fault_address));
  run->acquire_scope = packet->acquire_scope;
  run->dispatch.cooperative =
      atomic_load_explicit(&queue->device->cooperative, memory_order_acquire);
  return RL_OK;
}

rl_status_t rl_sim_run_launch(rl_sim_queue_t* queue,
                              const rl_sim_launch_t* launch, rl_sim_run_t* run,
                              uint64_t* out_fault_address) {
  *out_fault_address = 0;
  rl_sim_device_t* device = queue->device;
  const rl_code_object_kernel_t* kernel = launch->kernel.kernel;
  RL_RETURN_IF_ERROR(rl_sim_run_check_limits(launch));
  RL_RETURN_IF_ERROR(rl_sim_run_check_work(device, launch));
  RL_RETURN_IF_ERROR(
      rl_sim_run_check_kernarg(device, launch, out_fault_address));
  RL_RETURN_IF_ERROR(rl_sim_run_fill(launch, run));
  run->dispatch.processor = device->processor;  // the loader checked the match
  // The device's cooperative mode (sim.h rl_sim_set_cooperative) applies
  // to every dispatch its command processors validate, AQL or PM4 (a
  // replay of a capture with cooperative launches runs on either route).
  run->dispatch.cooperative =
      atomic_load_explicit(&device->cooperative, memory_order_acquire);
  const rl_sim_executor_t* executor = device->options.executor;
  if (executor == NULL) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "kernel %s: no kernel executor (rl_sim_options_t.executor "
                     "is NULL)",
                     kernel->name);
  }
  run->dispatch.dispatch_index = atomic_fetch_add(&device->dispatch_count, 1);
  rl_sim_trace_launch(device, launch, run->dispatch.dispatch_index);
  run->state = NULL;
  rl_status_t status =
      executor->begin(executor->self, &run->dispatch, &run->state);
  if (status != RL_OK) {
    return rl_status_annotate(status,
                              "executor '%s' refused kernel %s "
                              "(dispatch %" PRIu64 ")",
                              executor->name, kernel->name,
                              run->dispatch.dispatch_index);
  }
  run->begun = true;
  queue->unfinished |= 1ull << (uint32_t)(run - queue->runs);
  return RL_OK;
}

void rl_sim_run_end(rl_sim_queue_t* queue, rl_sim_run_t* run) {
  queue->unfinished &= ~(1ull << (uint32_t)(run - queue->runs));
  while (run->open_count > 0) rl_sim_wg_close(queue, run, 0);
  if (run->coop != NULL) rl_sim_coop_end(queue, run);
  // The accesses were logged (rl_sim_range_set_log): sorted in once here,
  // before the access log and the hazard checker read the sets. Out of
  // memory loses ranges, as a failed add did.
  rl_status_free(rl_sim_range_set_settle(&run->reads));
  rl_status_free(rl_sim_range_set_settle(&run->writes));
  rl_sim_access_log_run(queue->device, run);
  if (!run->begun) return;
  const rl_sim_executor_t* executor = queue->device->options.executor;
  if (executor->end != NULL) executor->end(executor->self, run->state);
  run->begun = false;
  run->state = NULL;
}

void rl_sim_wg_setup(rl_sim_queue_t* queue, rl_sim_run_t* run,
                     uint64_t wg_index, uint8_t* lds, rl_sim_wg_t* wg,
                     rl_sim_wg_context_t* context) {
  const rl_sim_dispatch_t* d = &run->dispatch;
  *context = (rl_sim_wg_context_t){.device = queue->device,
                                   .run = run,
                                   .lds = lds,
                                   .reads = &run->reads,
                                   .writes = &run->writes,
                                   .queue = queue};
  if (rl_sim_cache_enabled(&queue->device->cache)) {
    context->wgp = rl_sim_cache_place(&queue->device->cache,
                                      d->dispatch_index, wg_index);
  }
  *wg = (rl_sim_wg_t){.dispatch = d, .context = context};
  uint64_t rest = wg_index;
  for (int axis = 0; axis < 3; ++axis) {
    // No division on an axis of one work-group (most dispatches are 1D):
    // two 64-bit divisions per axis were most of a no-op work-group's cost.
    if (d->workgroup_count[axis] == 1) {
      wg->group_id[axis] = 0;
    } else if (rest < d->workgroup_count[axis]) {
      wg->group_id[axis] = (uint32_t)rest;
      rest = 0;
    } else {
      wg->group_id[axis] = (uint32_t)(rest % d->workgroup_count[axis]);
      rest /= d->workgroup_count[axis];
    }
    uint64_t first = (uint64_t)wg->group_id[axis] * d->workgroup_size[axis];
    uint64_t left = d->grid_size[axis] - first;
    wg->size[axis] =
        (uint32_t)(left < d->workgroup_size[axis] ? left
                                                  : d->workgroup_size[axis]);
  }
}

rl_status_t rl_sim_wg_failed(rl_status_t status, const rl_sim_wg_t* wg,
                             uint64_t* out_fault_address) {
  const rl_sim_wg_context_t* context = wg->context;
  *out_fault_address = context->fault_address;
  return rl_status_annotate(
      status, "kernel %s dispatch %" PRIu64 " work-group (%u,%u,%u)",
      wg->dispatch->kernel->name, wg->dispatch->dispatch_index,
      wg->group_id[0], wg->group_id[1], wg->group_id[2]);
}

rl_status_t rl_sim_run_workgroup(rl_sim_queue_t* queue, rl_sim_run_t* run,
                                 uint64_t wg_index,
                                 uint64_t* out_fault_address) {
  rl_sim_wg_context_t context;
  rl_sim_wg_t wg;
  rl_sim_wg_setup(queue, run, wg_index, queue->lds, &wg, &context);
  // LDS starts zeroed (a deterministic stand-in for undefined contents):
  // only bytes an earlier work-group may have written need clearing.
  const rl_sim_executor_t* executor = queue->device->options.executor;
  const uint32_t lds = run->dispatch.group_segment_size;
  const uint32_t clear = lds < queue->lds_dirty ? lds : queue->lds_dirty;
  if (clear) memset(queue->lds, 0, clear);
  if (queue->lds_dirty <= lds) queue->lds_dirty = 0;
  if (!executor->leaves_lds_untouched && lds > queue->lds_dirty) {
    queue->lds_dirty = lds;
  }
  rl_status_t status = executor->run_workgroup(executor->self, run->state, &wg);
  if (status == RL_OK) return RL_OK;
  return rl_sim_wg_failed(status, &wg, out_fault_address);
}

rl_status_t rl_sim_run_workgroup_on(rl_sim_queue_t* queue, rl_sim_run_t* run,
                                    uint64_t wg_index, uint32_t worker,
                                    uint8_t* lds, rl_sim_range_set_t* reads,
                                    rl_sim_range_set_t* writes,
                                    uint64_t* out_fault_address) {
  rl_sim_wg_context_t context;
  rl_sim_wg_t wg;
  rl_sim_wg_setup(queue, run, wg_index, lds, &wg, &context);
  context.reads = reads;
  context.writes = writes;
  const rl_sim_executor_t* executor = queue->device->options.executor;
  rl_status_t status =
      executor->run_workgroup_on(executor->self, run->state, &wg, worker);
  if (status == RL_OK) return RL_OK;
  return rl_sim_wg_failed(status, &wg, out_fault_address);
}

rl_status_t rl_sim_open_wg_create(rl_sim_queue_t* queue, rl_sim_run_t* run,
                                  uint64_t wg_index,
                                  rl_sim_open_wg_t** out_open) {
  *out_open = NULL;
  rl_sim_open_wg_t* open = calloc(1, sizeof(*open));
  uint32_t lds = run->dispatch.group_segment_size;
  if (open == NULL || (lds > 0 && (open->lds = calloc(1, lds)) == NULL)) {
    free(open);
    return rl_status_out_of_memory();
  }
  rl_sim_wg_setup(queue, run, wg_index, open->lds, &open->wg, &open->context);
  *out_open = open;
  return RL_OK;
}

rl_status_t rl_sim_open_wg_start(rl_sim_queue_t* queue, rl_sim_run_t* run,
                                 rl_sim_open_wg_t* open,
                                 uint64_t* out_fault_address) {
  const rl_sim_executor_t* executor = queue->device->options.executor;
  rl_status_t status =
      executor->wg_open(executor->self, run->state, &open->wg, &open->state);
  if (status == RL_OK) return RL_OK;
  return rl_sim_wg_failed(status, &open->wg, out_fault_address);
}

rl_status_t rl_sim_wg_open(rl_sim_queue_t* queue, rl_sim_run_t* run,
                           uint64_t wg_index, uint64_t* out_fault_address) {
  rl_sim_open_wg_t* open = NULL;
  RL_RETURN_IF_ERROR(rl_sim_open_wg_create(queue, run, wg_index, &open));
  uint32_t slot = run->open_count++;
  run->open_wg[slot] = open;
  rl_status_t status =
      rl_sim_open_wg_start(queue, run, open, out_fault_address);
  if (status != RL_OK) rl_sim_wg_close(queue, run, slot);
  return status;
}

rl_status_t rl_sim_wg_step(rl_sim_queue_t* queue, rl_sim_run_t* run,
                           uint32_t slot, uint64_t quantum, bool* out_done,
                           uint64_t* out_fault_address) {
  const rl_sim_executor_t* executor = queue->device->options.executor;
  rl_sim_open_wg_t* open = run->open_wg[slot];
  rl_status_t status =
      executor->wg_step(executor->self, open->state, quantum, out_done);
  if (status == RL_OK) return RL_OK;
  return rl_sim_wg_failed(status, &open->wg, out_fault_address);
}

void rl_sim_open_wg_free(rl_sim_queue_t* queue,
                         struct rl_sim_open_wg_s* open) {
  const rl_sim_executor_t* executor = queue->device->options.executor;
  if (open->state != NULL) executor->wg_close(executor->self, open->state);
  free(open->lds);
  free(open);
}

void rl_sim_wg_close(rl_sim_queue_t* queue, rl_sim_run_t* run,
                     uint32_t slot) {
  rl_sim_open_wg_free(queue, run->open_wg[slot]);
  run->open_wg[slot] = run->open_wg[--run->open_count];
  run->open_wg[run->open_count] = NULL;
}

// A VM fault status naming the access, the packet and the dispatch,
// whether it touched a no-access guard range (device.h reserve_guard), and
// the allocation it ran off with the offset in it (rl_sim_memory_describe).
static rl_status_t rl_sim_wg_fault(rl_sim_wg_t* wg, const char* kind,
                                   uint64_t address, uint32_t size) {
  rl_sim_wg_context_t* context = wg->context;
  context->fault_address = address;
  rl_sim_memory_t* memory = &context->device->memory;
  bool guard = rl_sim_memory_touches_guard(memory, address, size);
  char nearest[160];
  rl_sim_memory_describe(memory, address, size, nearest, sizeof(nearest));
  return RL_STATUS(RL_STATUS_POISONED,
                   "VM fault: %s of %u bytes at 0x%" PRIx64 " %s%s%s (packet %" PRIu64
                   ", dispatch %" PRIu64 ")",
                   kind, size, address,
                   guard ? "touches a no-access guard range"
                         : "is outside any live allocation",
                   nearest[0] ? ": " : "", nearest,
                   wg->dispatch->packet_id, wg->dispatch->dispatch_index);
}

rl_status_t rl_sim_wg_load_with(rl_sim_wg_t* wg, uint64_t address,
                                void* out_data, uint32_t size,
                                uint32_t access) {
  rl_sim_wg_context_t* context = wg->context;
  rl_sim_device_t* device = context->device;
  if (!rl_sim_memory_copy_out(&device->memory, address, out_data, size)) {
    return rl_sim_wg_fault(wg, "read", address, size);
  }
  if (rl_sim_cache_enabled(&device->cache)) {
    const rl_sim_cache_access_t where = {context->wgp,
                                         wg->dispatch->dispatch_index, access};
    rl_sim_cache_load(device, &where, address, out_data, size);
  }
  if (context->device->options.no_access_record) return RL_OK;
  return rl_sim_range_set_log(context->reads, address, size);
}

bool rl_sim_wg_peek(rl_sim_wg_t* wg, uint64_t address, void* out_data,
                    uint32_t size) {
  rl_sim_wg_context_t* context = wg->context;
  return rl_sim_memory_copy_out(&context->device->memory, address, out_data,
                                size);
}

// Test-only (base/test_fault.h "store-extra-byte"): a store in a
// work-group whose writes are watched also writes the byte at |extra| (the
// one after its last element) with the value it holds: the negative
// control of the oracle's extent check (its byte comparison cannot see it).
static rl_status_t rl_sim_wg_fault_extra_byte(rl_sim_wg_context_t* context,
                                              uint64_t extra) {
  uint8_t byte;
  if (!rl_test_fault("store-extra-byte", 0) ||
      !rl_sim_memory_copy_out(&context->device->memory, extra, &byte, 1) ||
      !rl_sim_memory_copy_in(&context->device->memory, extra, &byte, 1)) {
    return RL_OK;
  }
  return rl_sim_range_set_add(context->wg_writes, extra, 1);
}

rl_status_t rl_sim_wg_store_with(rl_sim_wg_t* wg, uint64_t address,
                                 const void* data, uint32_t size,
                                 uint32_t access) {
  rl_sim_wg_context_t* context = wg->context;
  rl_sim_device_t* device = context->device;
  const rl_sim_cache_access_t where = {context->wgp,
                                       wg->dispatch->dispatch_index, access};
  bool cached = rl_sim_cache_enabled(&device->cache);
  if (cached) rl_sim_cache_store_before(device, &where, address, size);
  if (!rl_sim_memory_copy_in(&device->memory, address, data, size)) {
    return rl_sim_wg_fault(wg, "write", address, size);
  }
  if (cached) rl_sim_cache_store_after(device, &where, address, data, size);
  if (context->wg_writes) {
    RL_RETURN_IF_ERROR(rl_sim_range_set_add(context->wg_writes, address, size));
    RL_RETURN_IF_ERROR(rl_sim_wg_fault_extra_byte(context, address + size));
  }
  if (context->device->options.no_access_record) return RL_OK;
  return rl_sim_range_set_log(context->writes, address, size);
}

void rl_sim_wg_watch_writes(rl_sim_wg_t* wg, rl_sim_wg_writes_t* into) {
  rl_sim_wg_context_t* context = wg->context;
  context->wg_writes = into;
}

rl_sim_wg_writes_t* rl_sim_wg_writes_new(void) {
  return calloc(1, sizeof(rl_sim_range_set_t));
}

void rl_sim_wg_writes_free(rl_sim_wg_writes_t* writes) {
  if (!writes) return;
  rl_sim_range_set_deinit(writes);
  free(writes);
}

uint32_t rl_sim_wg_writes_count(const rl_sim_wg_writes_t* writes) {
  return writes->count;
}

void rl_sim_wg_writes_range(const rl_sim_wg_writes_t* writes, uint32_t index,
                            uint64_t* out_begin, uint64_t* out_end) {
  *out_begin = writes->items[index].begin;
  *out_end = writes->items[index].end;
}

// Misaligned atomics (a fault on hardware's natural-alignment rule, which
// the simulator does not enforce) cannot use the host's atomic builtins:
// they take this lock instead (still atomic with respect to each other).
static pthread_mutex_t rl_sim_wg_misaligned_lock = PTHREAD_MUTEX_INITIALIZER;

// old = *|host|; *|host| = update(old) as one host atomic; returns old.
static uint64_t rl_sim_wg_atomic_host(uint8_t* host, uint32_t size,
                                      rl_sim_wg_update_fn update,
                                      const void* arg) {
  if (size == 4 && ((uintptr_t)host & 3u) == 0) {
    uint32_t* at = (uint32_t*)host;
    uint32_t old = __atomic_load_n(at, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(at, &old, (uint32_t)update(old, arg),
                                        false, __ATOMIC_SEQ_CST,
                                        __ATOMIC_RELAXED)) {
    }
    return old;
  }
  if (size == 8 && ((uintptr_t)host & 7u) == 0) {
    uint64_t* at = (uint64_t*)host;
    uint64_t old = __atomic_load_n(at, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(at, &old, update(old, arg), false,
                                        __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
    }
    return old;
  }
  pthread_mutex_lock(&rl_sim_wg_misaligned_lock);
  uint64_t old = 0;
  memcpy(&old, host, size);
  uint64_t next = update(old, arg);
  memcpy(host, &next, size);
  pthread_mutex_unlock(&rl_sim_wg_misaligned_lock);
  return old;
}

rl_status_t rl_sim_wg_atomic(rl_sim_wg_t* wg, uint64_t address, uint32_t size,
                             rl_sim_wg_update_fn update, const void* arg,
                             uint64_t* out_old) {
  rl_sim_wg_context_t* context = wg->context;
  rl_sim_device_t* device = context->device;
  *out_old = 0;
  uint8_t* host = size == 4 || size == 8
                      ? rl_sim_memory_translate(&device->memory, address, size)
                      : NULL;
  if (host == NULL) return rl_sim_wg_fault(wg, "read", address, size);
  const rl_sim_cache_access_t where = {context->wgp,
                                       wg->dispatch->dispatch_index, 0};
  bool cached = rl_sim_cache_enabled(&device->cache);
  if (cached) rl_sim_cache_store_before(device, &where, address, size);
  uint64_t old = rl_sim_wg_atomic_host(host, size, update, arg);
  *out_old = old;
  if (cached) {
    // The writer's lines get the value this atomic wrote.
    uint64_t next = update(old, arg);
    rl_sim_cache_store_after(device, &where, address, &next, size);
  }
  if (context->wg_writes) {
    RL_RETURN_IF_ERROR(rl_sim_range_set_add(context->wg_writes, address, size));
  }
  if (device->options.no_access_record) return RL_OK;
  RL_RETURN_IF_ERROR(rl_sim_range_set_log(context->reads, address, size));
  return rl_sim_range_set_log(context->writes, address, size);
}

// The extent [*|out_lo|, *|out_hi|) of the lanes' accesses; false when a
// lane's range wraps around the address space.
static bool rl_sim_wg_lanes_extent(const uint64_t* address, uint32_t lanes,
                                   uint32_t size, uint64_t* out_lo,
                                   uint64_t* out_hi) {
  uint64_t lo = UINT64_MAX, hi = 0;
  for (uint32_t rest = lanes; rest; rest &= rest - 1) {
    uint64_t a = address[__builtin_ctz(rest)];
    if (a > UINT64_MAX - size) return false;
    if (a < lo) lo = a;
    if (a + size > hi) hi = a + size;
  }
  *out_lo = lo;
  *out_hi = hi;
  return lanes != 0;
}

// Records the lanes' ranges in |set|: sorted and coalesced, then added at
// once (a set is their union, so the order they are added in does not
// matter).
static rl_status_t rl_sim_wg_lanes_record(rl_sim_range_set_t* set,
                                          const uint64_t* address,
                                          uint32_t lanes, uint32_t size) {
  rl_sim_range_t ranges[32];
  uint32_t count = 0;
  for (uint32_t rest = lanes; rest; rest &= rest - 1) {
    uint64_t a = address[__builtin_ctz(rest)];
    // Insertion sort: the lanes of a gather mostly ascend already.
    uint32_t k = count++;
    while (k > 0 && ranges[k - 1].begin > a) {
      ranges[k] = ranges[k - 1];
      --k;
    }
    ranges[k] = (rl_sim_range_t){a, a + size};
  }
  uint32_t kept = 0;
  for (uint32_t k = 0; k < count; ++k) {
    if (kept > 0 && ranges[k].begin <= ranges[kept - 1].end) {
      if (ranges[k].end > ranges[kept - 1].end) {
        ranges[kept - 1].end = ranges[k].end;
      }
      continue;
    }
    ranges[kept++] = ranges[k];
  }
  return rl_sim_range_set_add_sorted(set, ranges, kept);
}

rl_status_t rl_sim_wg_load_lanes(rl_sim_wg_t* wg, const uint64_t* address,
                                 uint32_t lanes, uint32_t size,
                                 uint32_t access, uint8_t* data,
                                 bool* out_done) {
  rl_sim_wg_context_t* context = wg->context;
  rl_sim_device_t* device = context->device;
  uint64_t lo = 0, hi = 0;
  *out_done = false;
  if (size == 0 || !rl_sim_wg_lanes_extent(address, lanes, size, &lo, &hi) ||
      !rl_sim_memory_gather(&device->memory, lo, hi, address, lanes, size,
                            data)) {
    return RL_OK;
  }
  *out_done = true;
  if (rl_sim_cache_enabled(&device->cache)) {
    const rl_sim_cache_access_t where = {context->wgp,
                                         wg->dispatch->dispatch_index, access};
    rl_sim_cache_load_lanes(device, &where, address, lanes, data, size);
  }
  if (device->options.no_access_record) return RL_OK;
  return rl_sim_range_set_log_lanes(context->reads, address, lanes, size);
}

rl_status_t rl_sim_wg_store_lanes(rl_sim_wg_t* wg, const uint64_t* address,
                                  uint32_t lanes, uint32_t size,
                                  uint32_t access, const uint8_t* data,
                                  bool* out_done) {
  rl_sim_wg_context_t* context = wg->context;
  rl_sim_device_t* device = context->device;
  uint64_t lo = 0, hi = 0;
  *out_done = false;
  if (size == 0 || !rl_sim_wg_lanes_extent(address, lanes, size, &lo, &hi) ||
      rl_sim_memory_translate(&device->memory, lo, hi - lo) == NULL) {
    return RL_OK;
  }
  // Lane by lane, a lane's store reaches memory between its _before and
  // _after; all _before first is the same: a line a later lane dirties was
  // not written by an earlier lane (that lane would have dirtied it), and
  // _after only updates L0/GL1 lines with each lane's bytes in lane order.
  const rl_sim_cache_access_t where = {context->wgp,
                                       wg->dispatch->dispatch_index, access};
  bool cached = rl_sim_cache_enabled(&device->cache);
  if (cached) {
    rl_sim_cache_store_lanes_before(device, &where, address, lanes, size);
  }
  if (!rl_sim_memory_scatter(&device->memory, lo, hi, address, lanes, size,
                             data)) {
    // Freed since the translation above (a host race): lane by lane.
    return RL_OK;
  }
  *out_done = true;
  if (cached) {
    rl_sim_cache_store_lanes_after(device, &where, address, lanes, data, size);
  }
  if (context->wg_writes) {
    RL_RETURN_IF_ERROR(
        rl_sim_wg_lanes_record(context->wg_writes, address, lanes, size));
    if (lanes) {
      RL_RETURN_IF_ERROR(rl_sim_wg_fault_extra_byte(
          context, address[31 - __builtin_clz(lanes)] + size));
    }
  }
  if (device->options.no_access_record) return RL_OK;
  return rl_sim_range_set_log_lanes(context->writes, address, lanes, size);
}

rl_status_t rl_sim_wg_load(rl_sim_wg_t* wg, uint64_t address, void* out_data,
                           uint32_t size) {
  return rl_sim_wg_load_with(wg, address, out_data, size, 0);
}

rl_status_t rl_sim_wg_store(rl_sim_wg_t* wg, uint64_t address, const void* data,
                            uint32_t size) {
  return rl_sim_wg_store_with(wg, address, data, size, 0);
}

void rl_sim_wg_cache_invalidate(rl_sim_wg_t* wg, uint32_t caches) {
  rl_sim_wg_context_t* context = wg->context;
  uint32_t actions = 0;
  if (caches & RL_SIM_WG_INV_GL0) actions |= RL_SIM_CACHE_INV_GLV;
  if (caches & RL_SIM_WG_INV_SCALAR) actions |= RL_SIM_CACHE_INV_GLK;
  if (caches & RL_SIM_WG_INV_GL1) actions |= RL_SIM_CACHE_INV_GL1;
  rl_sim_cache_apply_local(&context->device->cache, context->wgp, actions);
}

static rl_status_t rl_sim_wg_kernarg(rl_sim_wg_t* wg, uint32_t offset,
                                     void* out_value, uint32_t size) {
  const rl_sim_dispatch_t* d = wg->dispatch;
  if ((uint64_t)offset + size > d->kernel->kernarg_size) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "kernel %s: kernarg read of %u bytes at offset %u is "
                     "beyond its %u-byte kernarg segment",
                     d->kernel->name, size, offset, d->kernel->kernarg_size);
  }
  return rl_sim_wg_load_with(wg, d->kernarg_address + offset, out_value, size,
                             RL_SIM_ACCESS_SCALAR);
}

rl_status_t rl_sim_wg_kernarg_u32(rl_sim_wg_t* wg, uint32_t offset,
                                  uint32_t* out_value) {
  *out_value = 0;
  return rl_sim_wg_kernarg(wg, offset, out_value, sizeof(*out_value));
}

rl_status_t rl_sim_wg_kernarg_u64(rl_sim_wg_t* wg, uint32_t offset,
                                  uint64_t* out_value) {
  *out_value = 0;
  return rl_sim_wg_kernarg(wg, offset, out_value, sizeof(*out_value));
}

rl_status_t rl_sim_wg_kernarg_f32(rl_sim_wg_t* wg, uint32_t offset,
                                  float* out_value) {
  *out_value = 0.0f;
  return rl_sim_wg_kernarg(wg, offset, out_value, sizeof(*out_value));
}

bool rl_sim_wg_stopping(const rl_sim_wg_t* wg) {
  const rl_sim_wg_context_t* context = wg->context;
  return context->queue != NULL &&
         atomic_load_explicit(&context->queue->stop, memory_order_acquire);
}

rl_status_t rl_sim_wg_stopped(const rl_sim_wg_t* wg) {
  return RL_STATUS(RL_STATUS_QUARANTINED,
                   "kernel %s dispatch %" PRIu64 " work-group (%u,%u,%u) "
                   "stopped unfinished: its queue is stopping",
                   wg->dispatch->kernel->name, wg->dispatch->dispatch_index,
                   wg->group_id[0], wg->group_id[1], wg->group_id[2]);
}

bool rl_sim_wg_was_stopped(rl_sim_queue_t* queue, rl_status_t status) {
  if (!rl_status_is(status, RL_STATUS_QUARANTINED) ||
      !atomic_load_explicit(&queue->stop, memory_order_acquire)) {
    return false;
  }
  rl_status_free(status);
  return true;
}

void* rl_sim_wg_lds(rl_sim_wg_t* wg) {
  rl_sim_wg_context_t* context = wg->context;
  return wg->dispatch->group_segment_size > 0 ? context->lds : NULL;
}

bool rl_sim_wg_cache_enabled(const rl_sim_wg_t* wg) {
  const rl_sim_wg_context_t* context = wg->context;
  return rl_sim_cache_enabled(&context->device->cache);
}
