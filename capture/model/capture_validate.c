// Validation of the capture model: every index, range and recorded value.
// The same checks run when an object is added and again, over the whole
// model, in rl_capture_validate() (which the file reader calls last).
#include <stdlib.h>
#include <string.h>

#include "capture/model/capture_internal.h"

static rl_status_t rl_capture_check_name_within(const char* what,
                                                const char* name,
                                                size_t max) {
  if (!name || !name[0]) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT, "%s name is empty", what);
  }
  size_t length = strnlen(name, max);
  if (length >= max) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "%s name is longer than %zu bytes", what, max - 1);
  }
  for (size_t i = 0; i < length; ++i) {
    unsigned char c = (unsigned char)name[i];
    if (c < 0x21 || c > 0x7e) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "%s name has byte 0x%02x at position %zu; names are "
                       "printable ASCII without spaces",
                       what, c, i);
    }
  }
  return RL_OK;
}

rl_status_t rl_capture_check_name(const char* what, const char* name) {
  return rl_capture_check_name_within(what, name, RL_CAPTURE_NAME_MAX);
}

rl_status_t rl_capture_check_symbol(const char* what, const char* name) {
  return rl_capture_check_name_within(what, name, RL_CAPTURE_SYMBOL_MAX);
}

rl_status_t rl_capture_check_buffer(const rl_capture_buffer_t* buffer) {
  RL_RETURN_IF_ERROR(rl_capture_check_name("buffer", buffer->name));
  const char* name = buffer->name;
  if (buffer->size == 0) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT, "buffer %s has size 0", name);
  }
  if (buffer->alignment == 0 ||
      (buffer->alignment & (buffer->alignment - 1)) != 0) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "buffer %s alignment %llu is not a power of two", name,
                     (unsigned long long)buffer->alignment);
  }
  if ((unsigned)buffer->role >= RL_BUFFER_ROLE_COUNT_) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT, "buffer %s has role %u", name,
                     (unsigned)buffer->role);
  }
  if (buffer->capture_address % buffer->alignment != 0) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "buffer %s capture address 0x%llx is not %llu-aligned",
                     name, (unsigned long long)buffer->capture_address,
                     (unsigned long long)buffer->alignment);
  }
  if (buffer->capture_address > UINT64_MAX - buffer->size) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "buffer %s range 0x%llx + %llu overflows", name,
                     (unsigned long long)buffer->capture_address,
                     (unsigned long long)buffer->size);
  }
  if (buffer->initial && buffer->size > SIZE_MAX) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "buffer %s contents do not fit host memory", name);
  }
  return RL_OK;
}

rl_status_t rl_capture_check_param(const rl_capture_param_t* param) {
  RL_RETURN_IF_ERROR(rl_capture_check_name("parameter", param->name));
  if (param->min >= param->max) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "parameter %s admitted range [%lld, %lld) is empty",
                     param->name, (long long)param->min, (long long)param->max);
  }
  if (param->capture_value < param->min || param->capture_value >= param->max) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "parameter %s capture value %lld is outside [%lld, %lld)",
                     param->name, (long long)param->capture_value,
                     (long long)param->min, (long long)param->max);
  }
  return RL_OK;
}

static rl_status_t rl_capture_check_geometry(const rl_capture_launch_t* launch,
                                             const rl_code_object_kernel_t* info) {
  uint64_t threads = 1;
  for (int axis = 0; axis < 3; ++axis) {
    if (launch->grid[axis] == 0 || launch->block[axis] == 0) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "grid %ux%ux%u / block %ux%ux%u has a zero axis",
                       launch->grid[0], launch->grid[1], launch->grid[2],
                       launch->block[0], launch->block[1], launch->block[2]);
    }
    // Saturate: a product wrapped past 2^64 could pass the limit below.
    if (__builtin_mul_overflow(threads, (uint64_t)launch->block[axis],
                               &threads)) {
      threads = UINT64_MAX;
    }
  }
  uint32_t limit = info->max_flat_workgroup_size ? info->max_flat_workgroup_size
                                                 : 1024;
  if (threads > limit) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "block of %llu work-items exceeds the kernel's maximum "
                     "flat work-group size %u",
                     (unsigned long long)threads, limit);
  }
  return RL_OK;
}

// Returns the metadata argument at |offset|, or NULL.
static const rl_kernel_arg_t* rl_capture_arg_at(
    const rl_code_object_kernel_t* info, uint32_t offset) {
  for (uint32_t i = 0; i < info->arg_count; ++i) {
    if (info->args[i].offset == offset) return &info->args[i];
  }
  return NULL;
}

// Returns the by-value argument holding the 8 bytes at |offset|, or NULL.
static const rl_kernel_arg_t* rl_capture_by_value_around(
    const rl_code_object_kernel_t* info, uint32_t offset) {
  for (uint32_t i = 0; i < info->arg_count; ++i) {
    const rl_kernel_arg_t* arg = &info->args[i];
    if (arg->kind == RL_ARG_KIND_BY_VALUE && offset >= arg->offset &&
        arg->size >= 8 && offset - arg->offset <= arg->size - 8) {
      return arg;
    }
  }
  return NULL;
}

// A slot sits on a global_buffer argument, or on an 8-byte-aligned word
// inside a by-value one whose buffer keeps its capture address (a pointer
// member of a struct, redline/capture.h): patching it must write back the
// recorded value, since the word may be an integer that equals an address.
static rl_status_t rl_capture_check_slot(const rl_capture_t* capture,
                                         const rl_capture_launch_t* launch,
                                         const rl_code_object_kernel_t* info,
                                         const rl_pointer_slot_t* slot) {
  const rl_kernel_arg_t* arg = rl_capture_arg_at(info, slot->kernarg_offset);
  bool typed = arg && arg->kind == RL_ARG_KIND_GLOBAL_BUFFER && arg->size == 8;
  bool embedded = !typed && slot->kernarg_offset % 8 == 0 &&
                  rl_capture_by_value_around(info, slot->kernarg_offset);
  if (!typed && !embedded) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "no global_buffer argument of %s at kernarg offset %u, "
                     "nor an aligned word of a by-value one",
                     info->name, slot->kernarg_offset);
  }
  if (slot->buffer >= capture->buffer_count) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT, "refers to buffer %u of %u",
                     slot->buffer, capture->buffer_count);
  }
  const rl_capture_buffer_t* buffer = &capture->buffers[slot->buffer];
  if (embedded && !buffer->keep_address) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "a slot inside a by-value argument of %s refers to "
                     "buffer %s, which does not keep its address",
                     info->name, buffer->name);
  }
  if ((unsigned)slot->effect > RL_EFFECT_READ_WRITE ||
      (unsigned)slot->source >= RL_EFFECT_SOURCE_COUNT_) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT, "effect %u / source %u",
                     (unsigned)slot->effect, (unsigned)slot->source);
  }
  if (slot->offset > buffer->size ||
      slot->extent_offset > buffer->size ||
      slot->extent_size > buffer->size - slot->extent_offset) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "pointer offset %llu / extent [%llu, +%llu) outside "
                     "buffer %s of %llu bytes",
                     (unsigned long long)slot->offset,
                     (unsigned long long)slot->extent_offset,
                     (unsigned long long)slot->extent_size, buffer->name,
                     (unsigned long long)buffer->size);
  }
  uint64_t recorded = rl_load_le(launch->kernarg + slot->kernarg_offset, 8);
  uint64_t expected = buffer->capture_address + slot->offset;
  if (recorded != expected) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "kernarg holds 0x%llx, but buffer %s + %llu is 0x%llx",
                     (unsigned long long)recorded, buffer->name,
                     (unsigned long long)slot->offset,
                     (unsigned long long)expected);
  }
  return RL_OK;
}

static rl_status_t rl_capture_check_slots(const rl_capture_t* capture,
                                          const rl_capture_launch_t* launch,
                                          const rl_code_object_kernel_t* info) {
  for (uint32_t i = 0; i < launch->slot_count; ++i) {
    if (i > 0 &&
        launch->slots[i].kernarg_offset <= launch->slots[i - 1].kernarg_offset) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "pointer slot %u is not after slot %u in kernarg order",
                       i, i - 1);
    }
    RL_RETURN_IF_ERROR(rl_status_annotate(
        rl_capture_check_slot(capture, launch, info, &launch->slots[i]),
        "pointer slot %u (kernarg offset %u)", i,
        launch->slots[i].kernarg_offset));
  }
  // Every non-null pointer argument must be typed, or replay could not
  // rebase it.
  for (uint32_t a = 0; a < info->arg_count; ++a) {
    const rl_kernel_arg_t* arg = &info->args[a];
    if (arg->kind != RL_ARG_KIND_GLOBAL_BUFFER) continue;
    bool typed = false;
    for (uint32_t i = 0; i < launch->slot_count && !typed; ++i) {
      typed = launch->slots[i].kernarg_offset == arg->offset;
    }
    if (!typed && rl_load_le(launch->kernarg + arg->offset, 8) != 0) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "pointer argument %u (kernarg offset %u) of %s holds "
                       "a non-null address but has no typed pointer slot",
                       a, arg->offset, info->name);
    }
  }
  return RL_OK;
}

static bool rl_ranges_overlap(uint64_t a, uint64_t a_size, uint64_t b,
                              uint64_t b_size) {
  return a < b + b_size && b < a + a_size;
}

static rl_status_t rl_capture_check_binding(const rl_capture_t* capture,
                                            const rl_capture_launch_t* launch,
                                            const rl_scalar_binding_t* binding,
                                            const int64_t* values) {
  uint64_t recorded = 0;
  if (binding->target == RL_BINDING_KERNARG) {
    if ((binding->size != 4 && binding->size != 8) ||
        binding->offset > launch->kernarg_size ||
        binding->size > launch->kernarg_size - binding->offset) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "kernarg binding [%u, +%u) outside %u kernarg bytes or "
                       "not 4/8 bytes wide",
                       binding->offset, binding->size, launch->kernarg_size);
    }
    for (uint32_t i = 0; i < launch->slot_count; ++i) {
      if (rl_ranges_overlap(binding->offset, binding->size,
                            launch->slots[i].kernarg_offset, 8)) {
        return RL_STATUS(RL_STATUS_INVALID_INPUT,
                         "kernarg binding at %u overlaps pointer slot %u",
                         binding->offset, i);
      }
    }
    recorded = rl_load_le(launch->kernarg + binding->offset, binding->size);
  } else if (binding->target == RL_BINDING_GRID) {
    if (binding->offset > 2 || binding->size != 4) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "grid binding axis %u size %u (expected axis 0..2, "
                       "size 4)", binding->offset, binding->size);
    }
    recorded = launch->grid[binding->offset];
  } else if (binding->target == RL_BINDING_POINTER_OFFSET) {
    if (binding->offset >= launch->slot_count || binding->size != 8) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "pointer-offset binding of slot %u size %u (expected "
                       "a slot of %u, size 8)",
                       binding->offset, binding->size, launch->slot_count);
    }
    if (rl_capture_slot_binding(launch, binding->offset) != binding) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "pointer slot %u has more than one offset binding",
                       binding->offset);
    }
    recorded = launch->slots[binding->offset].offset;
  } else {
    return RL_STATUS(RL_STATUS_INVALID_INPUT, "binding target %u",
                     (unsigned)binding->target);
  }
  int64_t value = 0;
  RL_RETURN_IF_ERROR(
      rl_expr_evaluate(&binding->expr, values, capture->param_count, &value));
  if ((uint64_t)value != recorded) {
    char text[128];
    rl_expr_format(capture, &binding->expr, text, sizeof(text));
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "recorded value %llu differs from %s = %lld at the "
                     "capture's parameter values",
                     (unsigned long long)recorded, text, (long long)value);
  }
  return RL_OK;
}

rl_status_t rl_capture_check_launch(const rl_capture_t* capture,
                                    const rl_capture_launch_t* launch) {
  if (launch->kernel >= capture->kernel_count) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT, "kernel %u of %u",
                     launch->kernel, capture->kernel_count);
  }
  const rl_code_object_kernel_t* info = capture->kernels[launch->kernel].info;
  if (launch->kernarg_size != info->kernarg_size ||
      (launch->kernarg_size && !launch->kernarg)) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "%u kernarg bytes for %s, whose metadata says %u",
                     launch->kernarg_size, info->name, info->kernarg_size);
  }
  RL_RETURN_IF_ERROR(rl_status_annotate(
      rl_capture_check_geometry(launch, info), "%s", info->name));
  RL_RETURN_IF_ERROR(rl_capture_check_slots(capture, launch, info));
  int64_t* values = calloc(capture->param_count + 1, sizeof(int64_t));
  if (!values) return rl_status_out_of_memory();
  for (uint32_t i = 0; i < capture->param_count; ++i) {
    values[i] = capture->params[i].capture_value;
  }
  rl_status_t status = RL_OK;
  for (uint32_t i = 0; !status && i < launch->binding_count; ++i) {
    status = rl_status_annotate(
        rl_capture_check_binding(capture, launch, &launch->bindings[i], values),
        "binding %u", i);
  }
  free(values);
  return status;
}

rl_status_t rl_capture_check_region(const rl_capture_t* capture,
                                    const rl_capture_region_t* region) {
  RL_RETURN_IF_ERROR(rl_capture_check_name("region", region->name));
  if (region->buffer >= capture->buffer_count) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT, "region %s: buffer %u of %u",
                     region->name, region->buffer, capture->buffer_count);
  }
  const rl_capture_buffer_t* buffer = &capture->buffers[region->buffer];
  if (region->size == 0 || region->offset > buffer->size ||
      region->size > buffer->size - region->offset) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "region %s [%llu, +%llu) is empty or outside buffer %s "
                     "of %llu bytes",
                     region->name, (unsigned long long)region->offset,
                     (unsigned long long)region->size, buffer->name,
                     (unsigned long long)buffer->size);
  }
  if ((unsigned)region->type >= RL_REGION_TYPE_COUNT_) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT, "region %s has type %u",
                     region->name, (unsigned)region->type);
  }
  static const uint32_t element_size[RL_REGION_TYPE_COUNT_] = {1, 4, 4, 4, 2, 2};
  if (region->size % element_size[region->type] != 0) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "region %s size %llu is not a multiple of its %s element",
                     region->name, (unsigned long long)region->size,
                     rl_region_type_name(region->type));
  }
  return RL_OK;
}

rl_status_t rl_capture_check_window(const rl_capture_t* capture,
                                    const rl_capture_window_t* window) {
  if (window->param >= capture->param_count) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT, "parameter %u of %u",
                     window->param, capture->param_count);
  }
  const rl_capture_param_t* param = &capture->params[window->param];
  int64_t last = 0;
  if (window->count == 0 ||
      __builtin_mul_overflow((int64_t)(window->count - 1), window->stride,
                             &last) ||
      __builtin_add_overflow(last, window->start, &last)) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "window over %s has %u values or overflows", param->name,
                     window->count);
  }
  if (window->start < param->min || window->start >= param->max ||
      last < param->min || last >= param->max) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "window %s=%lld..%lld leaves the admitted range "
                     "[%lld, %lld)",
                     param->name, (long long)window->start, (long long)last,
                     (long long)param->min, (long long)param->max);
  }
  return RL_OK;
}

static rl_status_t rl_capture_validate_buffers(const rl_capture_t* capture) {
  for (uint32_t i = 0; i < capture->buffer_count; ++i) {
    const rl_capture_buffer_t* a = &capture->buffers[i];
    RL_RETURN_IF_ERROR(
        rl_status_annotate(rl_capture_check_buffer(a), "buffer %u", i));
    RL_RETURN_IF_ERROR(rl_status_annotate(
        rl_capture_check_variable(capture, a), "buffer %u", i));
    for (uint32_t j = 0; j < i; ++j) {
      const rl_capture_buffer_t* b = &capture->buffers[j];
      if (strcmp(a->name, b->name) == 0) {
        return RL_STATUS(RL_STATUS_INVALID_INPUT,
                         "buffers %u and %u are both named %s", j, i, a->name);
      }
      if (rl_ranges_overlap(a->capture_address, a->size, b->capture_address,
                            b->size)) {
        return RL_STATUS(RL_STATUS_INVALID_INPUT,
                         "buffers %s and %s overlap at capture addresses",
                         b->name, a->name);
      }
    }
  }
  return RL_OK;
}

static rl_status_t rl_capture_validate_code(const rl_capture_t* capture) {
  for (uint32_t i = 0; i < capture->code_object_count; ++i) {
    const rl_capture_code_object_t* co = &capture->code_objects[i];
    if (!rl_digest128_equal(co->digest, rl_digest128_of(co->bytes, co->size))) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "code object %u digest does not match its bytes", i);
    }
    if (!capture->target || strcmp(co->parsed->target, capture->target) != 0) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "code object %u targets %s, the capture %s", i,
                       co->parsed->target,
                       capture->target ? capture->target : "(none)");
    }
  }
  for (uint32_t i = 0; i < capture->kernel_count; ++i) {
    const rl_capture_kernel_t* kernel = &capture->kernels[i];
    if (kernel->code_object >= capture->code_object_count ||
        kernel->info != rl_code_object_find_kernel(
                            capture->code_objects[kernel->code_object].parsed,
                            kernel->name)) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "kernel %u (%s) is not in code object %u", i,
                       kernel->name, kernel->code_object);
    }
  }
  return RL_OK;
}

rl_status_t rl_capture_validate(const rl_capture_t* capture) {
  if (!capture) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "validate: no capture");
  }
  RL_RETURN_IF_ERROR(rl_capture_check_name("workload", capture->workload));
  if (capture->launch_count && !capture->code_object_count) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "capture has launches but no code objects");
  }
  RL_RETURN_IF_ERROR(rl_capture_validate_code(capture));
  RL_RETURN_IF_ERROR(rl_capture_validate_buffers(capture));
  for (uint32_t i = 0; i < capture->param_count; ++i) {
    RL_RETURN_IF_ERROR(rl_status_annotate(
        rl_capture_check_param(&capture->params[i]), "parameter %u", i));
    for (uint32_t j = 0; j < i; ++j) {
      if (strcmp(capture->params[j].name, capture->params[i].name) == 0) {
        return RL_STATUS(RL_STATUS_INVALID_INPUT,
                         "parameters %u and %u are both named %s", j, i,
                         capture->params[i].name);
      }
    }
  }
  for (uint32_t i = 0; i < capture->launch_count; ++i) {
    RL_RETURN_IF_ERROR(rl_status_annotate(
        rl_capture_check_launch(capture, &capture->launches[i]), "launch %u",
        i));
  }
  for (uint32_t i = 0; i < capture->region_count; ++i) {
    RL_RETURN_IF_ERROR(rl_status_annotate(
        rl_capture_check_region(capture, &capture->regions[i]), "region %u",
        i));
  }
  for (uint32_t i = 0; i < capture->window_count; ++i) {
    RL_RETURN_IF_ERROR(rl_status_annotate(
        rl_capture_check_window(capture, &capture->windows[i]), "window %u",
        i));
  }
  for (uint32_t i = 0; i < capture->descriptor_count; ++i) {
    RL_RETURN_IF_ERROR(rl_status_annotate(
        rl_capture_check_descriptor(capture, &capture->descriptors[i],
                                    i ? &capture->descriptors[i - 1] : NULL),
        "descriptor %u", i));
  }
  return RL_OK;
}
