// redline/kernel_descriptor.h — the 64-byte AMDHSA kernel descriptor (the
// object a `<kernel>.kd` symbol names and an AQL packet's kernel_object
// points at), as a type mirroring the foreign ABI, plus its decoded fields.
//
// Sources: LLVM AMDGPUUsage, section "Kernel Descriptor" (tables "Kernel
// Descriptor for GFX6-GFX12", "compute_pgm_rsrc1 for GFX6-GFX12",
// "compute_pgm_rsrc2 for GFX6-GFX12", "compute_pgm_rsrc3 for GFX10-GFX12",
// "Kernel Code Properties" and "Kernarg Preload"), and
// llvm/include/llvm/Support/AMDHSAKernelDescriptor.h (struct
// kernel_descriptor_t and the *_OFFSET enum, which give the byte offsets
// asserted below, and the COMPUTE_PGM_RSRC*/KERNEL_CODE_PROPERTY/
// KERNARG_PRELOAD_SPEC shift/width entries that kernel_descriptor.c cites).
// The layout is the same for code objects v4, v5 and v6.
#ifndef REDLINE_KERNEL_DESCRIPTOR_H_
#define REDLINE_KERNEL_DESCRIPTOR_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Byte layout of the descriptor (little-endian). Reserved bytes are zero.
typedef struct rl_kernel_descriptor_s {
  uint32_t group_segment_fixed_size;       // byte 0
  uint32_t private_segment_fixed_size;     // byte 4
  uint32_t kernarg_size;                   // byte 8
  uint8_t reserved0[4];                    // byte 12
  int64_t kernel_code_entry_byte_offset;   // byte 16, from the descriptor
  uint8_t reserved1[20];                   // byte 24
  uint32_t compute_pgm_rsrc3;              // byte 44 (gfx10+, gfx90a+)
  uint32_t compute_pgm_rsrc1;              // byte 48
  uint32_t compute_pgm_rsrc2;              // byte 52
  uint16_t kernel_code_properties;         // byte 56
  uint16_t kernarg_preload;                // byte 58
  uint8_t reserved2[4];                    // byte 60
} rl_kernel_descriptor_t;

_Static_assert(sizeof(rl_kernel_descriptor_t) == 64,
               "AMDHSA kernel descriptor is 64 bytes");
_Static_assert(offsetof(rl_kernel_descriptor_t, kernarg_size) == 8,
               "kernarg size at byte 8 (KERNARG_SIZE_OFFSET)");
_Static_assert(offsetof(rl_kernel_descriptor_t, reserved0) == 12,
               "reserved0 at byte 12 (RESERVED0_OFFSET)");
_Static_assert(offsetof(rl_kernel_descriptor_t, kernel_code_entry_byte_offset) == 16,
               "entry offset at byte 16");
_Static_assert(offsetof(rl_kernel_descriptor_t, reserved1) == 24,
               "reserved1 at byte 24 (RESERVED1_OFFSET)");
_Static_assert(offsetof(rl_kernel_descriptor_t, compute_pgm_rsrc3) == 44,
               "rsrc3 at byte 44");
_Static_assert(offsetof(rl_kernel_descriptor_t, compute_pgm_rsrc1) == 48,
               "rsrc1 at byte 48");
_Static_assert(offsetof(rl_kernel_descriptor_t, compute_pgm_rsrc2) == 52,
               "rsrc2 at byte 52");
_Static_assert(offsetof(rl_kernel_descriptor_t, kernel_code_properties) == 56,
               "code properties at byte 56");
_Static_assert(offsetof(rl_kernel_descriptor_t, kernarg_preload) == 58,
               "kernarg preload at byte 58");
_Static_assert(offsetof(rl_kernel_descriptor_t, reserved2) == 60,
               "reserved2 at byte 60 (RESERVED3_OFFSET in LLVM)");

// Reserved bits of kernel_code_properties on every generation: bits 7..9
// (RESERVED0) and 12..15 (RESERVED1) in AMDHSAKernelDescriptor.h.
#define RL_KERNEL_CODE_PROPERTIES_RESERVED_MASK 0xf380u

// The descriptor's fields decoded for one GPU generation. A few bits change
// meaning between gfx10/gfx11 and gfx12; each such field says which
// generation it is decoded for and is false/zero on the others. gfx9 and
// older are decoded only in the generation-independent fields (RSRC3 has a
// different layout on gfx90a and is left zero there).
typedef struct rl_kernel_descriptor_info_s {
  // COMPUTE_PGM_RSRC1
  uint32_t granulated_workitem_vgpr_count;
  uint32_t granulated_wavefront_sgpr_count;  // reserved (zero) on gfx10+
  uint32_t priority;
  uint32_t float_round_mode_32;
  uint32_t float_round_mode_16_64;
  uint32_t float_denorm_mode_32;
  uint32_t float_denorm_mode_16_64;
  bool priv;
  bool enable_dx10_clamp;   // bit 21 up to gfx11
  bool enable_wg_rr;        // bit 21 on gfx12 (WG_RR_EN)
  bool debug_mode;
  bool enable_ieee_mode;    // bit 23 up to gfx11
  bool disable_perf;        // bit 23 on gfx12 (DISABLE_PERF)
  bool bulky;
  bool cdbg_user;
  bool fp16_overflow;
  bool workgroup_processor_mode;  // WGP_MODE (gfx10+)
  bool memory_ordered;            // MEM_ORDERED (gfx10+)
  bool forward_progress;          // FWD_PROGRESS (gfx10+)
  // COMPUTE_PGM_RSRC2
  bool enable_private_segment;    // SCRATCH_EN
  uint32_t user_sgpr_count;
  bool enable_trap_handler;       // bit 6 up to gfx11
  bool enable_dynamic_vgpr;       // bit 6 on gfx12
  bool enable_sgpr_workgroup_id_x;
  bool enable_sgpr_workgroup_id_y;
  bool enable_sgpr_workgroup_id_z;
  bool enable_sgpr_workgroup_info;  // TG_SIZE_EN
  uint32_t enable_vgpr_workitem_id;  // TIDIG_COMP_CNT: 0 = x, 1 = xy, 2 = xyz
  // RSRC2 masked to its exception-enable bits (13, 14 and 24..30), in place.
  uint32_t exception_enables;
  uint32_t granulated_lds_size;
  bool wgp_takeover;              // bit 31 on gfx12 (reserved before)
  // COMPUTE_PGM_RSRC3 (gfx10+)
  uint32_t shared_vgpr_count;  // gfx10 and gfx11 (reserved on gfx12)
  uint32_t inst_pref_size;     // gfx11: 6 bits at 4; gfx12: 8 bits at 4
  bool trap_on_start;          // gfx11
  bool trap_on_end;            // gfx11
  bool glg_enable;             // gfx12 (GLG_EN)
  bool image_op;               // gfx11+
  // kernel_code_properties
  bool enable_sgpr_private_segment_buffer;
  bool enable_sgpr_dispatch_ptr;
  bool enable_sgpr_queue_ptr;
  bool enable_sgpr_kernarg_segment_ptr;
  bool enable_sgpr_dispatch_id;
  bool enable_sgpr_flat_scratch_init;
  bool enable_sgpr_private_segment_size;
  bool enable_wavefront_size32;  // gfx10+
  bool uses_dynamic_stack;
  // kernarg_preload
  uint32_t kernarg_preload_spec_length;
  uint32_t kernarg_preload_spec_offset;
} rl_kernel_descriptor_info_t;

// Decodes |descriptor| into |out_info| (cleared first) for a GPU whose major
// graphics version is |gfx_major| (9, 10, 11 or 12: the "gfx11" of
// gfx1100/gfx1151; rl_code_object_t.gfx_major). Pure; never fails
// (reserved-byte checks are done by the code-object parser, which knows the
// symbol name).
void rl_kernel_descriptor_decode(const rl_kernel_descriptor_t* descriptor,
                                 uint32_t gfx_major,
                                 rl_kernel_descriptor_info_t* out_info);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_KERNEL_DESCRIPTOR_H_
