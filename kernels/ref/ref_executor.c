// The reference executor: kernel lookup, the dispatch checks of begin(), and
// the explicit arguments read for each work-group by their declared types.
#include "kernels/ref/ref_executor.h"

#include <stdlib.h>
#include <string.h>

#include "kernels/ref/ref_kernel.h"

// COMPUTE_PGM_RSRC1 FLOAT_ROUND_MODE_32 round-to-nearest-even and
// FLOAT_DENORM_MODE_32 FLUSH_NONE (AMDGPUUsage "Floating Point Rounding
// Mode" and "Floating Point Denorm Mode" enumeration values).
#define RL_REF_ROUND_MODE_NEAREST_EVEN 0u
#define RL_REF_DENORM_MODE_FLUSH_NONE 3u

// Per-dispatch state: the kernel and its resolved argument offsets.
typedef struct rl_ref_state_s {
  const rl_ref_kernel_t* kernel;
  rl_ref_args_t args;
} rl_ref_state_t;

// The tables of reference kernels, one per kernels/*.hip source.
static const struct {
  const rl_ref_kernel_t* kernels;
  const uint32_t* count;
} rl_ref_tables[] = {
    {rl_ref_vecchain_kernels, &rl_ref_vecchain_kernel_count},
    {rl_ref_decode_kernels, &rl_ref_decode_kernel_count},
    {rl_ref_verify_kernels, &rl_ref_verify_kernel_count},
    {rl_ref_capture_kernels, &rl_ref_capture_kernel_count},
};

static const rl_ref_kernel_t* rl_ref_kernel_find(const char* name) {
  for (size_t t = 0; t < sizeof(rl_ref_tables) / sizeof(rl_ref_tables[0]);
       ++t) {
    for (uint32_t k = 0; k < *rl_ref_tables[t].count; ++k) {
      if (strcmp(rl_ref_tables[t].kernels[k].name, name) == 0) {
        return &rl_ref_tables[t].kernels[k];
      }
    }
  }
  return NULL;
}

static const char* rl_ref_arg_type_name(rl_ref_arg_type_t type) {
  switch (type) {
    case RL_REF_ARG_POINTER: return "a global_buffer pointer of 8 bytes";
    case RL_REF_ARG_U32: return "a by_value u32 of 4 bytes";
    case RL_REF_ARG_F32: return "a by_value f32 of 4 bytes";
  }
  return "?";
}

static bool rl_ref_arg_matches(const rl_kernel_arg_t* arg,
                               rl_ref_arg_type_t type) {
  if (type == RL_REF_ARG_POINTER) {
    return arg->kind == RL_ARG_KIND_GLOBAL_BUFFER && arg->size == 8;
  }
  return arg->kind == RL_ARG_KIND_BY_VALUE && arg->size == 4;
}

// Resolves the kernarg offsets of the explicit arguments, checking their
// count, kinds and sizes against what |kernel| reads.
static rl_status_t rl_ref_resolve_args(const rl_ref_kernel_t* kernel,
                                       const rl_code_object_kernel_t* meta,
                                       rl_ref_args_t* out_args) {
  uint32_t explicit_count = 0;
  for (uint32_t a = 0; a < meta->arg_count; ++a) {
    const rl_kernel_arg_t* arg = &meta->args[a];
    if (arg->kind == RL_ARG_KIND_HIDDEN) continue;
    if (explicit_count < kernel->arg_count) {
      rl_ref_arg_type_t type = kernel->arg_types[explicit_count];
      if (!rl_ref_arg_matches(arg, type)) {
        return RL_STATUS(RL_STATUS_UNSUPPORTED,
                         "kernel %s: argument %u is %s of %u bytes, the "
                         "reference expects %s",
                         kernel->name, explicit_count, arg->value_kind,
                         arg->size, rl_ref_arg_type_name(type));
      }
      out_args->offset[explicit_count] = arg->offset;
    }
    ++explicit_count;
  }
  if (explicit_count != kernel->arg_count) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "kernel %s: %u explicit arguments in the metadata, the "
                     "reference expects %u",
                     kernel->name, explicit_count, kernel->arg_count);
  }
  return RL_OK;
}

// Checks the float modes the host's C arithmetic reproduces.
static rl_status_t rl_ref_check_float_modes(
    const rl_code_object_kernel_t* meta) {
  const rl_kernel_descriptor_info_t* info = &meta->descriptor_info;
  if (info->float_round_mode_32 != RL_REF_ROUND_MODE_NEAREST_EVEN ||
      info->float_denorm_mode_32 != RL_REF_DENORM_MODE_FLUSH_NONE) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "kernel %s: FLOAT_ROUND_MODE_32 %u and "
                     "FLOAT_DENORM_MODE_32 %u, the reference computes with "
                     "round-to-nearest-even (0) and denormals kept (3)",
                     meta->name, info->float_round_mode_32,
                     info->float_denorm_mode_32);
  }
  return RL_OK;
}

// Checks the geometry and LDS of |dispatch| against |kernel|.
static rl_status_t rl_ref_check_geometry(const rl_ref_kernel_t* kernel,
                                         const rl_sim_dispatch_t* dispatch) {
  const uint32_t* want = kernel->workgroup_size;
  const uint32_t* have = dispatch->workgroup_size;
  if (have[0] != want[0] || have[1] != want[1] || have[2] != want[2]) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "kernel %s: work-group size %ux%ux%u, the reference "
                     "assumes %ux%ux%u",
                     kernel->name, have[0], have[1], have[2], want[0],
                     want[1], want[2]);
  }
  if (dispatch->group_segment_size < kernel->lds_size) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "kernel %s: group segment of %u bytes, the kernel's "
                     "shared arrays need %u",
                     kernel->name, dispatch->group_segment_size,
                     kernel->lds_size);
  }
  if (kernel->whole_workgroups) {
    for (uint32_t axis = 0; axis < 3; ++axis) {
      if (dispatch->grid_size[axis] % want[axis] != 0) {
        return RL_STATUS(RL_STATUS_UNSUPPORTED,
                         "kernel %s: grid size %u on axis %u is not a "
                         "multiple of the work-group size %u; the kernel is "
                         "only defined on whole work-groups",
                         kernel->name, dispatch->grid_size[axis], axis,
                         want[axis]);
      }
    }
  }
  return RL_OK;
}

static rl_status_t rl_ref_begin(void* self, const rl_sim_dispatch_t* dispatch,
                                void** out_state) {
  (void)self;
  *out_state = NULL;
  const rl_code_object_kernel_t* meta = dispatch->kernel;
  if (!meta || !meta->name) {
    return RL_STATUS(RL_STATUS_INTERNAL,
                     "dispatch %llu has no kernel metadata",
                     (unsigned long long)dispatch->dispatch_index);
  }
  const rl_ref_kernel_t* kernel = rl_ref_kernel_find(meta->name);
  if (!kernel) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "no reference implementation for kernel %s", meta->name);
  }
  rl_ref_args_t args = {{0}};
  RL_RETURN_IF_ERROR(rl_ref_resolve_args(kernel, meta, &args));
  RL_RETURN_IF_ERROR(rl_ref_check_float_modes(meta));
  RL_RETURN_IF_ERROR(rl_ref_check_geometry(kernel, dispatch));
  rl_ref_state_t* state = calloc(1, sizeof(*state));
  if (!state) return rl_status_out_of_memory();
  state->kernel = kernel;
  state->args = args;
  *out_state = state;
  return RL_OK;
}

// Reads the explicit arguments of |kernel| at the offsets |args| resolved,
// each by its declared type, in argument order (scalar kernarg loads, as
// the compiled kernels' s_load).
static rl_status_t rl_ref_read_args(rl_sim_wg_t* wg,
                                    const rl_ref_kernel_t* kernel,
                                    const rl_ref_args_t* args,
                                    rl_ref_arg_t* out_values) {
  for (uint32_t i = 0; i < kernel->arg_count; ++i) {
    const uint32_t offset = args->offset[i];
    rl_ref_arg_t* value = &out_values[i];
    switch (kernel->arg_types[i]) {
      case RL_REF_ARG_POINTER:
        RL_RETURN_IF_ERROR(rl_sim_wg_kernarg_u64(wg, offset, &value->pointer));
        break;
      case RL_REF_ARG_U32:
        RL_RETURN_IF_ERROR(rl_sim_wg_kernarg_u32(wg, offset, &value->u32));
        break;
      case RL_REF_ARG_F32:
        RL_RETURN_IF_ERROR(rl_sim_wg_kernarg_f32(wg, offset, &value->f32));
        break;
    }
  }
  return RL_OK;
}

static rl_status_t rl_ref_run_workgroup(void* self, void* state,
                                        rl_sim_wg_t* wg) {
  (void)self;
  const rl_ref_state_t* ref = (const rl_ref_state_t*)state;
  rl_ref_arg_t values[RL_REF_MAX_ARGS];
  memset(values, 0, sizeof(values));
  RL_RETURN_IF_ERROR(rl_ref_read_args(wg, ref->kernel, &ref->args, values));
  return ref->kernel->run(wg, values);
}

static void rl_ref_end(void* self, void* state) {
  (void)self;
  free(state);
}

static const rl_sim_executor_t rl_ref_executor_instance = {
    .name = "ref",
    .self = NULL,
    .begin = rl_ref_begin,
    .run_workgroup = rl_ref_run_workgroup,
    .end = rl_ref_end,
};

bool rl_ref_executor_has_kernel(const char* name) {
  return name && rl_ref_kernel_find(name) != NULL;
}

const rl_sim_executor_t* rl_ref_executor(void) {
  return &rl_ref_executor_instance;
}
