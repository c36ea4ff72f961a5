// The per-family register tables (base/hw/gfx11_registers.h,
// gfx12_registers.h, expanded by pm4/pm4_family_gfx1*.c) against values
// transcribed from AMD's own headers in the Linux kernel
// (tests/data/amd_registers/gc_11_0_0.txt, gc_12_0_0.txt; each file names
// its source). For every register of a table: the dword index is the
// header's offset + 0x1260 (the GC segment-0 base), and its fields are
// exactly the header's fields with the same shift and mask. For gfx11 also
// the ACQUIRE_MEM / RELEASE_MEM GCR_CNTL fields against nvd.h, and for both
// families the compile-time field ids (pm4_family.h) against the rows they
// name.
//
// Negative control: the same comparison on the transcription with one
// value changed must report exactly that value.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pm4/pm4_family.h"

#define RL_HW_GC_BASE 0x1260u
#define RL_HW_MAX_ROWS 512

typedef struct rl_hw_row_s {
  char kind[16];   // reg, field, acquire, release
  char reg[64];
  char field[64];
  uint32_t a;      // offset / shift / bit
  uint32_t mask;   // field mask
} rl_hw_row_t;

typedef struct rl_hw_data_s {
  rl_hw_row_t rows[RL_HW_MAX_ROWS];
  uint32_t count;
} rl_hw_data_t;

static void rl_hw_load(const char* path, rl_hw_data_t* data) {
  FILE* f = fopen(path, "r");
  assert_non_null(f);
  char line[256];
  data->count = 0;
  while (fgets(line, sizeof(line), f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    assert_true(data->count < RL_HW_MAX_ROWS);
    rl_hw_row_t* row = &data->rows[data->count];
    memset(row, 0, sizeof(*row));
    char x[32] = "", y[32] = "";
    int n = sscanf(line, "%15s", row->kind);
    assert_int_equal(n, 1);
    if (strcmp(row->kind, "reg") == 0) {
      n = sscanf(line, "%*s %63s %31s", row->reg, x);
      assert_int_equal(n, 2);
    } else if (strcmp(row->kind, "field") == 0) {
      n = sscanf(line, "%*s %63s %63s %31s %31s", row->reg, row->field, x, y);
      assert_int_equal(n, 4);
      row->mask = (uint32_t)strtoul(y, NULL, 16);  // "0x00000001L"
    } else {
      n = sscanf(line, "%*s %63s %31s", row->field, x);
      assert_int_equal(n, 2);
    }
    row->a = (uint32_t)strtoul(x, NULL, 0);
    data->count++;
  }
  fclose(f);
  assert_true(data->count > 0);
}

static const rl_hw_row_t* rl_hw_find(const rl_hw_data_t* data,
                                     const char* kind, const char* reg,
                                     const char* field) {
  for (uint32_t i = 0; i < data->count; ++i) {
    const rl_hw_row_t* row = &data->rows[i];
    if (strcmp(row->kind, kind) != 0) continue;
    if (reg && strcmp(row->reg, reg) != 0) continue;
    if (field && strcmp(row->field, field) != 0) continue;
    return row;
  }
  return NULL;
}

static uint32_t rl_hw_mask(const rl_pm4_field_t* field) {
  return (uint32_t)(0xFFFFFFFFull >> (32u - field->width)) << field->shift;
}

static const rl_pm4_field_t* rl_hw_table_field(const rl_pm4_register_t* reg,
                                               const char* name) {
  for (uint32_t f = 0; f < reg->field_count; ++f) {
    if (strcmp(reg->fields[f].name, name) == 0) return &reg->fields[f];
  }
  return NULL;
}

// One register: index, every table field, every header field.
static uint32_t rl_hw_compare_register(const rl_pm4_register_t* reg,
                                       const rl_hw_data_t* data) {
  uint32_t mismatches = 0;
  const rl_hw_row_t* row = rl_hw_find(data, "reg", reg->name, NULL);
  if (!row || row->a + RL_HW_GC_BASE != reg->index) {
    printf("  %s: index 0x%04x, header offset %s0x%04x (+ 0x%x)\n", reg->name,
           reg->index, row ? "" : "missing ", row ? row->a : 0,
           RL_HW_GC_BASE);
    return 1;
  }
  for (uint32_t f = 0; f < reg->field_count; ++f) {
    const rl_pm4_field_t* field = &reg->fields[f];
    const rl_hw_row_t* h = rl_hw_find(data, "field", reg->name, field->name);
    if (!h || h->a != field->shift || h->mask != rl_hw_mask(field)) {
      printf("  %s.%s: table shift %u mask 0x%08x, header %s shift %u "
             "mask 0x%08x\n",
             reg->name, field->name, field->shift, rl_hw_mask(field),
             h ? "" : "(missing)", h ? h->a : 0, h ? h->mask : 0);
      mismatches++;
    }
  }
  for (uint32_t i = 0; i < data->count; ++i) {
    const rl_hw_row_t* h = &data->rows[i];
    if (strcmp(h->kind, "field") != 0 || strcmp(h->reg, reg->name) != 0) {
      continue;
    }
    if (!rl_hw_table_field(reg, h->field)) {
      printf("  %s.%s: in the header, not in the table\n", reg->name,
             h->field);
      mismatches++;
    }
  }
  return mismatches;
}

// GCR_CNTL fields the header names (PAL-only fields are not checked here).
static uint32_t rl_hw_compare_gcr(const rl_pm4_register_t* gcr,
                                  const rl_hw_data_t* data, const char* kind,
                                  uint32_t bias, uint32_t* out_checked) {
  uint32_t mismatches = 0;
  for (uint32_t f = 0; f < gcr->field_count; ++f) {
    const rl_pm4_field_t* field = &gcr->fields[f];
    const rl_hw_row_t* h = rl_hw_find(data, kind, NULL, field->name);
    if (!h) continue;
    (*out_checked)++;
    if (h->a != field->shift + bias) {
      printf("  %s GCR_CNTL.%s: table bit %u, header %u\n", kind, field->name,
             field->shift + bias, h->a);
      mismatches++;
    }
  }
  return mismatches;
}

// The compile-time ids resolve to the rows of the same register and name.
static uint32_t rl_hw_compare_ids(const rl_pm4_family_t* family) {
  uint32_t mismatches = 0;
  static const struct {
    rl_pm4_field_id_t id;
    const char* reg;
  } ids[] = {
#define RL_HW_ID_ROW(ID, REG, FIELD) {RL_PM4_FIELD_##ID, #REG},
      RL_PM4_FIELD_IDS(RL_HW_ID_ROW) RL_PM4_FIELD_IDS_GFX12(RL_HW_ID_ROW)
#undef RL_HW_ID_ROW
  };
  for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); ++i) {
    const rl_pm4_field_t* by_id = &family->field[ids[i].id];
    if (by_id->width == 0) continue;  // the family has no such field
    const rl_pm4_register_t* reg =
        rl_pm4_family_register_named(family, ids[i].reg);
    const rl_pm4_field_t* row = reg ? rl_hw_table_field(reg, by_id->name) : NULL;
    if (!row || row->shift != by_id->shift || row->width != by_id->width) {
      printf("  %s id %d (%s.%s) does not match its table row\n",
             family->name, (int)ids[i].id, ids[i].reg, by_id->name);
      mismatches++;
    }
  }
  return mismatches;
}

static uint32_t rl_hw_compare(const rl_pm4_family_t* family,
                              const rl_hw_data_t* data, uint32_t* out_checked) {
  uint32_t mismatches = 0;
  for (uint32_t r = 0; r < family->register_count; ++r) {
    mismatches += rl_hw_compare_register(&family->registers[r], data);
    *out_checked += 1 + family->registers[r].field_count;
  }
  mismatches += rl_hw_compare_gcr(family->acquire_gcr_cntl, data, "acquire", 0,
                                  out_checked);
  mismatches += rl_hw_compare_gcr(family->release_gcr_cntl, data, "release",
                                  12, out_checked);
  mismatches += rl_hw_compare_ids(family);
  return mismatches;
}

static void rl_hw_check_family(const char* processor, const char* path,
                               uint32_t min_gcr_checked) {
  const rl_pm4_family_t* family = NULL;
  assert_int_equal(rl_pm4_family_for_processor(processor, &family), 0);
  static rl_hw_data_t data;
  rl_hw_load(path, &data);
  uint32_t checked = 0;
  uint32_t before_gcr = 0;
  for (uint32_t r = 0; r < family->register_count; ++r) {
    before_gcr += 1 + family->registers[r].field_count;
  }
  uint32_t mismatches = rl_hw_compare(family, &data, &checked);
  printf("%s: %u entries checked against %s, %u mismatches\n", family->name,
         checked, path, mismatches);
  assert_int_equal(mismatches, 0);
  assert_true(checked - before_gcr >= min_gcr_checked);
}

static void test_gfx11_table_matches_linux_gc_11_0_0_headers(void** state) {
  (void)state;
  // nvd.h names every gfx11 ACQUIRE_MEM GCR field but RANGE_IS_PA and every
  // RELEASE_MEM one but GLK_WB (both from PAL): 14 + 10.
  rl_hw_check_family("gfx1100", RL_AMD_REGISTERS_DIR "/gc_11_0_0.txt", 24);
}

static void test_gfx12_table_matches_linux_gc_12_0_0_headers(void** state) {
  (void)state;
  // The gfx12 GCR encodings come from PAL, not the kernel: none checked.
  rl_hw_check_family("gfx1201", RL_AMD_REGISTERS_DIR "/gc_12_0_0.txt", 0);
}

// Negative control: one changed value in the transcription (RSRC1.PRIV's
// shift) and one field the table lacks are each reported.
static void test_compare_reports_a_changed_header_value(void** state) {
  (void)state;
  const rl_pm4_family_t* family = NULL;
  assert_int_equal(rl_pm4_family_for_processor("gfx1100", &family), 0);
  static rl_hw_data_t data;
  rl_hw_load(RL_AMD_REGISTERS_DIR "/gc_11_0_0.txt", &data);
  rl_hw_row_t* priv = NULL;
  for (uint32_t i = 0; i < data.count; ++i) {
    if (strcmp(data.rows[i].reg, "COMPUTE_PGM_RSRC1") == 0 &&
        strcmp(data.rows[i].field, "PRIV") == 0) {
      priv = &data.rows[i];
    }
  }
  assert_non_null(priv);
  priv->a += 1;
  uint32_t checked = 0;
  assert_int_equal(rl_hw_compare(family, &data, &checked), 1);
  priv->a -= 1;
  rl_hw_row_t* extra = &data.rows[data.count++];
  memset(extra, 0, sizeof(*extra));
  strcpy(extra->kind, "field");
  strcpy(extra->reg, "COMPUTE_PGM_RSRC2");
  strcpy(extra->field, "NOT_IN_THE_TABLE");
  checked = 0;
  assert_int_equal(rl_hw_compare(family, &data, &checked), 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_gfx11_table_matches_linux_gc_11_0_0_headers),
      cmocka_unit_test(test_gfx12_table_matches_linux_gc_12_0_0_headers),
      cmocka_unit_test(test_compare_reports_a_changed_header_value),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
