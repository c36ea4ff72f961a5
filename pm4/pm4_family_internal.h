// pm4/pm4_family_internal.h — the per-family tables, defined one family per
// file (pm4_family_gfx11.c, pm4_family_gfx12.c) and selected by
// rl_pm4_family_for_processor() in pm4_family.c. Private to rl_pm4.
#ifndef REDLINE_PM4_PM4_FAMILY_INTERNAL_H_
#define REDLINE_PM4_PM4_FAMILY_INTERNAL_H_

#include "pm4/pm4_family.h"

#define RL_PM4_COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))
#define RL_PM4_REG(name, index, fields) \
  {(name), (index), (uint32_t)RL_PM4_COUNT_OF(fields), (fields)}
// One row of a field array from a base/hw table entry F(R, FIELD, shift,
// width).
#define RL_PM4_FIELD_ROW(R, FIELD, SHIFT, WIDTH) {#FIELD, (SHIFT), (WIDTH)},

extern const rl_pm4_family_t rl_pm4_family_gfx11;
extern const rl_pm4_family_t rl_pm4_family_gfx12;

#endif  // REDLINE_PM4_PM4_FAMILY_INTERNAL_H_
