// rl_funnel_launch (redline/funnel.h): assembles the kernarg at the metadata
// offsets, types every pointer through the registered buffers, checks every
// binding, records the launch and only then runs it on the device.
#include <stdlib.h>
#include <string.h>

#include "capture/model/capture_internal.h"
#include "capture/recording/funnel_internal.h"
#include "base/test_fault.h"

// One launch being assembled. The arrays are owned until recorded (the
// capture deep-copies them) and freed either way.
typedef struct rl_funnel_build_s {
  rl_funnel_t* funnel;
  uint32_t index;  // the launch index it will get
  const rl_code_object_kernel_t* info;
  rl_capture_launch_t launch;
} rl_funnel_build_t;

// Hidden arguments the funnel fills with a non-zero value, as HIP does for
// a grid of whole work-groups (redline/funnel.h lists the rules).
typedef enum rl_funnel_hidden_e {
  RL_FUNNEL_HIDDEN_BLOCK_COUNT,
  RL_FUNNEL_HIDDEN_GROUP_SIZE,
  RL_FUNNEL_HIDDEN_GRID_DIMS,
  RL_FUNNEL_HIDDEN_DYNAMIC_LDS,
} rl_funnel_hidden_t;

static const struct {
  const char* value_kind;
  rl_funnel_hidden_t hidden;
  uint32_t axis;
} rl_funnel_hidden_table[] = {
    {"hidden_block_count_x", RL_FUNNEL_HIDDEN_BLOCK_COUNT, 0},
    {"hidden_block_count_y", RL_FUNNEL_HIDDEN_BLOCK_COUNT, 1},
    {"hidden_block_count_z", RL_FUNNEL_HIDDEN_BLOCK_COUNT, 2},
    {"hidden_group_size_x", RL_FUNNEL_HIDDEN_GROUP_SIZE, 0},
    {"hidden_group_size_y", RL_FUNNEL_HIDDEN_GROUP_SIZE, 1},
    {"hidden_group_size_z", RL_FUNNEL_HIDDEN_GROUP_SIZE, 2},
    {"hidden_grid_dims", RL_FUNNEL_HIDDEN_GRID_DIMS, 0},
    {"hidden_dynamic_lds_size", RL_FUNNEL_HIDDEN_DYNAMIC_LDS, 0},
};

// The value of hidden argument |arg|; zero for every kind not in the table
// (remainders, global offsets, and runtime pointers redline does not
// provide).
static uint64_t rl_funnel_hidden_value(const rl_funnel_build_t* build,
                                       const rl_kernel_arg_t* arg) {
  const size_t count =
      sizeof(rl_funnel_hidden_table) / sizeof(rl_funnel_hidden_table[0]);
  for (size_t i = 0; i < count; ++i) {
    if (strcmp(arg->value_kind, rl_funnel_hidden_table[i].value_kind) != 0) {
      continue;
    }
    uint32_t axis = rl_funnel_hidden_table[i].axis;
    switch (rl_funnel_hidden_table[i].hidden) {
      case RL_FUNNEL_HIDDEN_BLOCK_COUNT: return build->launch.grid[axis];
      case RL_FUNNEL_HIDDEN_GROUP_SIZE: return build->launch.block[axis];
      case RL_FUNNEL_HIDDEN_GRID_DIMS: return 3;  // HIP dispatches are 3-D
      case RL_FUNNEL_HIDDEN_DYNAMIC_LDS: return build->launch.dynamic_lds;
    }
  }
  return 0;
}

static uint32_t rl_funnel_arg_size(const rl_funnel_arg_t* arg) {
  static const uint32_t sizes[RL_FUNNEL_ARG_TYPE_COUNT_] = {8, 4, 4, 4,
                                                            8, 8, 8, 0};
  if (arg->type == RL_FUNNEL_ARG_BYTES) return arg->value.bytes.size;
  return (unsigned)arg->type < RL_FUNNEL_ARG_TYPE_COUNT_ ? sizes[arg->type]
                                                         : 0;
}

// The integer value of a U32/I32/U64/I64 argument; false for other types.
static bool rl_funnel_arg_integer(const rl_funnel_arg_t* arg,
                                  int64_t* out_value) {
  switch (arg->type) {
    case RL_FUNNEL_ARG_U32: *out_value = arg->value.u32; return true;
    case RL_FUNNEL_ARG_I32: *out_value = arg->value.i32; return true;
    case RL_FUNNEL_ARG_U64: *out_value = (int64_t)arg->value.u64; return true;
    case RL_FUNNEL_ARG_I64: *out_value = arg->value.i64; return true;
    default: return false;
  }
}

static int64_t* rl_funnel_param_values(const rl_capture_t* capture) {
  int64_t* values = calloc(capture->param_count + 1, sizeof(int64_t));
  for (uint32_t i = 0; values && i < capture->param_count; ++i) {
    values[i] = capture->params[i].capture_value;
  }
  return values;
}

// Appends a binding after checking that |expr| at the current parameter
// values equals |recorded|.
static rl_status_t rl_funnel_add_binding(rl_funnel_build_t* build,
                                         rl_binding_target_t target,
                                         uint32_t offset, uint32_t size,
                                         const rl_expr_t* expr,
                                         int64_t recorded) {
  const rl_capture_t* capture = build->funnel->capture;
  int64_t* values = rl_funnel_param_values(capture);
  if (!values) return rl_status_out_of_memory();
  int64_t value = 0;
  rl_status_t status =
      rl_expr_evaluate(expr, values, capture->param_count, &value);
  free(values);
  RL_RETURN_IF_ERROR(status);
  if (value != recorded) {
    char text[RL_CAPTURE_NAME_MAX + 64];
    rl_expr_format(capture, expr, text, sizeof(text));
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "value %lld differs from its binding %s = %lld",
                     (long long)recorded, text, (long long)value);
  }
  rl_scalar_binding_t* binding =
      &build->launch.bindings[build->launch.binding_count++];
  *binding = (rl_scalar_binding_t){target, offset, size, *expr};
  return RL_OK;
}

// Finds the registered buffer holding |address|.
static bool rl_funnel_find_buffer_at(const rl_capture_t* capture,
                                     uint64_t address, uint32_t* out_buffer) {
  for (uint32_t i = 0; i < capture->buffer_count; ++i) {
    const rl_capture_buffer_t* buffer = &capture->buffers[i];
    if (address >= buffer->capture_address &&
        address - buffer->capture_address < buffer->size) {
      *out_buffer = i;
      return true;
    }
  }
  return false;
}

// Derives the effect and extent of a pointer into |buffer| at |offset|:
// declaration, then metadata, then unknown (read-write, whole buffer).
static rl_status_t rl_funnel_slot_effect(const rl_capture_buffer_t* buffer,
                                         const rl_kernel_arg_t* meta,
                                         const rl_funnel_arg_t* arg,
                                         rl_pointer_slot_t* slot) {
  slot->extent_offset = 0;
  slot->extent_size = buffer->size;
  if (arg->declared) {
    if ((unsigned)arg->effect > RL_EFFECT_READ_WRITE) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "declared effect %u",
                       (unsigned)arg->effect);
    }
    slot->effect = arg->effect;
    slot->source = RL_EFFECT_SOURCE_DECLARED;
    if (arg->extent_size == 0) return RL_OK;
    uint64_t room = buffer->size - slot->offset;
    if (arg->extent_offset > room || arg->extent_size > room - arg->extent_offset) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                       "declared extent [+%llu, +%llu) from the pointer "
                       "leaves buffer %s (%llu bytes left after the pointer)",
                       (unsigned long long)arg->extent_offset,
                       (unsigned long long)arg->extent_size, buffer->name,
                       (unsigned long long)room);
    }
    slot->extent_offset = slot->offset + arg->extent_offset;
    slot->extent_size = arg->extent_size;
  } else if (meta->effect_known) {
    slot->effect = meta->effect;
    slot->source = RL_EFFECT_SOURCE_METADATA;
  } else {
    slot->effect = RL_EFFECT_READ_WRITE;
    slot->source = RL_EFFECT_SOURCE_UNKNOWN;
  }
  return RL_OK;
}

static rl_status_t rl_funnel_place_pointer(rl_funnel_build_t* build,
                                           const rl_kernel_arg_t* meta,
                                           const rl_funnel_arg_t* arg) {
  if (meta->kind != RL_ARG_KIND_GLOBAL_BUFFER || meta->size != 8) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "a pointer was passed for a %s argument of %u bytes",
                     meta->value_kind, meta->size);
  }
  uint64_t address = arg->value.pointer;
  rl_store_le(build->launch.kernarg + meta->offset, 8, address);
  if (address == 0) return RL_OK;  // null: no slot, nothing to rebase
  const rl_capture_t* capture = build->funnel->capture;
  rl_pointer_slot_t slot = {.kernarg_offset = meta->offset};
  if (!rl_funnel_find_buffer_at(capture, address, &slot.buffer)) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "pointer 0x%llx is in no registered buffer",
                     (unsigned long long)address);
  }
  const rl_capture_buffer_t* buffer = &capture->buffers[slot.buffer];
  slot.offset = address - buffer->capture_address;
  RL_RETURN_IF_ERROR(rl_funnel_slot_effect(buffer, meta, arg, &slot));
  build->launch.slots[build->launch.slot_count++] = slot;
  return RL_OK;
}

// Records every 8-byte-aligned word of the by-value argument |meta| (its
// bytes already in the kernarg) that lies inside a registered buffer as a
// pointer slot inside the argument (redline/capture.h, "embedded" slots)
// and pins that buffer to its capture address: a pointer member of a struct
// (rocPRIM's zip_iterator) is then rebased by every route like any pointer
// and its accesses get an effect (UNKNOWN: the whole buffer read-write,
// until observed). Whether the word is a pointer cannot be proven; because
// the buffer keeps its address, patching the slot writes back the very same
// value, so an integer that only equals an address stays that integer.
// Controls (base/test_fault.h): REDLINE_TEST_FAULT=struct-pin-off records
// neither (the replay moves the buffer under the struct's pointer);
// struct-slot-off pins the buffer but records no slot (the launch's accesses
// there are then covered by no effect).
static rl_status_t rl_funnel_embed_pointers(rl_funnel_build_t* build,
                                            const rl_kernel_arg_t* meta) {
  if (meta->kind != RL_ARG_KIND_BY_VALUE || meta->size < 8) return RL_OK;
  if (rl_test_fault("struct-pin-off", 0)) return RL_OK;
  rl_capture_t* capture = build->funnel->capture;
  for (uint32_t at = (8 - meta->offset % 8) % 8; at + 8 <= meta->size;
       at += 8) {
    uint32_t kernarg_offset = meta->offset + at;
    uint64_t word = rl_load_le(build->launch.kernarg + kernarg_offset, 8);
    rl_pointer_slot_t slot = {.kernarg_offset = kernarg_offset};
    if (word == 0 || !rl_funnel_find_buffer_at(capture, word, &slot.buffer)) {
      continue;
    }
    rl_capture_buffer_t* buffer = &capture->buffers[slot.buffer];
    slot.offset = word - buffer->capture_address;
    slot.effect = RL_EFFECT_READ_WRITE;
    slot.source = RL_EFFECT_SOURCE_UNKNOWN;
    slot.extent_size = buffer->size;
    buffer->keep_address = true;
    if (rl_test_fault("struct-slot-off", 0)) continue;
    build->launch.slots[build->launch.slot_count++] = slot;
  }
  return RL_OK;
}

static rl_status_t rl_funnel_place_value(rl_funnel_build_t* build,
                                         const rl_kernel_arg_t* meta,
                                         const rl_funnel_arg_t* arg) {
  if (meta->kind == RL_ARG_KIND_GLOBAL_BUFFER) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "a global_buffer argument needs a typed pointer");
  }
  if (meta->kind == RL_ARG_KIND_OTHER) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED, "value kind %s is not supported",
                     meta->value_kind);
  }
  uint32_t size = rl_funnel_arg_size(arg);
  if (size != meta->size ||
      (arg->type == RL_FUNNEL_ARG_BYTES && !arg->value.bytes.data)) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "argument of type %u is %u bytes, the metadata says %u",
                     (unsigned)arg->type, size, meta->size);
  }
  const void* source = arg->type == RL_FUNNEL_ARG_BYTES
                           ? arg->value.bytes.data
                           : (const void*)&arg->value;
  memcpy(build->launch.kernarg + meta->offset, source, size);
  if (!arg->bound) return rl_funnel_embed_pointers(build, meta);
  int64_t value = 0;
  if (!rl_funnel_arg_integer(arg, &value)) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "only u32/i32/u64/i64 arguments can carry a binding");
  }
  return rl_funnel_add_binding(build, RL_BINDING_KERNARG, meta->offset, size,
                               &arg->binding, value);
}

static rl_status_t rl_funnel_place_arg(rl_funnel_build_t* build,
                                       const rl_kernel_arg_t* meta,
                                       const rl_funnel_arg_t* arg) {
  if (arg->type == RL_FUNNEL_ARG_POINTER) {
    return rl_funnel_place_pointer(build, meta, arg);
  }
  if ((unsigned)arg->type >= RL_FUNNEL_ARG_TYPE_COUNT_) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "argument type %u",
                     (unsigned)arg->type);
  }
  return rl_funnel_place_value(build, meta, arg);
}

// Writes every metadata argument into the zeroed kernarg: explicit ones
// from |args| in order, hidden ones from the launch geometry.
static rl_status_t rl_funnel_assemble(rl_funnel_build_t* build,
                                      const rl_funnel_arg_t* args,
                                      uint32_t arg_count) {
  const rl_code_object_kernel_t* info = build->info;
  uint32_t explicit_index = 0;
  for (uint32_t a = 0; a < info->arg_count; ++a) {
    const rl_kernel_arg_t* meta = &info->args[a];
    if (meta->offset > info->kernarg_size ||
        meta->size > info->kernarg_size - meta->offset) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "metadata argument %u [%u, +%u) is outside the %u "
                       "kernarg bytes", a, meta->offset, meta->size,
                       info->kernarg_size);
    }
    if (meta->kind == RL_ARG_KIND_HIDDEN) {
      uint32_t size = meta->size < 8 ? meta->size : 8;
      rl_store_le(build->launch.kernarg + meta->offset, size,
                  rl_funnel_hidden_value(build, meta));
      continue;
    }
    uint32_t index = explicit_index++;
    if (index >= arg_count) continue;  // the count is checked after the loop
    rl_status_t status = rl_funnel_place_arg(build, meta, &args[index]);
    if (status && meta->name) {
      return rl_status_annotate(status, "argument %u (%s)", index, meta->name);
    }
    RL_RETURN_IF_ERROR(rl_status_annotate(status, "argument %u", index));
  }
  if (explicit_index != arg_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "%u arguments given, the kernel has %u explicit ones",
                     arg_count, explicit_index);
  }
  return RL_OK;
}

// The hidden_block_count_<axis> argument of the kernel, or NULL.
static const rl_kernel_arg_t* rl_funnel_block_count_arg(
    const rl_code_object_kernel_t* info, uint32_t axis) {
  for (uint32_t a = 0; a < info->arg_count; ++a) {
    const rl_kernel_arg_t* arg = &info->args[a];
    if (arg->kind == RL_ARG_KIND_HIDDEN && arg->size == 4 &&
        strncmp(arg->value_kind, "hidden_block_count_", 19) == 0 &&
        arg->value_kind[19] == "xyz"[axis] && arg->value_kind[20] == '\0') {
      return arg;
    }
  }
  return NULL;
}

// Binds the grid axes the caller bound. A bound axis also binds the
// kernel's hidden_block_count_<axis> argument to the same expression, so a
// kernel reading gridDim sees the replayed grid, not the recorded one.
static rl_status_t rl_funnel_bind_grid(
    rl_funnel_build_t* build, const rl_funnel_launch_options_t* options) {
  for (uint32_t axis = 0; options && axis < 3; ++axis) {
    if (!options->grid_bound[axis]) continue;
    const rl_expr_t* expr = &options->grid_binding[axis];
    RL_RETURN_IF_ERROR(rl_status_annotate(
        rl_funnel_add_binding(build, RL_BINDING_GRID, axis, 4, expr,
                              build->launch.grid[axis]),
        "grid axis %u", axis));
    const rl_kernel_arg_t* hidden = rl_funnel_block_count_arg(build->info, axis);
    if (!hidden) continue;
    RL_RETURN_IF_ERROR(rl_status_annotate(
        rl_funnel_add_binding(build, RL_BINDING_KERNARG, hidden->offset, 4,
                              expr, build->launch.grid[axis]),
        "%s", hidden->value_kind));
  }
  return RL_OK;
}

// Allocates the arrays of |build|: a zeroed kernarg, room for every slot
// and a binding per argument plus the three grid axes.
static rl_status_t rl_funnel_build_init(rl_funnel_build_t* build) {
  const rl_code_object_kernel_t* info = build->info;
  build->launch.kernarg_size = info->kernarg_size;
  build->launch.kernarg = calloc(info->kernarg_size + 1, 1);
  // A slot per argument and per 8-byte word a by-value one may embed.
  build->launch.slots = calloc(info->arg_count + info->kernarg_size / 8 + 1,
                               sizeof(rl_pointer_slot_t));
  build->launch.bindings =
      calloc(info->arg_count + 3, sizeof(rl_scalar_binding_t));
  if (!build->launch.kernarg || !build->launch.slots ||
      !build->launch.bindings) {
    return rl_status_out_of_memory();
  }
  return RL_OK;
}

static void rl_funnel_build_deinit(rl_funnel_build_t* build) {
  rl_capture_launch_deinit(&build->launch);
}

static void rl_funnel_note_binders(rl_funnel_t* funnel,
                                   const rl_capture_launch_t* launch,
                                   uint32_t index) {
  for (uint32_t i = 0; i < launch->binding_count; ++i) {
    uint32_t param = launch->bindings[i].expr.param;
    if (funnel->param_first_binder[param] == UINT32_MAX) {
      funnel->param_first_binder[param] = index;
    }
  }
}

static rl_status_t rl_funnel_dispatch(rl_funnel_t* funnel,
                                      const rl_funnel_build_t* build) {
  const rl_capture_launch_t* launch = &build->launch;
  rl_funnel_dispatch_t dispatch = {
      .launch_index = build->index,
      .code_object = funnel->capture->kernels[launch->kernel].code_object,
      .kernel = build->info,
      .dynamic_lds = launch->dynamic_lds,
      .kernarg = launch->kernarg,
      .kernarg_size = launch->kernarg_size};
  dispatch.code_object_handle =
      funnel->code_object_handles[dispatch.code_object];
  memcpy(dispatch.grid, launch->grid, sizeof(dispatch.grid));
  memcpy(dispatch.block, launch->block, sizeof(dispatch.block));
  return rl_status_annotate(
      funnel->device.launch(funnel->device.self, &dispatch), "device launch");
}

// REDLINE_TEST_FAULT=kernarg-tail-zero:I (base/test_fault.h): the
// recorded kernarg of launch I keeps zeros in the last 4 bytes of its
// explicit arguments, after the device ran it with the right ones (a
// capture-side recording mistake; the as-issued check's control,
// shadow/issued_check.h).
static void rl_funnel_fault_tail(rl_capture_launch_t* launch,
                                 const rl_code_object_kernel_t* info,
                                 uint32_t index) {
  if (!rl_test_fault("kernarg-tail-zero", index)) return;
  uint32_t end = 0;
  for (uint32_t a = 0; a < info->arg_count; ++a) {
    const rl_kernel_arg_t* meta = &info->args[a];
    if (meta->kind == RL_ARG_KIND_HIDDEN) continue;
    if (meta->offset + meta->size > end) end = meta->offset + meta->size;
  }
  if (end >= 4 && end <= launch->kernarg_size) {
    memset(launch->kernarg + end - 4, 0, 4);
  }
}

// Snapshots pending initial contents, records the launch, runs it; on any
// failure the capture is as before.
static rl_status_t rl_funnel_record(rl_funnel_t* funnel,
                                    rl_funnel_build_t* build) {
  uint8_t** snapshots = NULL;
  uint32_t pending =
      funnel->capture->buffer_count - funnel->first_pending_buffer;
  RL_RETURN_IF_ERROR(rl_funnel_snapshot_pending(funnel, &snapshots));
  uint32_t index = 0;
  rl_status_t status =
      rl_capture_add_launch(funnel->capture, &build->launch, &index);
  if (!status) {
    status = rl_funnel_dispatch(funnel, build);
    if (status) rl_capture_pop_launch(funnel->capture);
  }
  if (!status) {
    rl_funnel_fault_tail(&funnel->capture->launches[index], build->info,
                         index);
  }
  if (status) {
    rl_funnel_free_snapshots(snapshots, pending);
    return status;
  }
  rl_funnel_commit_snapshots(funnel, snapshots);
  rl_funnel_note_binders(funnel, &build->launch, index);
  return RL_OK;
}

static rl_status_t rl_funnel_launch_built(
    rl_funnel_build_t* build, const rl_funnel_arg_t* args, uint32_t arg_count,
    const rl_funnel_launch_options_t* options) {
  if (arg_count && !args) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "%u arguments but no array",
                     arg_count);
  }
  RL_RETURN_IF_ERROR(rl_funnel_build_init(build));
  RL_RETURN_IF_ERROR(rl_funnel_assemble(build, args, arg_count));
  RL_RETURN_IF_ERROR(rl_funnel_bind_grid(build, options));
  return rl_funnel_record(build->funnel, build);
}

rl_status_t rl_funnel_launch(rl_funnel_t* funnel, uint32_t kernel,
                             const uint32_t grid[3], const uint32_t block[3],
                             uint32_t dynamic_lds, const rl_funnel_arg_t* args,
                             uint32_t arg_count,
                             const rl_funnel_launch_options_t* options,
                             uint32_t* out_launch) {
  if (out_launch) *out_launch = UINT32_MAX;
  RL_RETURN_IF_ERROR(rl_funnel_check_open(funnel));
  rl_capture_t* capture = funnel->capture;
  if (kernel >= capture->kernel_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "launch %u: kernel %u of %u",
                     capture->launch_count, kernel, capture->kernel_count);
  }
  rl_funnel_build_t build = {.funnel = funnel,
                             .index = capture->launch_count,
                             .info = capture->kernels[kernel].info};
  build.launch.kernel = kernel;
  build.launch.dynamic_lds = dynamic_lds;
  memcpy(build.launch.grid, grid, sizeof(build.launch.grid));
  memcpy(build.launch.block, block, sizeof(build.launch.block));
  build.launch.cooperative = options && options->cooperative;
  rl_status_t status = rl_funnel_launch_built(&build, args, arg_count, options);
  rl_funnel_build_deinit(&build);
  if (status) {
    return rl_status_annotate(status, "launch %u (%s)", build.index,
                              build.info->name);
  }
  if (out_launch) *out_launch = build.index;
  return RL_OK;
}
