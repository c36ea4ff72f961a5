// sim/isa/isa_image.c — image_sample_lz, the texture sample HIP's
// tex1D/tex2D compile to (through __ockl_image_sample_*_2D), on gfx11 (MIMG)
// and gfx12 (VSAMPLE). See docs/isa-coverage.md ("Images").
//
// Encodings (LLVM MIMGInstructions.td; every field below confirmed with
// llvm-mc-19 -show-encoding, tests/unit/sim/isa/isa_image_test.c):
//   gfx11 MIMG, [31:26]=111100, 64 bits without NSA: NSA[0] DIM[4:2]
//     UNRM[7] DMASK[11:8] DLC[13] GLC[14] R128[15] A16[16] D16[17]
//     OP[25:18] | VADDR[39:32] VDATA[47:40] SRSRC[52:48] (SGPR/4) TFE[53]
//     LWE[54] SSAMP[62:58] (SGPR/4). NSA forms (address VGPRs in extra
//     dwords) are refused.
//   gfx12 VSAMPLE, [31:26]=111001, 96 bits: DIM[2:0] TFE[3] R128[4] D16[5]
//     A16[6] UNRM[13] OP[21:14] DMASK[25:22] | VDATA[39:32] RSRC[49:41]
//     (SGPR) TH/SCOPE[54:50] SAMP[63:55] (SGPR) | VADDR0..3[95:64] (bytes).
//   image_sample_lz is opcode 0x1f in both.
// Descriptors (the 8-dword T# in SRSRC, the 4-dword S# in SSAMP), gfx11
// field layout as ROCm's image runtime defines it (ROCR-Runtime
// src/image/resource_gfx11.h, SQ_IMG_RSRC_WORD0..4 and SQ_IMG_SAMP_WORD0/2):
//   T# w0 BASE_ADDRESS (address >> 8), w1[7:0] BASE_ADDRESS_HI,
//      w1[27:20] FORMAT, w1[31:30] WIDTH-1 [1:0], w2[11:0] WIDTH-1 [13:2],
//      w2[27:14] HEIGHT-1, w3 DST_SEL_X/Y/Z/W [11:0] (3 bits each: 0 zero,
//      1 one, 4..7 channel X..W), w3[15:12] BASE_LEVEL, w3[19:16]
//      LAST_LEVEL, w3[24:20] SW_MODE (0 linear), w3[31:28] TYPE (8 1D,
//      9 2D), w4[13:0] PITCH-1 (texels; 1D and 2D).
//   S# w0[2:0] CLAMP_X, w0[5:3] CLAMP_Y (0 wrap, 2 clamp to last texel),
//      w0[15] FORCE_UNNORMALIZED, w2[21:20] XY_MAG_FILTER, w2[23:22]
//      XY_MIN_FILTER (0 point, 1 bilinear), w2[27:26] MIP_FILTER.
// Modelled: 1-D and 2-D linear (SW_MODE 0) images of one mip level with
// 1, 2 or 4 channels of 8/16/32-bit UINT or SINT or 32-bit FLOAT,
// point filtering, wrap and clamp-to-last-texel addressing, normalized and
// unnormalized coordinates. Texel selection: the coordinate times the size
// (normalized) or the coordinate (unnormalized) is rounded to 1/256 of a
// texel, then floored. Hardware's sub-texel precision is not published;
// HIP's device library relies on rounding of this kind (for point
// filtering it passes floor(x * w) * rcp(w), which lands a rounding error
// below the texel edge) and D3D's texel-selection rules ask for at least
// 8 fractional bits. Linear filtering is refused: its 8-bit fixed-point
// weights are not publicly specified to the bit.
#include <math.h>
#include <string.h>

#include "sim/isa/isa_decode_internal.h"
#include "sim/isa/isa_exec.h"
#include "sim/isa/isa_image.h"

enum { RL_ISA_IMAGE_SAMPLE_LZ = 0x1f };

// The instruction fields either generation encodes.
typedef struct rl_isa_image_fields_s {
  uint32_t dim, dmask, vdata, rsrc, samp;
  uint32_t vaddr[2];
  bool unorm, nsa, a16, d16, tfe, lwe, r128;
} rl_isa_image_fields_t;

static void rl_isa_image_fields(const rl_isa_inst_t* inst,
                                rl_isa_image_fields_t* f) {
  const uint32_t* w = inst->words;
  memset(f, 0, sizeof(*f));
  if (inst->gfx12) {
    f->dim = w[0] & 7;
    f->tfe = (w[0] >> 3) & 1;
    f->r128 = (w[0] >> 4) & 1;
    f->d16 = (w[0] >> 5) & 1;
    f->a16 = (w[0] >> 6) & 1;
    f->unorm = (w[0] >> 13) & 1;
    f->dmask = (w[0] >> 22) & 0xf;
    f->vdata = w[1] & 0xff;
    f->rsrc = (w[1] >> 9) & 0x1ff;
    f->samp = (w[1] >> 23) & 0x1ff;
    f->vaddr[0] = w[2] & 0xff;
    f->vaddr[1] = (w[2] >> 8) & 0xff;
    return;
  }
  f->nsa = w[0] & 1;
  f->dim = (w[0] >> 2) & 7;
  f->unorm = (w[0] >> 7) & 1;
  f->dmask = (w[0] >> 8) & 0xf;
  f->r128 = (w[0] >> 15) & 1;
  f->a16 = (w[0] >> 16) & 1;
  f->d16 = (w[0] >> 17) & 1;
  f->vaddr[0] = w[1] & 0xff;
  f->vaddr[1] = f->vaddr[0] + 1;
  f->vdata = (w[1] >> 8) & 0xff;
  f->rsrc = ((w[1] >> 16) & 0x1f) * 4;
  f->tfe = (w[1] >> 21) & 1;
  f->lwe = (w[1] >> 22) & 1;
  f->samp = ((w[1] >> 26) & 0x1f) * 4;
}

const char* rl_isa_image_reason(const rl_isa_inst_t* inst) {
  rl_isa_image_fields_t f;
  rl_isa_image_fields(inst, &f);
  if (f.nsa) {
    return "MIMG NSA=1 (address VGPRs in extra dwords) is not modelled";
  }
  if (f.a16) return "MIMG A16=1 (16-bit coordinates) is not modelled";
  if (f.d16) return "MIMG D16=1 (16-bit results) is not modelled";
  if (f.tfe || f.lwe) {
    return "MIMG TFE/LWE=1 (texel-fail status) is not modelled";
  }
  if (f.r128) return "MIMG R128=1 (128-bit resource) is not modelled";
  if (f.dim > 1) return "MIMG DIM other than 1D (0) or 2D (1) is not modelled";
  if (f.dmask == 0) return "MIMG DMASK=0 is not modelled";
  if (f.rsrc + 8 > 106 || f.samp + 4 > 106) {
    return "MIMG resource or sampler outside s0-s105 is not modelled";
  }
  return NULL;
}


// Format codes (resource_gfx11.h, enum FORMAT) modelled: channels of 8,
// 16 or 32 bits, 1, 2 or 4 of them; UINT and SINT channels are returned
// zero- or sign-extended to 32 bits, FLOAT (32-bit only) as they are; a
// DST_SEL of 1 is then the integer 1 or 1.0.
typedef struct rl_isa_image_format_s {
  uint32_t code, channels, bytes;  // bytes per channel
  bool integer, sign;
} rl_isa_image_format_t;

static const rl_isa_image_format_t rl_isa_image_formats[] = {
    {5, 1, 1, true, false},   {6, 1, 1, true, true},      // 8_UINT/SINT
    {11, 1, 2, true, false},  {12, 1, 2, true, true},     // 16_UINT/SINT
    {18, 2, 1, true, false},  {19, 2, 1, true, true},     // 8_8
    {20, 1, 4, true, false},  {21, 1, 4, true, true},     // 32_UINT/SINT
    {22, 1, 4, false, false},                             // 32_FLOAT
    {27, 2, 2, true, false},  {28, 2, 2, true, true},     // 16_16
    {46, 4, 1, true, false},  {47, 4, 1, true, true},     // 8_8_8_8
    {48, 2, 4, true, false},  {49, 2, 4, true, true},     // 32_32
    {50, 2, 4, false, false},                             // 32_32_FLOAT
    {55, 4, 2, true, false},  {56, 4, 2, true, true},     // 16_16_16_16
    {61, 4, 4, true, false},  {62, 4, 4, true, true},     // 32_32_32_32
    {63, 4, 4, false, false},                             // ..._FLOAT
};

static const rl_isa_image_format_t* rl_isa_image_format(uint32_t code) {
  for (size_t i = 0;
       i < sizeof(rl_isa_image_formats) / sizeof(rl_isa_image_formats[0]);
       ++i) {
    if (rl_isa_image_formats[i].code == code) return &rl_isa_image_formats[i];
  }
  return NULL;
}

// The decoded T# and S# of one instruction.
typedef struct rl_isa_image_desc_s {
  uint64_t base;
  uint32_t width, height, pitch, format, type, channels, bytes;
  uint32_t sel[4];
  uint32_t clamp[2];
  bool unnormalized;
  const rl_isa_image_format_t* f;
} rl_isa_image_desc_t;

static rl_status_t rl_isa_image_decode(const rl_isa_wave_t* wave,
                                       const rl_isa_inst_t* inst,
                                       const rl_isa_image_fields_t* f,
                                       rl_isa_image_desc_t* d) {
  const uint32_t* t = &wave->sgpr[f->rsrc];
  const uint32_t* s = &wave->sgpr[f->samp];
  memset(d, 0, sizeof(*d));
  d->base = (uint64_t)t[0] << 8 | (uint64_t)(t[1] & 0xff) << 40;
  d->format = (t[1] >> 20) & 0xff;
  d->width = ((t[1] >> 30) | (t[2] & 0xfff) << 2) + 1;
  d->height = ((t[2] >> 14) & 0x3fff) + 1;
  d->pitch = (t[4] & 0x3fff) + 1;
  d->type = t[3] >> 28;
  uint32_t sw_mode = (t[3] >> 20) & 0x1f, base_level = (t[3] >> 12) & 0xf;
  uint32_t last_level = (t[3] >> 16) & 0xf;
  d->f = rl_isa_image_format(d->format);
  if (d->f == NULL) {
    return rl_isa_fault(inst, "image resource FORMAT %u is not modelled "
                        "(modelled: 8/16/32-bit UINT and SINT, 32-bit FLOAT "
                        "channels, 1, 2 or 4 of them)", d->format);
  }
  d->channels = d->f->channels;
  d->bytes = d->f->channels * d->f->bytes;
  if (sw_mode != 0) {
    return rl_isa_fault(inst, "image resource SW_MODE %u (tiled) is not "
                        "modelled (only 0, linear)", sw_mode);
  }
  if (base_level != 0 || last_level != 0) {
    return rl_isa_fault(inst, "image resource BASE_LEVEL %u LAST_LEVEL %u: "
                        "mip levels are not modelled", base_level,
                        last_level);
  }
  if (d->type != 8u + f->dim) {
    return rl_isa_fault(inst, "image resource TYPE %u does not match the "
                        "instruction's DIM %u (modelled: 8 1D, 9 2D)",
                        d->type, f->dim);
  }
  if (d->pitch < d->width) {
    return rl_isa_fault(inst, "image resource PITCH %u is below WIDTH %u",
                        d->pitch, d->width);
  }
  for (uint32_t c = 0; c < 4; ++c) {
    d->sel[c] = (t[3] >> (3 * c)) & 7;
    if (d->sel[c] == 2 || d->sel[c] == 3 ||
        (d->sel[c] >= 4 && d->sel[c] - 4 >= d->channels)) {
      return rl_isa_fault(inst, "image resource DST_SEL %u of component %u "
                          "is not modelled for a %u-channel format",
                          d->sel[c], c, d->channels);
    }
  }
  uint32_t mag = (s[2] >> 20) & 3, min = (s[2] >> 22) & 3;
  if (mag != 0 || min != 0) {
    return rl_isa_fault(inst, "sampler XY_MAG_FILTER %u XY_MIN_FILTER %u: "
                        "only point filtering (0) is modelled; linear "
                        "filtering's fixed-point weights are not publicly "
                        "specified", mag, min);
  }
  for (uint32_t a = 0; a <= f->dim; ++a) {
    d->clamp[a] = (s[0] >> (3 * a)) & 7;
    if (d->clamp[a] != 0 && d->clamp[a] != 2) {
      return rl_isa_fault(inst, "sampler CLAMP_%c %u is not modelled "
                          "(modelled: 0 wrap, 2 clamp to last texel)",
                          "XY"[a], d->clamp[a]);
    }
  }
  d->unnormalized = f->unorm || ((s[0] >> 15) & 1);
  return RL_OK;
}

// The texel index along one axis of |size| texels for coordinate |c|.
uint32_t rl_isa_image_texel(float c, uint32_t size, bool unnormalized,
                            uint32_t clamp) {
  double u = unnormalized ? (double)c : (double)c * size;
  if (!(u == u)) u = 0;  // NaN: texel 0
  if (u > 1e9) u = 1e9;
  if (u < -1e9) u = -1e9;
  double snapped = floor(u * 256.0 + 0.5) / 256.0;
  int64_t i = (int64_t)floor(snapped);
  if (clamp == 0) {
    i %= (int64_t)size;
    if (i < 0) i += size;
  } else {
    if (i < 0) i = 0;
    if (i >= (int64_t)size) i = size - 1;
  }
  return (uint32_t)i;
}

static rl_status_t rl_isa_exec_image_sample(rl_isa_wave_t* wave,
                                            const rl_isa_inst_t* inst) {
  uint32_t exec = wave->sgpr[RL_ISA_SRC_EXEC];
  if (exec == 0) return RL_OK;
  rl_isa_image_fields_t f;
  rl_isa_image_fields(inst, &f);
  rl_isa_image_desc_t d;
  RL_RETURN_IF_ERROR(rl_isa_image_decode(wave, inst, &f, &d));
  while (exec) {
    uint32_t lane = (uint32_t)__builtin_ctz(exec);
    exec &= exec - 1;
    float x, y = 0;
    memcpy(&x, &wave->vgpr[f.vaddr[0]][lane], 4);
    if (f.dim == 1) memcpy(&y, &wave->vgpr[f.vaddr[1]][lane], 4);
    uint32_t ix = rl_isa_image_texel(x, d.width, d.unnormalized, d.clamp[0]);
    uint32_t iy = f.dim == 1 ? rl_isa_image_texel(y, d.height, d.unnormalized,
                                                  d.clamp[1])
                             : 0;
    uint64_t address = d.base + ((uint64_t)iy * d.pitch + ix) * d.bytes;
    uint8_t raw[16];
    RL_RETURN_IF_ERROR(rl_sim_wg_load_with(wave->group->wg, address, raw,
                                           d.bytes, 0));
    uint32_t texel[4] = {0, 0, 0, 0};
    for (uint32_t c = 0; c < d.channels; ++c) {
      const uint8_t* b = raw + c * d.f->bytes;
      if (d.f->bytes == 4) {
        memcpy(&texel[c], b, 4);
      } else if (d.f->bytes == 2) {
        uint16_t v = (uint16_t)(b[0] | b[1] << 8);
        texel[c] = d.f->sign ? (uint32_t)(int32_t)(int16_t)v : v;
      } else {
        texel[c] = d.f->sign ? (uint32_t)(int32_t)(int8_t)b[0] : b[0];
      }
    }
    uint32_t out = f.vdata;
    for (uint32_t c = 0; c < 4; ++c) {
      if (!((f.dmask >> c) & 1)) continue;
      uint32_t value = d.sel[c] >= 4   ? texel[d.sel[c] - 4]
                       : d.sel[c] == 1 ? (d.f->integer ? 1u : 0x3f800000u)
                                       : 0u;
      wave->vgpr[out++ & 255][lane] = value;
    }
  }
  return RL_OK;
}

static const rl_isa_op_t rl_isa_mimg_ops[] = {
    RL_ISA_OP(RL_ISA_IMAGE_SAMPLE_LZ, "image_sample_lz", 0, RL_ISA_T_NONE,
              RL_ISA_T_NONE, RL_ISA_T_NONE, RL_ISA_T_NONE, 0,
              rl_isa_exec_image_sample, NULL),
};
RL_ISA_TABLE(rl_isa_table_mimg, rl_isa_mimg_ops);

bool rl_isa_decode_mimg(const uint32_t* w, uint32_t count, uint32_t features,
                        rl_isa_inst_t* inst) {
  (void)features;
  inst->encoding = RL_ISA_ENC_MIMG;
  bool gfx12 = inst->gfx12;
  inst->opcode = gfx12 ? (w[0] >> 14) & 0xff : (w[0] >> 18) & 0xff;
  uint32_t dwords = gfx12 ? 3 : 2;
  // gfx12 VIMAGE ([31:26]=110100) shares the opcode space with other
  // instructions (image_load is 0 there): only VSAMPLE is looked up.
  bool sample_family = !gfx12 || (w[0] >> 26) == 0x39;
  if (!gfx12 && (w[0] & 1)) return false;  // NSA: length not decoded
  if (count < dwords) return false;
  for (uint32_t i = 1; i < dwords; ++i) inst->words[i] = w[i];
  inst->size = (uint8_t)(dwords * 4);
  if (!sample_family) return false;
  inst->op = rl_isa_table_find(&rl_isa_table_mimg, inst->opcode);
  return inst->op != NULL;
}

uint32_t rl_isa_image_vgpr_end(const rl_isa_inst_t* inst) {
  rl_isa_image_fields_t f;
  rl_isa_image_fields(inst, &f);
  uint32_t end = f.vdata + (uint32_t)__builtin_popcount(f.dmask);
  for (uint32_t a = 0; a <= (f.dim & 1); ++a) {
    if (f.vaddr[a] + 1 > end) end = f.vaddr[a] + 1;
  }
  return end;
}
