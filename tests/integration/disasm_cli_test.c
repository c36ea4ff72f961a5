// Integration tests of `redline disasm`: PM4 and AQL raw files written
// here (PM4 with the builders) decode to the expected text and JSON (parsed
// with cJSON); malformed files exit 3 naming the dword offset; usage errors
// exit 2.
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "tests/support/test_support.h"

#include "aql/aql_packet.h"
#include "pm4/pm4_builder.h"

static char rl_test_dir[256];

static int rl_run(const char* format, ...)
    __attribute__((format(printf, 1, 2)));
static int rl_run(const char* format, ...) {
  char args[1024];
  va_list ap;
  va_start(ap, format);
  vsnprintf(args, sizeof(args), format, ap);
  va_end(ap);
  return rl_test_run_cli(RL_REDLINE_BIN, rl_test_dir, NULL, args);
}

static char* rl_slurp(const char* name) {
  return rl_test_slurp(rl_test_dir, name, NULL);
}

// Writes |count| dwords little-endian.
static void rl_write_dwords(const char* name, const uint32_t* dwords,
                            uint32_t count) {
  char path[512];
  snprintf(path, sizeof(path), "%s/%s", rl_test_dir, name);
  FILE* file = fopen(path, "wb");
  assert_non_null(file);
  for (uint32_t i = 0; i < count; ++i) {
    uint8_t b[4] = {(uint8_t)dwords[i], (uint8_t)(dwords[i] >> 8),
                    (uint8_t)(dwords[i] >> 16), (uint8_t)(dwords[i] >> 24)};
    assert_int_equal(fwrite(b, 1, 4, file), 4);
  }
  fclose(file);
}

static bool rl_file_has(const char* name, const char* needle) {
  char* text = rl_slurp(name);
  bool found = strstr(text, needle) != NULL;
  if (!found) fprintf(stderr, "%s was: %s\n", name, text);
  free(text);
  return found;
}

static int rl_setup(void** state) {
  (void)state;
  snprintf(rl_test_dir, sizeof(rl_test_dir), "/tmp/rl_disasm_test.XXXXXX");
  assert_non_null(mkdtemp(rl_test_dir));
  return 0;
}

static int rl_teardown(void** state) {
  (void)state;
  char command[512];
  snprintf(command, sizeof(command), "rm -rf %s", rl_test_dir);
  return system(command) == 0 ? 0 : -1;
}

// A small dispatch stream: entry acquire, PGM, RSRC1/2, USER_DATA,
// DISPATCH_DIRECT, CS_PARTIAL_FLUSH, terminal RELEASE_MEM. Returns its dword
// count.
static uint32_t rl_build_stream(const char* processor, uint32_t* s,
                                uint32_t capacity) {
  const rl_pm4_family_t* family = NULL;
  assert_null(rl_pm4_family_for_processor(processor, &family));
  rl_pm4_builder_t b;
  rl_pm4_builder_init(&b, family, s, capacity);
  const uint32_t pgm[2] = {0x00012345u, 0};
  const uint32_t rsrc[2] = {0x20AF0004u, 0x0000008Cu};
  const uint32_t user[2] = {0x1000u, 0x7Fu};
  rl_pm4_release_mem_t release = {.event_type = 0x14,
                                  .event_index = 5,
                                  .gcr = family->release_gcr_writeback,
                                  .data_sel = 1,
                                  .address = 0x7F0000001000ull,
                                  .data = 1};
  assert_true(rl_pm4_emit_acquire_mem(&b, family->gcr_acquire_entry, NULL));
  assert_true(rl_pm4_emit_set_sh_reg(&b, family->regs.pgm_lo, pgm, 2, NULL));
  assert_true(
      rl_pm4_emit_set_sh_reg(&b, family->regs.pgm_rsrc1, rsrc, 2, NULL));
  assert_true(
      rl_pm4_emit_set_sh_reg(&b, family->regs.user_data_0, user, 2, NULL));
  assert_true(rl_pm4_emit_dispatch_direct(&b, 16, 1, 1, 0x8045, NULL));
  assert_true(rl_pm4_emit_cs_partial_flush(&b, NULL));
  assert_true(rl_pm4_emit_release_mem(&b, &release, NULL));
  return b.count;
}

static void test_pm4_text(void** state) {
  (void)state;
  uint32_t s[128];
  uint32_t n = rl_build_stream("gfx1100", s, 128);
  rl_write_dwords("stream.pm4", s, n);
  assert_int_equal(rl_run("disasm --pm4 %s/stream.pm4", rl_test_dir), 0);
  assert_true(rl_file_has("out.txt", "0x0000 ACQUIRE_MEM"));
  assert_true(rl_file_has("out.txt", "GCR_CNTL=0x4381 (GLI_INV=1 GLK_INV=1"));
  assert_true(rl_file_has(
      "out.txt", "COMPUTE_PGM_RSRC2=0x0000008c (USER_SGPR=6 TGID_X_EN=1)"));
  assert_true(rl_file_has("out.txt", "COMPUTE_USER_DATA_1=0x0000007f"));
  assert_true(rl_file_has("out.txt", "DISPATCH_DIRECT DIM_X=0x10"));
  assert_true(rl_file_has("out.txt", "EVENT_TYPE=7(CS_PARTIAL_FLUSH)"));
  assert_true(rl_file_has("out.txt", "RELEASE_MEM EVENT_TYPE=0x14"));
  // gfx1201 tables: the same stream names gfx12's fields.
  n = rl_build_stream("gfx1201", s, 128);
  rl_write_dwords("stream12.pm4", s, n);
  assert_int_equal(
      rl_run("disasm --pm4 %s/stream12.pm4 --target gfx1201", rl_test_dir), 0);
  assert_true(rl_file_has(
      "out.txt", "GCR_CNTL=0x4181 (GLI_INV=1 GLK_INV=1 GLV_INV=1 GL2_INV=1)"));
}

static cJSON* rl_parse_out(void) {
  char* text = rl_slurp("out.txt");
  cJSON* root = cJSON_Parse(text);
  if (!root) fprintf(stderr, "not JSON: %s\n", text);
  free(text);
  assert_non_null(root);
  return root;
}

static void test_pm4_json(void** state) {
  (void)state;
  uint32_t s[128];
  uint32_t n = rl_build_stream("gfx1151", s, 128);
  rl_write_dwords("stream.pm4", s, n);
  assert_int_equal(
      rl_run("disasm --pm4 %s/stream.pm4 --target gfx1151 --json", rl_test_dir),
      0);
  cJSON* root = rl_parse_out();
  assert_true(cJSON_IsArray(root));
  assert_int_equal(cJSON_GetArraySize(root), 7);
  static const struct {
    uint32_t offset, opcode, ndw;
    const char* name;
  } expected[] = {
      {0, 0x58, 8, "ACQUIRE_MEM"},      {8, 0x76, 4, "SET_SH_REG"},
      {12, 0x76, 4, "SET_SH_REG"},      {16, 0x76, 4, "SET_SH_REG"},
      {20, 0x15, 5, "DISPATCH_DIRECT"}, {25, 0x46, 2, "EVENT_WRITE"},
      {27, 0x49, 8, "RELEASE_MEM"}};
  for (int i = 0; i < 7; ++i) {
    cJSON* p = cJSON_GetArrayItem(root, i);
    assert_int_equal(cJSON_GetObjectItem(p, "offset")->valuedouble,
                     expected[i].offset);
    assert_int_equal(cJSON_GetObjectItem(p, "opcode")->valuedouble,
                     expected[i].opcode);
    assert_int_equal(cJSON_GetObjectItem(p, "ndw")->valuedouble,
                     expected[i].ndw);
    assert_string_equal(cJSON_GetObjectItem(p, "name")->valuestring,
                        expected[i].name);
  }
  cJSON* regs = cJSON_GetObjectItem(cJSON_GetArrayItem(root, 2), "regs");
  assert_int_equal(cJSON_GetArraySize(regs), 2);
  cJSON* rsrc2 = cJSON_GetArrayItem(regs, 1);
  assert_string_equal(cJSON_GetObjectItem(rsrc2, "name")->valuestring,
                      "COMPUTE_PGM_RSRC2");
  assert_int_equal(cJSON_GetObjectItem(rsrc2, "offset")->valuedouble, 0x213);
  assert_int_equal(cJSON_GetObjectItem(rsrc2, "value")->valuedouble, 0x8C);
  assert_int_equal(
      cJSON_GetObjectItem(cJSON_GetObjectItem(rsrc2, "fields"), "USER_SGPR")
          ->valuedouble,
      6);
  cJSON* user = cJSON_GetArrayItem(
      cJSON_GetObjectItem(cJSON_GetArrayItem(root, 3), "regs"), 0);
  assert_string_equal(cJSON_GetObjectItem(user, "name")->valuestring,
                      "COMPUTE_USER_DATA_0");
  assert_int_equal(cJSON_GetObjectItem(user, "offset")->valuedouble, 0x240);
  cJSON* dispatch = cJSON_GetArrayItem(root, 4);
  assert_int_equal(
      cJSON_GetObjectItem(cJSON_GetObjectItem(dispatch, "fields"), "DIM_X")
          ->valuedouble,
      16);
  assert_int_equal(cJSON_GetObjectItem(
                       cJSON_GetObjectItem(dispatch, "initiator"), "CS_W32_EN")
                       ->valuedouble,
                   1);
  cJSON* release = cJSON_GetArrayItem(root, 6);
  assert_int_equal(
      cJSON_GetObjectItem(cJSON_GetObjectItem(release, "fields"), "DATA_SEL")
          ->valuedouble,
      1);
  assert_int_equal(
      cJSON_GetObjectItem(cJSON_GetObjectItem(release, "gcr"), "GL2_WB")
          ->valuedouble,
      1);
  assert_string_equal(cJSON_GetObjectItem(release, "event")->valuestring,
                      "CACHE_FLUSH_AND_INV_TS_EVENT");
  cJSON_Delete(root);
}

static void test_pm4_malformed_exit_3(void** state) {
  (void)state;
  uint32_t s[128];
  uint32_t n = rl_build_stream("gfx1100", s, 128);
  s[n++] = 0xC0041502u;  // DISPATCH_DIRECT claiming 6 dwords
  for (int i = 0; i < 5; ++i) s[n++] = 1;
  rl_write_dwords("bad.pm4", s, n);
  assert_int_equal(rl_run("disasm --pm4 %s/bad.pm4", rl_test_dir), 3);
  assert_true(rl_file_has(
      "err.txt", "dword 35: DISPATCH_DIRECT has 6 dwords, expected 5"));
  assert_true(rl_file_has("out.txt", "RELEASE_MEM"));  // listed up to there
  assert_int_equal(rl_run("disasm --pm4 %s/bad.pm4 --json", rl_test_dir), 3);
  // Truncated: the last packet runs past the end.
  rl_write_dwords("short.pm4", s, 30);
  assert_int_equal(rl_run("disasm --pm4 %s/short.pm4", rl_test_dir), 3);
  assert_true(
      rl_file_has("err.txt", "dword 27: RELEASE_MEM packet of 8 dwords"));
  // Not a whole number of dwords.
  char path[512];
  snprintf(path, sizeof(path), "%s/odd.pm4", rl_test_dir);
  FILE* f = fopen(path, "wb");
  assert_non_null(f);
  fwrite("\x00\x10\xff\xff\x01", 1, 5, f);
  fclose(f);
  assert_int_equal(rl_run("disasm --pm4 %s/odd.pm4", rl_test_dir), 3);
  assert_true(rl_file_has("err.txt", "dword 1: file size 5"));
}

static void rl_write_aql(const char* name, const void* packets, size_t count) {
  char path[512];
  snprintf(path, sizeof(path), "%s/%s", rl_test_dir, name);
  FILE* file = fopen(path, "wb");
  assert_non_null(file);
  assert_int_equal(fwrite(packets, RL_AQL_PACKET_SIZE, count, file), count);
  fclose(file);
}

static void rl_fill_aql(uint8_t (*packets)[64]) {
  rl_aql_dispatch_packet_t d = {
      .header =
          rl_aql_header(RL_AQL_PACKET_TYPE_KERNEL_DISPATCH, 1,
                        RL_AQL_FENCE_SCOPE_AGENT, RL_AQL_FENCE_SCOPE_AGENT),
      .setup = 1,
      .workgroup_size_x = 64,
      .workgroup_size_y = 1,
      .workgroup_size_z = 1,
      .grid_size_x = 1024,
      .grid_size_y = 1,
      .grid_size_z = 1,
      .group_segment_size = 512,
      .kernel_object = 0x7F0000010000ull,
      .kernarg_address = 0x7F0000020000ull,
      .completion_signal = 0x7F0000030000ull};
  rl_aql_pm4_ib_packet_t ib = {
      .header =
          rl_aql_header(RL_AQL_PACKET_TYPE_VENDOR_SPECIFIC, 0,
                        RL_AQL_FENCE_SCOPE_SYSTEM, RL_AQL_FENCE_SCOPE_SYSTEM),
      .vendor_format = RL_AQL_VENDOR_FORMAT_PM4_IB,
      .ib_jump_cmd = {0xC0023F00u, 0x00100000u, 0x7F, 0x40u | (1u << 23)},
      .dw_cnt_remain = 0xA};
  memset(packets, 0, 3 * 64);
  memcpy(packets[0], &d, 64);
  memcpy(packets[1], &ib, 64);
  packets[2][0] = RL_AQL_PACKET_TYPE_INVALID;  // unpublished slot: listed
}

static void test_aql_text_and_json(void** state) {
  (void)state;
  uint8_t packets[3][64];
  rl_fill_aql(packets);
  rl_write_aql("ring.aql", packets, 3);
  assert_int_equal(rl_run("disasm --aql %s/ring.aql", rl_test_dir), 0);
  assert_true(rl_file_has("out.txt", "0x0000 dispatch"));
  assert_true(rl_file_has("out.txt", "0x0010 pm4_ib"));
  assert_int_equal(rl_run("disasm --aql %s/ring.aql --json", rl_test_dir), 0);
  cJSON* root = rl_parse_out();
  assert_int_equal(cJSON_GetArraySize(root), 3);
  cJSON* d = cJSON_GetArrayItem(root, 0);
  assert_string_equal(cJSON_GetObjectItem(d, "type")->valuestring, "dispatch");
  assert_int_equal(
      cJSON_GetObjectItem(d, "header")->valuedouble,
      0x0B02);  // CLR dispatchPacketHeader_ (pm4_reference.md §4.2)
  assert_int_equal(cJSON_GetObjectItem(d, "setup")->valuedouble, 1);
  assert_int_equal(
      cJSON_GetArrayItem(cJSON_GetObjectItem(d, "workgroup_size"), 0)
          ->valuedouble,
      64);
  assert_int_equal(
      cJSON_GetArrayItem(cJSON_GetObjectItem(d, "grid_size"), 0)->valuedouble,
      1024);
  assert_int_equal(cJSON_GetObjectItem(d, "group_segment_size")->valuedouble,
                   512);
  assert_int_equal(cJSON_GetObjectItem(d, "private_segment_size")->valuedouble,
                   0);
  assert_true(cJSON_GetObjectItem(d, "kernel_object")->valuedouble ==
              (double)0x7F0000010000ull);
  assert_true(cJSON_GetObjectItem(d, "kernarg_address")->valuedouble ==
              (double)0x7F0000020000ull);
  assert_true(cJSON_GetObjectItem(d, "completion_signal")->valuedouble ==
              (double)0x7F0000030000ull);
  cJSON* v = cJSON_GetArrayItem(root, 1);
  assert_string_equal(cJSON_GetObjectItem(v, "type")->valuestring, "vendor");
  assert_true(cJSON_GetObjectItem(v, "ib_address")->valuedouble ==
              (double)0x7F00100000ull);
  assert_int_equal(cJSON_GetObjectItem(v, "ib_size")->valuedouble, 0x40);
  assert_string_equal(
      cJSON_GetObjectItem(cJSON_GetArrayItem(root, 2), "type")->valuestring,
      "invalid");
  cJSON_Delete(root);
}

static void test_aql_malformed_exit_3(void** state) {
  (void)state;
  uint8_t packets[3][64];
  rl_fill_aql(packets);
  packets[1][1] |= 0x20;  // header bit 13: reserved
  rl_write_aql("bad.aql", packets, 2);
  assert_int_equal(rl_run("disasm --aql %s/bad.aql", rl_test_dir), 3);
  assert_true(rl_file_has("err.txt", "dword 16: AQL packet 1"));
  char path[512];
  snprintf(path, sizeof(path), "%s/short.aql", rl_test_dir);
  FILE* f = fopen(path, "wb");
  assert_non_null(f);
  fwrite(packets, 1, 100, f);
  fclose(f);
  assert_int_equal(rl_run("disasm --aql %s/short.aql --json", rl_test_dir), 3);
  assert_true(
      rl_file_has("err.txt", "not a whole number of 64-byte AQL packets"));
}

static void test_usage_errors(void** state) {
  (void)state;
  assert_int_equal(rl_run("disasm"), 2);
  assert_int_equal(rl_run("disasm %s/stream.pm4", rl_test_dir), 2);
  assert_int_equal(rl_run("disasm --pm4 --aql %s/stream.pm4", rl_test_dir), 2);
  assert_int_equal(rl_run("disasm --aql --target gfx1100 x"), 2);
  assert_int_equal(rl_run("disasm --pm4 x --bogus"), 2);
  assert_int_equal(rl_run("disasm --pm4 /nonexistent/file"), 3);
  // An unknown --target is a usage error, found before the file is read.
  assert_int_equal(
      rl_run("disasm --pm4 %s/stream.pm4 --target gfx1030", rl_test_dir), 2);
  assert_true(rl_file_has("err.txt", "'gfx1030'"));
  assert_int_equal(rl_run("help disasm"), 0);
  assert_true(rl_file_has("out.txt", "--processor GFX"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pm4_text),
      cmocka_unit_test(test_pm4_json),
      cmocka_unit_test(test_pm4_malformed_exit_3),
      cmocka_unit_test(test_aql_text_and_json),
      cmocka_unit_test(test_aql_malformed_exit_3),
      cmocka_unit_test(test_usage_errors),
  };
  return cmocka_run_group_tests(tests, rl_setup, rl_teardown);
}
