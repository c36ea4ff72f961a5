// Implementation of redline/kernel_descriptor.h.
//
// Every (shift, width) pair below is the AMDHSA_BITS_ENUM_ENTRY of the same
// name in llvm/include/llvm/Support/AMDHSAKernelDescriptor.h, which matches
// the compute_pgm_rsrc1/2/3 and kernel code property tables of LLVM
// AMDGPUUsage ("Kernel Descriptor"). Where gfx12 reuses a bit with a new
// meaning, the LLVM entries are split into _GFX6_GFX11 / _GFX10_GFX11 /
// _GFX11 and _GFX12_PLUS variants; the decoder follows that split.
#include "redline/kernel_descriptor.h"

#include <string.h>

// Extracts |width| bits of |value| starting at bit |shift|.
static uint32_t rl_kd_bits(uint32_t value, uint32_t shift, uint32_t width) {
  return (value >> shift) & ((1u << width) - 1u);
}

static bool rl_kd_bit(uint32_t value, uint32_t shift) {
  return ((value >> shift) & 1u) != 0;
}

// COMPUTE_PGM_RSRC1 (COMPUTE_PGM_RSRC1_* entries).
static void rl_kd_decode_rsrc1(uint32_t rsrc1, uint32_t gfx_major,
                               rl_kernel_descriptor_info_t* info) {
  info->granulated_workitem_vgpr_count = rl_kd_bits(rsrc1, 0, 6);
  info->granulated_wavefront_sgpr_count = rl_kd_bits(rsrc1, 6, 4);
  info->priority = rl_kd_bits(rsrc1, 10, 2);
  info->float_round_mode_32 = rl_kd_bits(rsrc1, 12, 2);
  info->float_round_mode_16_64 = rl_kd_bits(rsrc1, 14, 2);
  info->float_denorm_mode_32 = rl_kd_bits(rsrc1, 16, 2);
  info->float_denorm_mode_16_64 = rl_kd_bits(rsrc1, 18, 2);
  info->priv = rl_kd_bit(rsrc1, 20);
  // Bit 21: GFX6_GFX11 ENABLE_DX10_CLAMP, GFX12_PLUS ENABLE_WG_RR_EN.
  // Bit 23: GFX6_GFX11 ENABLE_IEEE_MODE, GFX12_PLUS DISABLE_PERF.
  if (gfx_major >= 12) {
    info->enable_wg_rr = rl_kd_bit(rsrc1, 21);
    info->disable_perf = rl_kd_bit(rsrc1, 23);
  } else {
    info->enable_dx10_clamp = rl_kd_bit(rsrc1, 21);
    info->enable_ieee_mode = rl_kd_bit(rsrc1, 23);
  }
  info->debug_mode = rl_kd_bit(rsrc1, 22);
  info->bulky = rl_kd_bit(rsrc1, 24);
  info->cdbg_user = rl_kd_bit(rsrc1, 25);
  info->fp16_overflow = gfx_major >= 9 && rl_kd_bit(rsrc1, 26);  // GFX9_PLUS
  if (gfx_major >= 10) {  // GFX10_PLUS WGP_MODE, MEM_ORDERED, FWD_PROGRESS
    info->workgroup_processor_mode = rl_kd_bit(rsrc1, 29);
    info->memory_ordered = rl_kd_bit(rsrc1, 30);
    info->forward_progress = rl_kd_bit(rsrc1, 31);
  }
}

// COMPUTE_PGM_RSRC2 (COMPUTE_PGM_RSRC2_* entries).
static void rl_kd_decode_rsrc2(uint32_t rsrc2, uint32_t gfx_major,
                               rl_kernel_descriptor_info_t* info) {
  info->enable_private_segment = rl_kd_bit(rsrc2, 0);
  info->user_sgpr_count = rl_kd_bits(rsrc2, 1, 5);
  // Bit 6: GFX6_GFX11 ENABLE_TRAP_HANDLER, GFX12_PLUS ENABLE_DYNAMIC_VGPR.
  // Bit 31: GFX6_GFX11 RESERVED0, GFX12_PLUS WGP_TAKEOVER.
  if (gfx_major >= 12) {
    info->enable_dynamic_vgpr = rl_kd_bit(rsrc2, 6);
    info->wgp_takeover = rl_kd_bit(rsrc2, 31);
  } else {
    info->enable_trap_handler = rl_kd_bit(rsrc2, 6);
  }
  info->enable_sgpr_workgroup_id_x = rl_kd_bit(rsrc2, 7);
  info->enable_sgpr_workgroup_id_y = rl_kd_bit(rsrc2, 8);
  info->enable_sgpr_workgroup_id_z = rl_kd_bit(rsrc2, 9);
  info->enable_sgpr_workgroup_info = rl_kd_bit(rsrc2, 10);
  info->enable_vgpr_workitem_id = rl_kd_bits(rsrc2, 11, 2);
  // ENABLE_EXCEPTION_ADDRESS_WATCH (13), ENABLE_EXCEPTION_MEMORY (14) and the
  // seven ENABLE_EXCEPTION_* floating-point/integer bits 24..30.
  info->exception_enables = rsrc2 & ((3u << 13) | (0x7fu << 24));
  info->granulated_lds_size = rl_kd_bits(rsrc2, 15, 9);
}

// COMPUTE_PGM_RSRC3 for gfx10+ (COMPUTE_PGM_RSRC3_GFX10_PLUS/_GFX10_GFX11/
// _GFX11/_GFX12_PLUS/_GFX11_PLUS entries). gfx90a's RSRC3 (ACCUM_OFFSET,
// TG_SPLIT) is a different register layout and is not decoded.
static void rl_kd_decode_rsrc3(uint32_t rsrc3, uint32_t gfx_major,
                               rl_kernel_descriptor_info_t* info) {
  if (gfx_major < 10) return;
  if (gfx_major <= 11) {
    info->shared_vgpr_count = rl_kd_bits(rsrc3, 0, 4);  // GFX10_GFX11
  }
  if (gfx_major == 11) {
    info->inst_pref_size = rl_kd_bits(rsrc3, 4, 6);  // GFX11
    info->trap_on_start = rl_kd_bit(rsrc3, 10);
    info->trap_on_end = rl_kd_bit(rsrc3, 11);
  } else if (gfx_major >= 12) {
    info->inst_pref_size = rl_kd_bits(rsrc3, 4, 8);  // GFX12_PLUS
    info->glg_enable = rl_kd_bit(rsrc3, 13);
  }
  info->image_op = gfx_major >= 11 && rl_kd_bit(rsrc3, 31);  // GFX11_PLUS
}

// kernel_code_properties (KERNEL_CODE_PROPERTY_* entries) and kernarg_preload
// (KERNARG_PRELOAD_SPEC_LENGTH 0:7, KERNARG_PRELOAD_SPEC_OFFSET 7:9).
static void rl_kd_decode_properties(uint32_t properties, uint32_t preload,
                                    uint32_t gfx_major,
                                    rl_kernel_descriptor_info_t* info) {
  info->enable_sgpr_private_segment_buffer = rl_kd_bit(properties, 0);
  info->enable_sgpr_dispatch_ptr = rl_kd_bit(properties, 1);
  info->enable_sgpr_queue_ptr = rl_kd_bit(properties, 2);
  info->enable_sgpr_kernarg_segment_ptr = rl_kd_bit(properties, 3);
  info->enable_sgpr_dispatch_id = rl_kd_bit(properties, 4);
  info->enable_sgpr_flat_scratch_init = rl_kd_bit(properties, 5);
  info->enable_sgpr_private_segment_size = rl_kd_bit(properties, 6);
  info->enable_wavefront_size32 = gfx_major >= 10 && rl_kd_bit(properties, 10);
  info->uses_dynamic_stack = rl_kd_bit(properties, 11);
  info->kernarg_preload_spec_length = rl_kd_bits(preload, 0, 7);
  info->kernarg_preload_spec_offset = rl_kd_bits(preload, 7, 9);
}

void rl_kernel_descriptor_decode(const rl_kernel_descriptor_t* descriptor,
                                 uint32_t gfx_major,
                                 rl_kernel_descriptor_info_t* out_info) {
  memset(out_info, 0, sizeof(*out_info));
  rl_kd_decode_rsrc1(descriptor->compute_pgm_rsrc1, gfx_major, out_info);
  rl_kd_decode_rsrc2(descriptor->compute_pgm_rsrc2, gfx_major, out_info);
  rl_kd_decode_rsrc3(descriptor->compute_pgm_rsrc3, gfx_major, out_info);
  rl_kd_decode_properties(descriptor->kernel_code_properties,
                          descriptor->kernarg_preload, gfx_major, out_info);
}
