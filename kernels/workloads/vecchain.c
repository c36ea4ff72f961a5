// The "vecchain" sample workload: eight launches of the kernels in
// kernels/vecchain.hip over n = 1024 floats (block 64), shaped like one
// decode step: weights, a state vector that doubles as a 4096-element
// context, a scalar and a grid that depend on the position |pos|, and a
// caller-owned workspace sized for the largest admitted context.
//
// Launches (n = 1024, G = 16 work-groups, C = ceil((pos + 1) / 64)):
//   0 vc_fill(a, 1.0, n)                 a := 1 (declared write [0, 4n))
//   1 vc_scale(x, h, 0.5, n)             h := x / 2
//   2 vc_add(h, a, y, n)                 y[0, n) := h + a
//   3 vc_axpy_pos(x, y, pos, n)          y[0, n) += x * pos    (pos bound)
//   4 vc_partial_sum(y, partials, 64, pos + 1)   grid C, n bound to pos+1
//   5 vc_merge(partials, out, C)         out := sum of y[0, pos]
//   6 vc_copy_u32(ids, io, 64)           io := ids
//   7 vc_fill(partials, 0.0, 64)         clear the workspace (declared write)
// The context read by launch 4 covers y[0, pos] and reaches past the n
// elements the step writes once pos >= n; those elements keep y's seeded
// initial contents.
#include <stdbool.h>
#include <string.h>

#include "kernels/workloads/workload.h"
#include "kernels/workloads/workload_seed.h"

#define RL_VC_N 1024u              // elements of the element-wise launches
#define RL_VC_BLOCK 64u            // the kernels' fixed work-group size
#define RL_VC_CHUNK 64u            // elements per vc_partial_sum group
#define RL_VC_POS_LIMIT 4096       // pos is admitted in [1, 4096)
#define RL_VC_CONTEXT 4096u        // floats in y: the longest context
#define RL_VC_IO_COUNT 64u         // u32 elements copied to the io buffer
// Workspace capacity: one partial per chunk of the longest context.
#define RL_VC_PARTIALS_MAX ((RL_VC_POS_LIMIT + RL_VC_CHUNK - 1) / RL_VC_CHUNK)
#define RL_VC_ALIGNMENT 256u

typedef enum rl_vc_kernel_e {
  RL_VC_FILL, RL_VC_SCALE, RL_VC_ADD, RL_VC_AXPY_POS,
  RL_VC_PARTIAL_SUM, RL_VC_MERGE, RL_VC_COPY_U32, RL_VC_KERNEL_COUNT_,
} rl_vc_kernel_t;

static const char* const rl_vc_kernel_names[RL_VC_KERNEL_COUNT_] = {
    "vc_fill", "vc_scale", "vc_add", "vc_axpy_pos",
    "vc_partial_sum", "vc_merge", "vc_copy_u32"};

typedef enum rl_vc_buffer_e {
  RL_VC_X, RL_VC_IDS, RL_VC_A, RL_VC_H, RL_VC_Y,
  RL_VC_PARTIALS, RL_VC_OUT, RL_VC_IO, RL_VC_BUFFER_COUNT_,
} rl_vc_buffer_t;

static const struct {
  const char* name;
  uint64_t size;
  rl_buffer_role_t role;
} rl_vc_buffers[RL_VC_BUFFER_COUNT_] = {
    {"x", RL_VC_N * 4, RL_BUFFER_ROLE_WEIGHTS},
    {"ids", RL_VC_IO_COUNT * 4, RL_BUFFER_ROLE_WEIGHTS},
    {"a", RL_VC_N * 4, RL_BUFFER_ROLE_SCRATCH},
    {"h", RL_VC_N * 4, RL_BUFFER_ROLE_SCRATCH},
    {"y", RL_VC_CONTEXT * 4, RL_BUFFER_ROLE_STATE},
    {"partials", RL_VC_PARTIALS_MAX * 4, RL_BUFFER_ROLE_WORKSPACE},
    {"out", 4, RL_BUFFER_ROLE_STATE},
    {"io", RL_VC_IO_COUNT * 4, RL_BUFFER_ROLE_IO},
};

typedef struct rl_vc_s {
  rl_funnel_t* funnel;
  uint32_t pos_param;
  int64_t pos;
  uint32_t kernels[RL_VC_KERNEL_COUNT_];
  uint32_t buffers[RL_VC_BUFFER_COUNT_];
  uint64_t addresses[RL_VC_BUFFER_COUNT_];
} rl_vc_t;

static const rl_workload_param_t rl_vc_params[] = {
    {"pos", "decode position: axpy scale, context length pos+1", 1,
     RL_VC_POS_LIMIT, 7},
};

// Fills |count| floats with multiples of 1/256 in [-3.90625, 3.90625], so
// every value and most sums are exact in binary32.
static void rl_vc_random_floats(uint64_t* state, float* out, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    out[i] = (float)((int)(rl_workload_next(state) % 2001u) - 1000) / 256.0f;
  }
}

static rl_status_t rl_vc_load(rl_vc_t* vc, const rl_workload_options_t* options) {
  if (!options->code_object || options->code_object_size == 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "vecchain needs the bytes of vecchain-<target>.co");
  }
  uint32_t code_object = 0;
  RL_RETURN_IF_ERROR(rl_funnel_load_code_object(
      vc->funnel, options->code_object, options->code_object_size,
      &code_object));
  for (uint32_t k = 0; k < RL_VC_KERNEL_COUNT_; ++k) {
    RL_RETURN_IF_ERROR(rl_funnel_kernel(vc->funnel, code_object,
                                        rl_vc_kernel_names[k],
                                        &vc->kernels[k]));
  }
  return RL_OK;
}

static rl_status_t rl_vc_register_buffers(rl_vc_t* vc) {
  for (uint32_t b = 0; b < RL_VC_BUFFER_COUNT_; ++b) {
    RL_RETURN_IF_ERROR(rl_funnel_buffer(
        vc->funnel, rl_vc_buffers[b].name, rl_vc_buffers[b].size,
        RL_VC_ALIGNMENT, rl_vc_buffers[b].role, false, &vc->buffers[b],
        &vc->addresses[b]));
  }
  return RL_OK;
}

// Seeds x, y and ids; everything else starts zeroed.
static rl_status_t rl_vc_upload_initial(rl_vc_t* vc, uint64_t seed) {
  float values[RL_VC_CONTEXT];  // 16 KiB: fits any stack
  uint32_t ids[RL_VC_IO_COUNT];
  uint64_t state = seed;
  rl_vc_random_floats(&state, values, RL_VC_N);
  RL_RETURN_IF_ERROR(rl_funnel_upload(vc->funnel, vc->buffers[RL_VC_X], 0,
                                      values, RL_VC_N * 4));
  rl_vc_random_floats(&state, values, RL_VC_CONTEXT);
  RL_RETURN_IF_ERROR(rl_funnel_upload(vc->funnel, vc->buffers[RL_VC_Y], 0,
                                      values, RL_VC_CONTEXT * 4));
  for (uint32_t i = 0; i < RL_VC_IO_COUNT; ++i) {
    ids[i] = (uint32_t)rl_workload_next(&state);
  }
  return rl_funnel_upload(vc->funnel, vc->buffers[RL_VC_IDS], 0, ids,
                          sizeof(ids));
}

static rl_funnel_arg_t rl_vc_ptr(const rl_vc_t* vc, rl_vc_buffer_t buffer) {
  return rl_funnel_arg_pointer(vc->addresses[buffer]);
}

static rl_expr_t rl_vc_pos_expr(const rl_vc_t* vc, int64_t add,
                                rl_expr_op_t op, int64_t operand) {
  return (rl_expr_t){.param = vc->pos_param, .add = add, .op = op,
                     .operand = operand};
}

// Launches |kernel| on a 1-D grid of |groups| work-groups of 64.
static rl_status_t rl_vc_launch(rl_vc_t* vc, rl_vc_kernel_t kernel,
                                uint32_t groups, const rl_funnel_arg_t* args,
                                uint32_t arg_count,
                                const rl_funnel_launch_options_t* options) {
  const uint32_t grid[3] = {groups, 1, 1};
  const uint32_t block[3] = {RL_VC_BLOCK, 1, 1};
  return rl_funnel_launch(vc->funnel, vc->kernels[kernel], grid, block, 0,
                          args, arg_count, options, NULL);
}

// Launches 0-3: the element-wise chain ending in the pos-scaled axpy.
static rl_status_t rl_vc_elementwise(rl_vc_t* vc) {
  const uint32_t groups = RL_VC_N / RL_VC_BLOCK;
  const rl_funnel_arg_t fill[] = {
      rl_funnel_arg_pointer_declared(vc->addresses[RL_VC_A], RL_EFFECT_WRITE,
                                     0, RL_VC_N * 4),
      rl_funnel_arg_f32(1.0f), rl_funnel_arg_u32(RL_VC_N)};
  RL_RETURN_IF_ERROR(rl_vc_launch(vc, RL_VC_FILL, groups, fill, 3, NULL));
  const rl_funnel_arg_t scale[] = {rl_vc_ptr(vc, RL_VC_X),
                                   rl_vc_ptr(vc, RL_VC_H),
                                   rl_funnel_arg_f32(0.5f),
                                   rl_funnel_arg_u32(RL_VC_N)};
  RL_RETURN_IF_ERROR(rl_vc_launch(vc, RL_VC_SCALE, groups, scale, 4, NULL));
  const rl_funnel_arg_t add[] = {rl_vc_ptr(vc, RL_VC_H), rl_vc_ptr(vc, RL_VC_A),
                                 rl_vc_ptr(vc, RL_VC_Y),
                                 rl_funnel_arg_u32(RL_VC_N)};
  RL_RETURN_IF_ERROR(rl_vc_launch(vc, RL_VC_ADD, groups, add, 4, NULL));
  const rl_funnel_arg_t axpy[] = {
      rl_vc_ptr(vc, RL_VC_X), rl_vc_ptr(vc, RL_VC_Y),
      rl_funnel_arg_u32_bound((uint32_t)vc->pos,
                              rl_vc_pos_expr(vc, 0, RL_EXPR_ADD, 0)),
      rl_funnel_arg_u32(RL_VC_N)};
  return rl_vc_launch(vc, RL_VC_AXPY_POS, groups, axpy, 4, NULL);
}

// Launches 4-5: the two-level sum over the context y[0, pos].
static rl_status_t rl_vc_reduce(rl_vc_t* vc) {
  const uint32_t context = (uint32_t)vc->pos + 1;
  const uint32_t chunks = (context + RL_VC_CHUNK - 1) / RL_VC_CHUNK;
  const rl_expr_t chunk_count =
      rl_vc_pos_expr(vc, 1, RL_EXPR_CEIL_DIV, RL_VC_CHUNK);
  rl_funnel_launch_options_t grid_bound = {.grid_bound = {true, false, false},
                                           .grid_binding = {chunk_count}};
  const rl_funnel_arg_t partial[] = {
      rl_vc_ptr(vc, RL_VC_Y), rl_vc_ptr(vc, RL_VC_PARTIALS),
      rl_funnel_arg_u32(RL_VC_CHUNK),
      rl_funnel_arg_u32_bound(context, rl_vc_pos_expr(vc, 1, RL_EXPR_ADD, 0))};
  RL_RETURN_IF_ERROR(
      rl_vc_launch(vc, RL_VC_PARTIAL_SUM, chunks, partial, 4, &grid_bound));
  const rl_funnel_arg_t merge[] = {
      rl_vc_ptr(vc, RL_VC_PARTIALS), rl_vc_ptr(vc, RL_VC_OUT),
      rl_funnel_arg_u32_bound(chunks, chunk_count)};
  return rl_vc_launch(vc, RL_VC_MERGE, 1, merge, 3, NULL);
}

// Launches 6-7: the raw copy to the io buffer and the workspace clear.
static rl_status_t rl_vc_tail(rl_vc_t* vc) {
  const rl_funnel_arg_t copy[] = {rl_vc_ptr(vc, RL_VC_IDS),
                                  rl_vc_ptr(vc, RL_VC_IO),
                                  rl_funnel_arg_u32(RL_VC_IO_COUNT)};
  RL_RETURN_IF_ERROR(rl_vc_launch(vc, RL_VC_COPY_U32, 1, copy, 3, NULL));
  const rl_funnel_arg_t clear[] = {
      rl_funnel_arg_pointer_declared(vc->addresses[RL_VC_PARTIALS],
                                     RL_EFFECT_WRITE, 0,
                                     RL_VC_PARTIALS_MAX * 4),
      rl_funnel_arg_f32(0.0f), rl_funnel_arg_u32(RL_VC_PARTIALS_MAX)};
  return rl_vc_launch(vc, RL_VC_FILL, 1, clear, 3, NULL);
}

// The state regions shadow runs compare and the default window.
static rl_status_t rl_vc_declare(rl_vc_t* vc) {
  static const struct {
    const char* name;
    rl_vc_buffer_t buffer;
    rl_region_type_t type;
  } regions[] = {{"y", RL_VC_Y, RL_REGION_F32},
                 {"out", RL_VC_OUT, RL_REGION_F32},
                 {"partials", RL_VC_PARTIALS, RL_REGION_F32},
                 {"io", RL_VC_IO, RL_REGION_U32}};
  uint32_t index = 0;
  for (uint32_t r = 0; r < sizeof(regions) / sizeof(regions[0]); ++r) {
    RL_RETURN_IF_ERROR(rl_funnel_region(
        vc->funnel, regions[r].name, vc->buffers[regions[r].buffer], 0,
        rl_vc_buffers[regions[r].buffer].size, regions[r].type, &index));
  }
  return rl_funnel_window(vc->funnel, vc->pos_param, 1, 8, 1, &index);
}

static rl_status_t rl_vc_record(rl_funnel_t* funnel,
                                const rl_workload_options_t* options) {
  rl_vc_t vc = {.funnel = funnel};
  RL_RETURN_IF_ERROR(rl_workload_param_value(&rl_workload_vecchain, options,
                                             "pos", &vc.pos));
  RL_RETURN_IF_ERROR(rl_vc_load(&vc, options));
  RL_RETURN_IF_ERROR(rl_funnel_param(funnel, "pos", rl_vc_params[0].min,
                                     rl_vc_params[0].max, vc.pos,
                                     &vc.pos_param));
  RL_RETURN_IF_ERROR(rl_vc_register_buffers(&vc));
  RL_RETURN_IF_ERROR(rl_vc_upload_initial(&vc, options->seed));
  RL_RETURN_IF_ERROR(rl_vc_elementwise(&vc));
  RL_RETURN_IF_ERROR(rl_vc_reduce(&vc));
  RL_RETURN_IF_ERROR(rl_vc_tail(&vc));
  return rl_vc_declare(&vc);
}

const rl_workload_t rl_workload_vecchain = {
    .name = "vecchain",
    .description = "8 launches over 1024 floats: fill, scale, add, axpy by "
                   "pos, partial sums over pos+1, merge, u32 copy, clear",
    .code_object = "vecchain",
    .param_count = sizeof(rl_vc_params) / sizeof(rl_vc_params[0]),
    .params = rl_vc_params,
    .record = rl_vc_record,
};
