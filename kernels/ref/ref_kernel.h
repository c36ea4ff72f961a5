// kernels/ref/ref_kernel.h — the table entry of one reference kernel
// (private to kernels/ref/).
//
// A reference kernel declares what it assumes about a dispatch (work-group
// size, the explicit arguments, LDS) so ref_executor.c can check it once in
// begin(); its run() function then only reads the kernarg at the offsets
// begin() resolved and computes one work-group.
#ifndef REDLINE_KERNELS_REF_REF_KERNEL_H_
#define REDLINE_KERNELS_REF_REF_KERNEL_H_

#include <stdbool.h>
#include <stdint.h>

#include "sim/sim_executor.h"

#ifdef __cplusplus
extern "C" {
#endif

// Most explicit arguments a reference kernel takes (vf_attn_partial: 12).
#define RL_REF_MAX_ARGS 12

// The type of an explicit argument as the reference reads it.
typedef enum rl_ref_arg_type_e {
  RL_REF_ARG_POINTER = 0,  // global_buffer, 8 bytes
  RL_REF_ARG_U32 = 1,      // by_value, 4 bytes
  RL_REF_ARG_F32 = 2,      // by_value, 4 bytes
} rl_ref_arg_type_t;

// Kernarg offsets of the explicit arguments, by argument index.
typedef struct rl_ref_args_s {
  uint32_t offset[RL_REF_MAX_ARGS];
} rl_ref_args_t;

// The value of one explicit argument, read by its declared type: .pointer
// for RL_REF_ARG_POINTER, .u32 for RL_REF_ARG_U32, .f32 for RL_REF_ARG_F32.
typedef union rl_ref_arg_u {
  uint64_t pointer;
  uint32_t u32;
  float f32;
} rl_ref_arg_t;

typedef struct rl_ref_kernel_s {
  const char* name;  // metadata .name
  uint32_t workgroup_size[3];
  uint32_t arg_count;  // explicit arguments
  rl_ref_arg_type_t arg_types[RL_REF_MAX_ARGS];
  // LDS bytes the kernel's shared arrays occupy (0 when it uses none).
  uint32_t lds_size;
  // True when the kernel is only defined on whole work-groups (its LDS tree
  // reads the slot of every lane of the block).
  bool whole_workgroups;
  // Computes work-group |wg|. |args| holds the arg_count explicit
  // arguments by index, each read as arg_types says (ref_executor.c reads
  // them from the kernarg segment, as the kernels' s_load does, before every
  // work-group), so run() never reads the kernarg segment itself.
  rl_status_t (*run)(rl_sim_wg_t* wg, const rl_ref_arg_t* args);
} rl_ref_kernel_t;

// The vecchain kernels (vecchain_ref.c).
extern const rl_ref_kernel_t rl_ref_vecchain_kernels[];
extern const uint32_t rl_ref_vecchain_kernel_count;

// The decode kernels (decode_ref.c).
extern const rl_ref_kernel_t rl_ref_decode_kernels[];
extern const uint32_t rl_ref_decode_kernel_count;

// The interposer's copy and fill kernels (capture_copy_ref.c).
extern const rl_ref_kernel_t rl_ref_capture_kernels[];
extern const uint32_t rl_ref_capture_kernel_count;

// The verify kernels (verify_ref.c).
extern const rl_ref_kernel_t rl_ref_verify_kernels[];
extern const uint32_t rl_ref_verify_kernel_count;

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_KERNELS_REF_REF_KERNEL_H_
