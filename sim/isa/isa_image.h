// sim/isa/isa_image.h — the image (texture) instructions of the ISA
// executor (isa_image.c; private to rl_sim_isa): decode of gfx11 MIMG and
// gfx12 VSAMPLE/VIMAGE, the load-time refusals, and the texel addressing
// the unit test checks against a host computation.
#ifndef REDLINE_SIM_ISA_ISA_IMAGE_H_
#define REDLINE_SIM_ISA_ISA_IMAGE_H_

#include <stdbool.h>
#include <stdint.h>

#include "sim/isa/isa_inst.h"

// Decodes a gfx11 MIMG (|inst|->gfx12 false) or gfx12 VSAMPLE/VIMAGE
// instruction: family, opcode, length (0 for gfx11 NSA forms, whose length
// is not decoded) and, for image_sample_lz, the table entry. True when the
// opcode is modelled.
bool rl_isa_decode_mimg(const uint32_t* words, uint32_t count,
                        uint32_t features, rl_isa_inst_t* inst);

// Why |inst| (an image instruction) cannot run, naming the field and its
// value; NULL when it can.
const char* rl_isa_image_reason(const rl_isa_inst_t* inst);

// The modelled image opcodes (image_sample_lz), for docs/isa-coverage.md.
extern const rl_isa_table_t rl_isa_table_mimg;

// One past the highest VGPR |inst| (an image instruction) names.
uint32_t rl_isa_image_vgpr_end(const rl_isa_inst_t* inst);

// The texel index along an axis of |size| texels that point sampling picks
// for coordinate |c|: c * size (or c when |unnormalized|) rounded to 1/256
// of a texel, floored, then wrapped (|clamp| 0) or clamped to the last
// texel (2).
uint32_t rl_isa_image_texel(float c, uint32_t size, bool unnormalized,
                            uint32_t clamp);

#endif  // REDLINE_SIM_ISA_ISA_IMAGE_H_
