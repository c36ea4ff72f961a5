// Implementation of redline/kernel_descriptor.h.
//
// The compute_pgm_rsrc1/2/3 words are the COMPUTE_PGM_RSRC1/2/3 registers:
// their fields come from the one register table per family
// (base/hw/gfx11_registers.h, gfx12_registers.h); the descriptor's
// meaning of each follows the AMDHSA_BITS_ENUM_ENTRY of the same name in
// llvm/include/llvm/Support/AMDHSAKernelDescriptor.h and the tables of LLVM
// AMDGPUUsage ("Kernel Descriptor"). Kernel code properties (not a
// register) keep their (shift, width) pairs here. Where gfx12 reuses a bit with a new
// meaning, the LLVM entries are split into _GFX6_GFX11 / _GFX10_GFX11 /
// _GFX11 and _GFX12_PLUS variants; the decoder follows that split.
#include "redline/kernel_descriptor.h"

#include <string.h>

#include "base/hw/gfx11_registers.h"
#include "base/hw/gfx12_registers.h"

// Extracts |width| bits of |value| starting at bit |shift|.
static uint32_t rl_kd_bits(uint32_t value, uint32_t shift, uint32_t width) {
  return (value >> shift) & ((1u << width) - 1u);
}

static bool rl_kd_bit(uint32_t value, uint32_t shift) {
  return ((value >> shift) & 1u) != 0;
}

// A field of the COMPUTE_PGM_RSRC<n> register of family FAM (GFX11, GFX12)
// from the one register table (base/hw/gfx11_registers.h,
// gfx12_registers.h). The descriptor's rsrc words are those registers.
#define RL_KD_FIELD(FAM, REG, FIELD, value) \
  RL_HW_GET(RL_##FAM##_COMPUTE_PGM_##REG##__##FIELD, (value))

// Bits of the descriptor's RSRC1 that the register headers do not name on
// gfx11 (LLVM AMDHSA COMPUTE_PGM_RSRC1_DEBUG_MODE and _CDBG_USER, which
// gfx12's register table does name at the same places).
#define RL_KD_RSRC1_DEBUG_MODE_SHIFT RL_GFX12_COMPUTE_PGM_RSRC1__DEBUG_MODE__SHIFT
#define RL_KD_RSRC1_CDBG_USER_SHIFT RL_GFX12_COMPUTE_PGM_RSRC1__CDBG_USER__SHIFT

// The fields gfx6..gfx11 and gfx12 share sit at the same bits in both
// tables; the decoder reads them through the gfx11 table.
#define RL_KD_SAME(REG, FIELD)                                             \
  _Static_assert(                                                          \
      (int)RL_GFX11_COMPUTE_PGM_##REG##__##FIELD##__SHIFT ==               \
              (int)RL_GFX12_COMPUTE_PGM_##REG##__##FIELD##__SHIFT &&       \
          (int)RL_GFX11_COMPUTE_PGM_##REG##__##FIELD##__WIDTH ==           \
              (int)RL_GFX12_COMPUTE_PGM_##REG##__##FIELD##__WIDTH,         \
      "COMPUTE_PGM_" #REG "." #FIELD " differs between gfx11 and gfx12");
RL_KD_SAME(RSRC1, VGPRS)
RL_KD_SAME(RSRC1, SGPRS)
RL_KD_SAME(RSRC1, PRIORITY)
RL_KD_SAME(RSRC1, FLOAT_MODE)
RL_KD_SAME(RSRC1, PRIV)
RL_KD_SAME(RSRC1, BULKY)
RL_KD_SAME(RSRC1, FP16_OVFL)
RL_KD_SAME(RSRC1, WGP_MODE)
RL_KD_SAME(RSRC1, MEM_ORDERED)
RL_KD_SAME(RSRC1, FWD_PROGRESS)
RL_KD_SAME(RSRC2, SCRATCH_EN)
RL_KD_SAME(RSRC2, USER_SGPR)
RL_KD_SAME(RSRC2, TGID_X_EN)
RL_KD_SAME(RSRC2, TGID_Y_EN)
RL_KD_SAME(RSRC2, TGID_Z_EN)
RL_KD_SAME(RSRC2, TG_SIZE_EN)
RL_KD_SAME(RSRC2, TIDIG_COMP_CNT)
RL_KD_SAME(RSRC2, EXCP_EN_MSB)
RL_KD_SAME(RSRC2, LDS_SIZE)
RL_KD_SAME(RSRC2, EXCP_EN)
RL_KD_SAME(RSRC3, IMAGE_OP)
#undef RL_KD_SAME

// COMPUTE_PGM_RSRC1 (COMPUTE_PGM_RSRC1_* entries). FLOAT_MODE holds the
// four 2-bit modes FLOAT_ROUND_MODE_32, _16_64, FLOAT_DENORM_MODE_32,
// _16_64 from its low bits up.
static void rl_kd_decode_rsrc1(uint32_t rsrc1, uint32_t gfx_major,
                               rl_kernel_descriptor_info_t* info) {
  info->granulated_workitem_vgpr_count = RL_KD_FIELD(GFX11, RSRC1, VGPRS, rsrc1);
  info->granulated_wavefront_sgpr_count =
      RL_KD_FIELD(GFX11, RSRC1, SGPRS, rsrc1);
  info->priority = RL_KD_FIELD(GFX11, RSRC1, PRIORITY, rsrc1);
  const uint32_t float_mode = RL_KD_FIELD(GFX11, RSRC1, FLOAT_MODE, rsrc1);
  info->float_round_mode_32 = rl_kd_bits(float_mode, 0, 2);
  info->float_round_mode_16_64 = rl_kd_bits(float_mode, 2, 2);
  info->float_denorm_mode_32 = rl_kd_bits(float_mode, 4, 2);
  info->float_denorm_mode_16_64 = rl_kd_bits(float_mode, 6, 2);
  info->priv = RL_KD_FIELD(GFX11, RSRC1, PRIV, rsrc1) != 0;
  // Bit 21: GFX6_GFX11 ENABLE_DX10_CLAMP, GFX12_PLUS ENABLE_WG_RR_EN.
  // Bit 23: GFX6_GFX11 ENABLE_IEEE_MODE, GFX12_PLUS DISABLE_PERF.
  if (gfx_major >= 12) {
    info->enable_wg_rr = RL_KD_FIELD(GFX12, RSRC1, WG_RR_EN, rsrc1) != 0;
    info->disable_perf = RL_KD_FIELD(GFX12, RSRC1, DISABLE_PERF, rsrc1) != 0;
  } else {
    info->enable_dx10_clamp = RL_KD_FIELD(GFX11, RSRC1, DX10_CLAMP, rsrc1) != 0;
    info->enable_ieee_mode = RL_KD_FIELD(GFX11, RSRC1, IEEE_MODE, rsrc1) != 0;
  }
  info->debug_mode = rl_kd_bit(rsrc1, RL_KD_RSRC1_DEBUG_MODE_SHIFT);
  info->bulky = RL_KD_FIELD(GFX11, RSRC1, BULKY, rsrc1) != 0;
  info->cdbg_user = rl_kd_bit(rsrc1, RL_KD_RSRC1_CDBG_USER_SHIFT);
  info->fp16_overflow =  // GFX9_PLUS
      gfx_major >= 9 && RL_KD_FIELD(GFX11, RSRC1, FP16_OVFL, rsrc1) != 0;
  if (gfx_major >= 10) {  // GFX10_PLUS WGP_MODE, MEM_ORDERED, FWD_PROGRESS
    info->workgroup_processor_mode =
        RL_KD_FIELD(GFX11, RSRC1, WGP_MODE, rsrc1) != 0;
    info->memory_ordered = RL_KD_FIELD(GFX11, RSRC1, MEM_ORDERED, rsrc1) != 0;
    info->forward_progress = RL_KD_FIELD(GFX11, RSRC1, FWD_PROGRESS, rsrc1) != 0;
  }
}

// COMPUTE_PGM_RSRC2 (COMPUTE_PGM_RSRC2_* entries).
static void rl_kd_decode_rsrc2(uint32_t rsrc2, uint32_t gfx_major,
                               rl_kernel_descriptor_info_t* info) {
  info->enable_private_segment = RL_KD_FIELD(GFX11, RSRC2, SCRATCH_EN, rsrc2);
  info->user_sgpr_count = RL_KD_FIELD(GFX11, RSRC2, USER_SGPR, rsrc2);
  // Bit 6: GFX6_GFX11 ENABLE_TRAP_HANDLER, GFX12_PLUS ENABLE_DYNAMIC_VGPR.
  // Bit 31: GFX6_GFX11 RESERVED0, GFX12_PLUS WGP_TAKEOVER.
  if (gfx_major >= 12) {
    info->enable_dynamic_vgpr =
        RL_KD_FIELD(GFX12, RSRC2, DYNAMIC_VGPR, rsrc2) != 0;
    info->wgp_takeover = RL_KD_FIELD(GFX12, RSRC2, WGP_TAKEOVER, rsrc2) != 0;
  } else {
    info->enable_trap_handler =
        RL_KD_FIELD(GFX11, RSRC2, TRAP_PRESENT, rsrc2) != 0;
  }
  info->enable_sgpr_workgroup_id_x = RL_KD_FIELD(GFX11, RSRC2, TGID_X_EN, rsrc2);
  info->enable_sgpr_workgroup_id_y = RL_KD_FIELD(GFX11, RSRC2, TGID_Y_EN, rsrc2);
  info->enable_sgpr_workgroup_id_z = RL_KD_FIELD(GFX11, RSRC2, TGID_Z_EN, rsrc2);
  info->enable_sgpr_workgroup_info =
      RL_KD_FIELD(GFX11, RSRC2, TG_SIZE_EN, rsrc2);
  info->enable_vgpr_workitem_id =
      RL_KD_FIELD(GFX11, RSRC2, TIDIG_COMP_CNT, rsrc2);
  // ENABLE_EXCEPTION_ADDRESS_WATCH (13), ENABLE_EXCEPTION_MEMORY (14) and the
  // seven ENABLE_EXCEPTION_* floating-point/integer bits 24..30: the
  // register's EXCP_EN_MSB and EXCP_EN.
  info->exception_enables =
      rsrc2 & (RL_HW_MASK(RL_GFX11_COMPUTE_PGM_RSRC2__EXCP_EN_MSB) |
               RL_HW_MASK(RL_GFX11_COMPUTE_PGM_RSRC2__EXCP_EN));
  info->granulated_lds_size = RL_KD_FIELD(GFX11, RSRC2, LDS_SIZE, rsrc2);
}

// COMPUTE_PGM_RSRC3 for gfx10+ (COMPUTE_PGM_RSRC3_GFX10_PLUS/_GFX10_GFX11/
// _GFX11/_GFX12_PLUS/_GFX11_PLUS entries). gfx90a's RSRC3 (ACCUM_OFFSET,
// TG_SPLIT) is a different register layout and is not decoded.
static void rl_kd_decode_rsrc3(uint32_t rsrc3, uint32_t gfx_major,
                               rl_kernel_descriptor_info_t* info) {
  if (gfx_major < 10) return;
  if (gfx_major <= 11) {  // GFX10_GFX11
    info->shared_vgpr_count = RL_KD_FIELD(GFX11, RSRC3, SHARED_VGPR_CNT, rsrc3);
  }
  if (gfx_major == 11) {
    info->inst_pref_size = RL_KD_FIELD(GFX11, RSRC3, INST_PREF_SIZE, rsrc3);
    info->trap_on_start = RL_KD_FIELD(GFX11, RSRC3, TRAP_ON_START, rsrc3) != 0;
    info->trap_on_end = RL_KD_FIELD(GFX11, RSRC3, TRAP_ON_END, rsrc3) != 0;
  } else if (gfx_major >= 12) {
    info->inst_pref_size = RL_KD_FIELD(GFX12, RSRC3, INST_PREF_SIZE, rsrc3);
    info->glg_enable = RL_KD_FIELD(GFX12, RSRC3, GLG_EN, rsrc3) != 0;
  }
  info->image_op =  // GFX11_PLUS
      gfx_major >= 11 && RL_KD_FIELD(GFX11, RSRC3, IMAGE_OP, rsrc3) != 0;
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
  if (!out_info) return;
  memset(out_info, 0, sizeof(*out_info));
  if (!descriptor) return;
  rl_kd_decode_rsrc1(descriptor->compute_pgm_rsrc1, gfx_major, out_info);
  rl_kd_decode_rsrc2(descriptor->compute_pgm_rsrc2, gfx_major, out_info);
  rl_kd_decode_rsrc3(descriptor->compute_pgm_rsrc3, gfx_major, out_info);
  rl_kd_decode_properties(descriptor->kernel_code_properties,
                          descriptor->kernarg_preload, gfx_major, out_info);
}
