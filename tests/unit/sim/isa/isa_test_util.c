// Helpers of the ISA executor tests (isa_test_util.h).
#include "tests/unit/sim/isa/isa_test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "sim/isa/isa_inst.h"

// Writes |lines| to a fresh temporary file; returns its path in |path|.
static void rl_isa_test_write_lines(const char* const* lines, uint32_t count,
                                    char* path) {
  strcpy(path, "/tmp/rl_isa_test_XXXXXX");
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE* file = fdopen(fd, "w");
  assert_non_null(file);
  for (uint32_t i = 0; i < count; ++i) fprintf(file, "%s\n", lines[i]);
  fclose(file);
}

static bool rl_isa_test_parse_encoding(const char* text,
                                       rl_isa_encoded_t* out);

void rl_isa_test_disassemble_words(const char* cpu,
                                   const rl_isa_encoded_t* items,
                                   uint32_t count, char (*out)[192]) {
  char path[64];
  strcpy(path, "/tmp/rl_isa_test_XXXXXX");
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE* file = fdopen(fd, "w");
  assert_non_null(file);
  for (uint32_t i = 0; i < count; ++i) {
    for (uint32_t w = 0; w < items[i].count; ++w) {
      for (uint32_t b = 0; b < 4; ++b) {
        fprintf(file, "%s0x%02x", w || b ? "," : "",
                (items[i].words[w] >> (8 * b)) & 0xff);
      }
    }
    fprintf(file, "\n");
    out[i][0] = '\0';
  }
  fclose(file);
  char command[512];
  snprintf(command, sizeof(command),
           "%s --disassemble -show-encoding -triple=amdgcn-amd-amdhsa "
           "-mcpu=%s %s 2>/dev/null",
           RL_LLVM_MC, cpu, path);
  FILE* pipe = popen(command, "r");
  assert_non_null(pipe);
  char text[1024];
  uint32_t next = 0;
  while (fgets(text, sizeof(text), pipe)) {
    rl_isa_encoded_t encoded;
    if (!rl_isa_test_parse_encoding(text, &encoded)) continue;
    // Items llvm-mc rejected print nothing: match by encoding, in order.
    for (uint32_t i = next; i < count; ++i) {
      if (items[i].count != encoded.count ||
          memcmp(items[i].words, encoded.words, 4 * encoded.count) != 0) {
        continue;
      }
      const char* start = text;
      while (*start == ' ' || *start == '\t') ++start;
      const char* end = strstr(start, " ; encoding");
      size_t length = end ? (size_t)(end - start) : strlen(start);
      while (length && (start[length - 1] == ' ')) --length;
      if (length > 191) length = 191;
      memcpy(out[i], start, length);
      out[i][length] = '\0';
      next = i + 1;
      break;
    }
  }
  pclose(pipe);
  unlink(path);
}

// Parses "; encoding: [0x..,0x..]" into dwords; false when absent.
static bool rl_isa_test_parse_encoding(const char* text,
                                       rl_isa_encoded_t* out) {
  const char* at = strstr(text, "encoding: [");
  if (at == NULL) return false;
  at += strlen("encoding: [");
  uint8_t bytes[16];
  uint32_t n = 0;
  while (*at && *at != ']' && n < sizeof(bytes)) {
    bytes[n++] = (uint8_t)strtoul(at, (char**)&at, 16);
    if (*at == ',') ++at;
  }
  assert_int_equal(n % 4, 0);
  memset(out, 0, sizeof(*out));
  out->count = n / 4;
  memcpy(out->words, bytes, n);
  return true;
}

static uint32_t rl_isa_test_run_mc(const char* cpu, const char* path,
                                   rl_isa_encoded_t* out, uint32_t capacity) {
  char command[512];
  snprintf(command, sizeof(command),
           "%s -triple=amdgcn-amd-amdhsa -mcpu=%s -show-encoding %s "
           "2>/dev/null",
           RL_LLVM_MC, cpu, path);
  FILE* pipe = popen(command, "r");
  assert_non_null(pipe);
  char text[1024];
  uint32_t count = 0;
  while (fgets(text, sizeof(text), pipe)) {
    rl_isa_encoded_t encoded;
    if (!rl_isa_test_parse_encoding(text, &encoded)) continue;
    if (count < capacity) out[count] = encoded;
    ++count;
  }
  pclose(pipe);
  return count;
}

void rl_isa_test_assemble(const char* cpu, const char* line,
                          rl_isa_encoded_t* out) {
  char path[64];
  rl_isa_test_write_lines(&line, 1, path);
  uint32_t count = rl_isa_test_run_mc(cpu, path, out, 1);
  unlink(path);
  if (count != 1) fail_msg("llvm-mc -mcpu=%s rejected \"%s\"", cpu, line);
}

void rl_isa_test_assemble_batch(const char* cpu, const char* const* lines,
                                uint32_t count, rl_isa_encoded_t* out) {
  char path[64];
  rl_isa_test_write_lines(lines, count, path);
  uint32_t got = rl_isa_test_run_mc(cpu, path, out, count);
  unlink(path);
  if (got == count) return;
  for (uint32_t i = 0; i < count; ++i) {  // name the rejected line
    rl_isa_test_assemble(cpu, lines[i], &out[i]);
  }
  fail_msg("llvm-mc produced %u encodings for %u lines", got, count);
}

// "\tv_add_f32_e32 v2, v2, v3   // 000000002A84: 06040702" -> fields.
static bool rl_isa_test_parse_listing(const char* text, rl_isa_listed_t* out) {
  if (text[0] != '\t') return false;
  const char* comment = strstr(text, "// ");
  if (comment == NULL) return false;
  memset(out, 0, sizeof(*out));
  sscanf(text + 1, "%63s", out->mnemonic);
  const char* dual = strstr(text, "::");
  if (dual && dual < comment) sscanf(dual + 2, "%63s", out->mnemonic_y);
  char* end = NULL;
  out->address = strtoull(comment + 3, &end, 16);
  if (end == NULL || *end != ':') return false;
  const char* at = end + 1;
  while (out->count < 4) {
    while (*at == ' ') ++at;
    if (!((*at >= '0' && *at <= '9') || (*at >= 'A' && *at <= 'F'))) break;
    out->words[out->count++] = (uint32_t)strtoul(at, &end, 16);
    at = end;
  }
  return out->count > 0;
}

rl_isa_listed_t* rl_isa_test_disassemble(const char* cpu, const char* path,
                                         uint32_t* out_count) {
  char command[1024];
  snprintf(command, sizeof(command), "%s -d --mcpu=%s %s 2>/dev/null",
           RL_LLVM_OBJDUMP, cpu, path);
  FILE* pipe = popen(command, "r");
  assert_non_null(pipe);
  uint32_t count = 0, capacity = 1024;
  rl_isa_listed_t* list = malloc(capacity * sizeof(*list));
  assert_non_null(list);
  char text[1024];
  while (fgets(text, sizeof(text), pipe)) {
    if (count == capacity) {
      capacity *= 2;
      list = realloc(list, capacity * sizeof(*list));
      assert_non_null(list);
    }
    if (rl_isa_test_parse_listing(text, &list[count])) ++count;
  }
  assert_int_equal(pclose(pipe), 0);
  *out_count = count;
  return list;
}

static uint32_t rl_isa_test_encoding(const char* name) {
  for (uint32_t e = 0; e < RL_ISA_ENC_COUNT; ++e) {
    if (strcmp(rl_isa_encoding_name(e), name) == 0) return e;
  }
  fail_msg("unknown encoding %s", name);
  return 0;
}

uint32_t rl_isa_test_load_names(const char* path, rl_isa_name_line_t* out,
                                uint32_t capacity) {
  FILE* file = fopen(path, "r");
  assert_non_null(file);
  char text[256];
  uint32_t count = 0;
  while (fgets(text, sizeof(text), file)) {
    if (text[0] == '#' || text[0] == '\n') continue;
    assert_true(count < capacity);
    rl_isa_name_line_t* line = &out[count++];
    char family[16];
    int used = 0;
    assert_int_equal(sscanf(text, "%15s %x %n", family, &line->opcode, &used),
                     2);
    line->encoding = rl_isa_test_encoding(family);
    snprintf(line->text, sizeof(line->text), "%s", text + used);
    line->text[strcspn(line->text, "\n")] = 0;
    // VOPD lines pair a v_dual_mov_b32 X with the probed Y half.
    const char* dual = strstr(line->text, "::");
    sscanf(dual ? dual + 2 : line->text, "%63s", line->mnemonic);
    size_t n = strlen(line->mnemonic);
    if (n > 4 && (strcmp(line->mnemonic + n - 4, "_e32") == 0 ||
                  strcmp(line->mnemonic + n - 4, "_e64") == 0)) {
      line->mnemonic[n - 4] = 0;
    }
  }
  fclose(file);
  return count;
}
