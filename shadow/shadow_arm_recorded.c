// The recorded arm (shadow/shadow.h): every window re-issues the captured
// launches through a fresh recording funnel (redline/funnel.h) whose device
// is the arm's live state, so each launch goes through rl_funnel_launch's
// typed path: arguments assembled at metadata offsets, hidden arguments
// filled by the funnel, pointers typed through registered buffers,
// bindings checked. The re-assembled kernarg must equal rl_launch_bind's
// bytes exactly.
//
// The funnel's device here (rl_shadow_recorded_device_*) wraps the direct
// state's device-funnel adapter:
//   load_code_object  returns the handle loaded at prepare (the funnel asks
//                     for the capture's code objects in capture order);
//   allocate          returns the arm's existing buffer of the next index
//                     (the funnel registers the capture's buffers in order;
//                     a size that differs is refused; a code object
//                     variable is registered with rl_funnel_variable at
//                     the arm's address of it instead);
//   write             accepted and ignored: the only writes a funnel makes
//                     here are the zero-fills of rl_funnel_buffer, and the
//                     buffers hold the arm's live state, which must persist
//                     from window to window;
//   read              the device's (the funnel snapshots initial contents);
//   launch            the adapter's: one packet, doorbell, wait; before
//                     it, the bytes handed to the device are checked
//                     against the launch as the program issued it when
//                     the capture kept that (shadow/issued_check.h: an
//                     oracle apart from the funnel, which assembled both
//                     the capture and these bytes).
#include <stdlib.h>
#include <string.h>

#include "capture/bind/launch_bind.h"
#include "shadow/shadow_arm.h"
#include "shadow/issued_check.h"
#include "shadow/shadow_direct.h"

typedef struct rl_shadow_recorded_s {
  rl_shadow_arm_t arm;  // first: the arm is the object
  rl_shadow_direct_t direct;
  uint32_t next_code_object;  // per window: the funnel's next load
  uint32_t next_buffer;       // per window: the funnel's next allocation
  uint8_t* bound;             // rl_launch_bind's kernarg for comparison
  rl_funnel_arg_t* args;      // one per metadata argument (capacity)
  uint32_t* kernels;          // capture kernel -> funnel kernel index
  const int64_t* values;      // the window's parameter values
  uint64_t issued_checked;    // dispatches checked against as-issued
} rl_shadow_recorded_t;

//===----------------------------------------------------------------------===//
// The funnel's device
//===----------------------------------------------------------------------===//

static rl_status_t rl_shadow_recorded_device_load(void* self, const void* bytes,
                                                  size_t size,
                                                  uint64_t* out_handle) {
  rl_shadow_recorded_t* recorded = self;
  (void)bytes;
  (void)size;
  uint32_t index = recorded->next_code_object++;
  if (index >= recorded->arm.capture->code_object_count) {
    return RL_STATUS(RL_STATUS_INTERNAL, "code object %u of %u", index,
                     recorded->arm.capture->code_object_count);
  }
  *out_handle = recorded->direct.handles[index];
  return RL_OK;
}

static rl_status_t rl_shadow_recorded_device_allocate(void* self,
                                                      uint64_t size,
                                                      uint64_t alignment,
                                                      uint64_t* out_address) {
  rl_shadow_recorded_t* recorded = self;
  (void)alignment;
  uint32_t index = recorded->next_buffer++;
  const rl_capture_t* capture = recorded->arm.capture;
  if (index >= capture->buffer_count ||
      capture->buffers[index].size != size) {
    return RL_STATUS(RL_STATUS_INTERNAL,
                     "allocation %u of %llu bytes is not a capture buffer",
                     index, (unsigned long long)size);
  }
  *out_address = recorded->direct.addresses[index];
  return RL_OK;
}

static rl_status_t rl_shadow_recorded_device_write(void* self,
                                                   uint64_t address,
                                                   const void* data,
                                                   uint64_t size) {
  (void)self;
  (void)address;
  (void)data;
  (void)size;
  return RL_OK;
}

static rl_status_t rl_shadow_recorded_device_read(void* self, uint64_t address,
                                                  void* data, uint64_t size) {
  rl_shadow_recorded_t* recorded = self;
  rl_device_t* device = recorded->direct.device;
  return device->vtable->read(device, address, data, size);
}

static rl_status_t rl_shadow_recorded_device_launch(
    void* self, const rl_funnel_dispatch_t* dispatch) {
  rl_shadow_recorded_t* recorded = self;
  rl_funnel_device_t* adapter = &recorded->direct.adapter;
  bool checked = false;
  RL_RETURN_IF_ERROR(rl_issued_check(
      recorded->arm.capture, dispatch->launch_index,
      recorded->direct.addresses, recorded->values, dispatch->kernarg,
      dispatch->kernarg_size, &checked));
  if (checked) ++recorded->issued_checked;
  RL_RETURN_IF_ERROR(adapter->launch(adapter->self, dispatch));
  ++recorded->direct.launches_issued;
  return RL_OK;
}

static void rl_shadow_recorded_device_destroy(void* self) { (void)self; }

//===----------------------------------------------------------------------===//
// Typed arguments from the capture
//===----------------------------------------------------------------------===//

static const rl_pointer_slot_t* rl_shadow_recorded_slot(
    const rl_capture_launch_t* launch, uint32_t offset) {
  for (uint32_t s = 0; s < launch->slot_count; ++s) {
    if (launch->slots[s].kernarg_offset == offset) return &launch->slots[s];
  }
  return NULL;
}

static const rl_scalar_binding_t* rl_shadow_recorded_binding(
    const rl_capture_launch_t* launch, rl_binding_target_t target,
    uint32_t offset) {
  for (uint32_t b = 0; b < launch->binding_count; ++b) {
    const rl_scalar_binding_t* binding = &launch->bindings[b];
    if (binding->target == target && binding->offset == offset) return binding;
  }
  return NULL;
}

// A pointer argument: the rebased value, with the slot's declaration when
// the capture had one (extent relative to the pointer, whole buffer as 0).
static rl_funnel_arg_t rl_shadow_recorded_pointer(
    const rl_capture_t* capture, const rl_pointer_slot_t* slot,
    uint64_t value) {
  if (!slot || slot->source != RL_EFFECT_SOURCE_DECLARED) {
    return rl_funnel_arg_pointer(value);
  }
  uint64_t buffer_size = capture->buffers[slot->buffer].size;
  bool whole = slot->extent_offset == 0 && slot->extent_size == buffer_size;
  if (whole || slot->extent_offset < slot->offset) {
    return rl_funnel_arg_pointer_declared(value, slot->effect, 0, 0);
  }
  return rl_funnel_arg_pointer_declared(value, slot->effect,
                                        slot->extent_offset - slot->offset,
                                        slot->extent_size);
}

// A value argument: bound u32/u64 when the capture binds it, else bytes.
static rl_funnel_arg_t rl_shadow_recorded_value(
    const rl_capture_launch_t* launch, const rl_kernel_arg_t* meta,
    const uint8_t* bound) {
  const rl_scalar_binding_t* binding =
      rl_shadow_recorded_binding(launch, RL_BINDING_KERNARG, meta->offset);
  if (binding && binding->size == 4 && meta->size == 4) {
    return rl_funnel_arg_u32_bound(
        (uint32_t)rl_launch_load_le(bound + meta->offset, 4), binding->expr);
  }
  if (binding && binding->size == 8 && meta->size == 8) {
    rl_funnel_arg_t arg =
        rl_funnel_arg_u64(rl_launch_load_le(bound + meta->offset, 8));
    arg.bound = true;
    arg.binding = binding->expr;
    return arg;
  }
  return rl_funnel_arg_bytes(bound + meta->offset, meta->size);
}

// Fills recorded->args with the explicit arguments of launch |l| from the
// bound kernarg; *|out_count| is how many.
static void rl_shadow_recorded_args(rl_shadow_recorded_t* recorded,
                                    uint32_t l, uint32_t* out_count) {
  const rl_capture_t* capture = recorded->arm.capture;
  const rl_capture_launch_t* launch = &capture->launches[l];
  const rl_code_object_kernel_t* info = capture->kernels[launch->kernel].info;
  uint32_t count = 0;
  for (uint32_t a = 0; a < info->arg_count; ++a) {
    const rl_kernel_arg_t* meta = &info->args[a];
    if (meta->kind == RL_ARG_KIND_HIDDEN) continue;
    if (meta->kind == RL_ARG_KIND_GLOBAL_BUFFER && meta->size == 8) {
      recorded->args[count++] = rl_shadow_recorded_pointer(
          capture, rl_shadow_recorded_slot(launch, meta->offset),
          rl_launch_load_le(recorded->bound + meta->offset, 8));
    } else {
      recorded->args[count++] =
          rl_shadow_recorded_value(launch, meta, recorded->bound);
    }
  }
  *out_count = count;
}

//===----------------------------------------------------------------------===//
// A window
//===----------------------------------------------------------------------===//

// Declares the capture's code objects, kernels, buffers and parameters (at
// |values|) on a fresh |funnel|.
static rl_status_t rl_shadow_recorded_declare(rl_shadow_recorded_t* recorded,
                                              rl_funnel_t* funnel,
                                              const int64_t* values) {
  const rl_capture_t* capture = recorded->arm.capture;
  for (uint32_t c = 0; c < capture->code_object_count; ++c) {
    uint32_t index = 0;
    RL_RETURN_IF_ERROR(rl_funnel_load_code_object(
        funnel, capture->code_objects[c].bytes, capture->code_objects[c].size,
        &index));
  }
  for (uint32_t k = 0; k < capture->kernel_count; ++k) {
    RL_RETURN_IF_ERROR(rl_funnel_kernel(funnel, capture->kernels[k].code_object,
                                        capture->kernels[k].name,
                                        &recorded->kernels[k]));
  }
  for (uint32_t b = 0; b < capture->buffer_count; ++b) {
    const rl_capture_buffer_t* buffer = &capture->buffers[b];
    uint32_t index = 0;
    uint64_t address = 0;
    if (rl_capture_buffer_is_variable(buffer)) {
      // Not an allocation: the variable where this arm's load holds it.
      recorded->next_buffer++;
      RL_RETURN_IF_ERROR(rl_funnel_variable(
          funnel, buffer->name, buffer->code_object, buffer->symbol,
          recorded->direct.addresses[b], buffer->role, &index));
      continue;
    }
    RL_RETURN_IF_ERROR(rl_funnel_buffer(funnel, buffer->name, buffer->size,
                                        buffer->alignment, buffer->role,
                                        buffer->keep_address, &index,
                                        &address));
  }
  for (uint32_t p = 0; p < capture->param_count; ++p) {
    const rl_capture_param_t* param = &capture->params[p];
    uint32_t index = 0;
    RL_RETURN_IF_ERROR(rl_funnel_param(funnel, param->name, param->min,
                                       param->max, values[p], &index));
  }
  return RL_OK;
}

// The funnel's kernarg of its launch |index| must equal the bound bytes.
static rl_status_t rl_shadow_recorded_check(const rl_shadow_recorded_t* recorded,
                                            const rl_funnel_t* funnel,
                                            uint32_t l, uint32_t index) {
  const rl_capture_t* capture = recorded->arm.capture;
  const rl_capture_launch_t* launch = &capture->launches[l];
  const rl_capture_launch_t* again = &rl_funnel_capture(funnel)->launches[index];
  for (uint32_t i = 0; i < launch->kernarg_size; ++i) {
    if (again->kernarg_size != launch->kernarg_size ||
        again->kernarg[i] != recorded->bound[i]) {
      return RL_STATUS(RL_STATUS_MISMATCH,
                       "launch %u (%s): the funnel assembled kernarg byte %u "
                       "as 0x%02x, the bound capture launch has 0x%02x",
                       l, capture->kernels[launch->kernel].name, i,
                       again->kernarg_size == launch->kernarg_size
                           ? again->kernarg[i] : 0u,
                       recorded->bound[i]);
    }
  }
  return RL_OK;
}

static rl_status_t rl_shadow_recorded_launch(rl_shadow_recorded_t* recorded,
                                             rl_funnel_t* funnel, uint32_t l,
                                             const int64_t* values) {
  const rl_capture_t* capture = recorded->arm.capture;
  const rl_capture_launch_t* launch = &capture->launches[l];
  uint32_t grid[3];
  RL_RETURN_IF_ERROR(rl_launch_bind(capture, l, values,
                                    recorded->direct.addresses,
                                    recorded->bound, grid));
  rl_funnel_launch_options_t options = {0};
  for (uint32_t axis = 0; axis < 3; ++axis) {
    const rl_scalar_binding_t* binding =
        rl_shadow_recorded_binding(launch, RL_BINDING_GRID, axis);
    if (!binding) continue;
    options.grid_bound[axis] = true;
    options.grid_binding[axis] = binding->expr;
  }
  uint32_t arg_count = 0;
  rl_shadow_recorded_args(recorded, l, &arg_count);
  uint32_t index = 0;
  RL_RETURN_IF_ERROR(rl_funnel_launch(
      funnel, recorded->kernels[launch->kernel], grid, launch->block,
      launch->dynamic_lds, recorded->args, arg_count, &options, &index));
  return rl_shadow_recorded_check(recorded, funnel, l, index);
}

static rl_status_t rl_shadow_recorded_step(rl_shadow_arm_t* arm,
                                           const int64_t* values) {
  rl_shadow_recorded_t* recorded = (rl_shadow_recorded_t*)arm;
  recorded->next_code_object = 0;
  recorded->next_buffer = 0;
  recorded->values = values;
  const rl_funnel_device_t device = {
      .self = recorded,
      .load_code_object = rl_shadow_recorded_device_load,
      .allocate = rl_shadow_recorded_device_allocate,
      .write = rl_shadow_recorded_device_write,
      .read = rl_shadow_recorded_device_read,
      .launch = rl_shadow_recorded_device_launch,
      .destroy = rl_shadow_recorded_device_destroy,
  };
  rl_funnel_t* funnel = NULL;
  RL_RETURN_IF_ERROR(rl_funnel_create(arm->capture->workload, &device, &funnel));
  rl_status_t status = rl_shadow_recorded_declare(recorded, funnel, values);
  for (uint32_t l = 0; !status && l < arm->capture->launch_count; ++l) {
    status = rl_shadow_recorded_launch(recorded, funnel, l, values);
  }
  rl_funnel_destroy(funnel);
  return status;
}

//===----------------------------------------------------------------------===//
// Arm
//===----------------------------------------------------------------------===//

static rl_status_t rl_shadow_recorded_read_region(rl_shadow_arm_t* arm,
                                                  uint32_t region,
                                                  void* out_data,
                                                  uint64_t size) {
  rl_shadow_recorded_t* recorded = (rl_shadow_recorded_t*)arm;
  return rl_shadow_direct_read_region(&recorded->direct, region, out_data,
                                      size);
}

static rl_status_t rl_shadow_recorded_buffer_address(
    const rl_shadow_arm_t* arm, uint32_t buffer, uint64_t* out_address) {
  const rl_shadow_recorded_t* recorded = (const rl_shadow_recorded_t*)arm;
  *out_address = recorded->direct.addresses[buffer];
  return RL_OK;
}

static void rl_shadow_recorded_proof(const rl_shadow_arm_t* arm,
                                     rl_shadow_proof_t* out_proof) {
  const rl_shadow_recorded_t* recorded = (const rl_shadow_recorded_t*)arm;
  rl_shadow_direct_proof(&recorded->direct, arm->kind, arm->steps, out_proof);
  out_proof->issued_checked = recorded->issued_checked;
}

static bool rl_shadow_recorded_last_host_ns(const rl_shadow_arm_t* arm,
                                            uint64_t* out_ns) {
  (void)arm;
  *out_ns = 0;
  return false;
}

static void rl_shadow_recorded_destroy(rl_shadow_arm_t* arm) {
  rl_shadow_recorded_t* recorded = (rl_shadow_recorded_t*)arm;
  rl_shadow_direct_deinit(&recorded->direct);
  free(recorded->bound);
  free(recorded->args);
  free(recorded->kernels);
  free(recorded);
}

static const rl_shadow_arm_vtable_t rl_shadow_recorded_vtable = {
    .step = rl_shadow_recorded_step,
    .read_region = rl_shadow_recorded_read_region,
    .buffer_address = rl_shadow_recorded_buffer_address,
    .proof = rl_shadow_recorded_proof,
    .last_host_ns = rl_shadow_recorded_last_host_ns,
    .destroy = rl_shadow_recorded_destroy,
};

static rl_status_t rl_shadow_recorded_setup(rl_shadow_recorded_t* recorded) {
  const rl_capture_t* capture = recorded->arm.capture;
  uint32_t max_args = 0;
  for (uint32_t k = 0; k < capture->kernel_count; ++k) {
    uint32_t count = capture->kernels[k].info->arg_count;
    if (count > max_args) max_args = count;
  }
  RL_RETURN_IF_ERROR(rl_shadow_direct_init(&recorded->direct,
                                           recorded->arm.device, capture,
                                           recorded->arm.limits.wait_timeout_ns));
  recorded->bound = calloc(recorded->direct.kernarg_capacity + 1u, 1);
  recorded->args = calloc(max_args + 1u, sizeof(rl_funnel_arg_t));
  recorded->kernels = calloc(capture->kernel_count + 1u, sizeof(uint32_t));
  if (!recorded->bound || !recorded->args || !recorded->kernels) {
    return rl_status_out_of_memory();
  }
  return RL_OK;
}

rl_status_t rl_shadow_arm_recorded_create(rl_shadow_arm_t* common,
                                          rl_shadow_arm_t** out_arm) {
  rl_shadow_recorded_t* recorded = calloc(1, sizeof(*recorded));
  if (!recorded) return rl_status_out_of_memory();
  recorded->arm = *common;
  recorded->arm.vtable = &rl_shadow_recorded_vtable;
  rl_status_t status = rl_shadow_recorded_setup(recorded);
  if (status) {
    rl_shadow_recorded_destroy(&recorded->arm);
    return status;
  }
  *out_arm = &recorded->arm;
  return RL_OK;
}
