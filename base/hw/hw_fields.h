// base/hw/hw_fields.h — helpers shared by the per-family hardware tables
// (base/hw/gfx11_registers.h, gfx12_registers.h) and the facts that are
// the same on every supported family.
//
// base/hw/ holds hardware facts only, as header-only data: it depends on
// nothing and every module may use it (CMakeLists.txt layering).
#ifndef REDLINE_HW_HW_FIELDS_H_
#define REDLINE_HW_HW_FIELDS_H_

#include <stdint.h>

// Expands one field F(R, FIELD, shift, width) of a table into the enum
// constants R__FIELD__SHIFT and R__FIELD__WIDTH.
#define RL_HW_FIELD_CONSTANTS(R, FIELD, SHIFT, WIDTH) \
  R##__##FIELD##__SHIFT = (SHIFT), R##__##FIELD##__WIDTH = (WIDTH),

// The mask of a field from its constants: RL_HW_MASK(RL_GFX11_X__F).
#define RL_HW_MASK(RF) \
  ((uint32_t)(0xFFFFFFFFull >> (32 - (RF##__WIDTH))) << (RF##__SHIFT))

// The value of field RF in |value|: RL_HW_GET(RL_GFX11_X__F, value).
#define RL_HW_GET(RF, value) (((uint32_t)(value)&RL_HW_MASK(RF)) >> (RF##__SHIFT))

// COMPUTE_PGM_RSRC2.LDS_SIZE counts LDS in granules of 128 dwords on
// gfx7..gfx12 (LLVM AMDGPUUsage, the compute_pgm_rsrc2 table; radeonsi
// rounds with align(lds, 512) >> 9). The one definition the lowering and
// the simulator use.
#define RL_HW_LDS_GRANULE_BYTES 512u

#endif  // REDLINE_HW_HW_FIELDS_H_
