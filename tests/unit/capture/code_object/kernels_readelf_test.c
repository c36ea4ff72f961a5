// Cross-check of `redline kernels FILE --json` against LLVM's own reader:
// for every code object in RL_KERNELS_DIR, `llvm-readelf --notes` prints the
// metadata as YAML; this test extracts the fields redline reports from that
// text and requires the JSON to match field by field (same kernel count,
// same arg count, same values). A negative control proves the comparison
// can fail.
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#define MAX_FIELDS 40
#define MAX_ARGS 64
#define MAX_KERNELS 64

typedef struct field_s {
  char key[64];
  char value[160];
} field_t;

typedef struct record_s {
  field_t fields[MAX_FIELDS];
  int count;
} record_t;

typedef struct yaml_kernel_s {
  record_t keys;
  record_t args[MAX_ARGS];
  int arg_count;
} yaml_kernel_t;

typedef struct notes_s {
  char target[160];
  yaml_kernel_t kernels[MAX_KERNELS];
  int kernel_count;
} notes_t;

static char* run(const char* command) {
  FILE* pipe = popen(command, "r");
  if (!pipe) fail_msg("popen failed: %s", command);
  size_t size = 0, capacity = 1 << 16;
  char* text = malloc(capacity);
  size_t got;
  while ((got = fread(text + size, 1, capacity - size - 1, pipe)) > 0) {
    size += got;
    if (capacity - size < 4096) text = realloc(text, capacity *= 2);
  }
  text[size] = '\0';
  int rc = pclose(pipe);
  if (rc != 0) fail_msg("'%s' exited with %d", command, rc);
  return text;
}

static void record_add(record_t* record, const char* key, const char* value) {
  if (record->count == MAX_FIELDS) fail_msg("too many fields");
  field_t* field = &record->fields[record->count++];
  snprintf(field->key, sizeof(field->key), "%s", key);
  snprintf(field->value, sizeof(field->value), "%s", value);
}

static const char* record_get(const record_t* record, const char* key) {
  for (int i = 0; i < record->count; ++i) {
    if (strcmp(record->fields[i].key, key) == 0) return record->fields[i].value;
  }
  return NULL;
}

// Splits "key:   value" into |key| and |value| (quotes stripped).
static void split_key_value(const char* text, char* key, size_t key_size,
                            char* value, size_t value_size) {
  const char* colon = strchr(text, ':');
  if (!colon) colon = text + strlen(text);
  snprintf(key, key_size, "%.*s", (int)(colon - text), text);
  const char* v = *colon ? colon + 1 : colon;
  while (*v == ' ') ++v;
  size_t length = strlen(v);
  if (length >= 2 && (v[0] == '\'' || v[0] == '"') && v[length - 1] == v[0]) {
    ++v;
    length -= 2;
  }
  snprintf(value, value_size, "%.*s", (int)length, v);
}

// Reads one line of the amdhsa.kernels block. |indent| is the column of the
// text after any "- " list markers.
static void parse_kernel_line(notes_t* notes, int indent, bool item,
                              const char* text, bool* in_args) {
  char key[64], value[160];
  split_key_value(text, key, sizeof(key), value, sizeof(value));
  if (indent == 4 && item) {  // "  - .key": a new kernel
    if (notes->kernel_count == MAX_KERNELS) fail_msg("too many kernels");
    ++notes->kernel_count;
    *in_args = false;
  }
  if (notes->kernel_count == 0) return;
  yaml_kernel_t* kernel = &notes->kernels[notes->kernel_count - 1];
  if (indent == 4) {
    *in_args = strcmp(key, ".args") == 0;
    if (!*in_args) record_add(&kernel->keys, key, value);
    return;
  }
  if (indent != 8 || !*in_args || key[0] != '.') return;
  if (item) {  // "      - .key": a new arg
    if (kernel->arg_count == MAX_ARGS) fail_msg("too many args");
    ++kernel->arg_count;
  }
  if (kernel->arg_count) record_add(&kernel->args[kernel->arg_count - 1], key, value);
}

// Extracts amdhsa.target and the kernels from `llvm-readelf --notes` text.
static void parse_notes(char* text, notes_t* notes) {
  memset(notes, 0, sizeof(*notes));
  bool in_kernels = false, in_args = false;
  for (char* line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    int indent = 0;
    while (line[indent] == ' ') ++indent;
    const char* body = line + indent;
    bool item = false;
    while (body[0] == '-' && body[1] == ' ') {
      item = true;
      body += 2;
      indent += 2;
      while (*body == ' ') { ++body; ++indent; }
    }
    if (indent == 0) {
      in_kernels = strncmp(body, "amdhsa.kernels:", 15) == 0;
      if (strncmp(body, "amdhsa.target:", 14) == 0) {
        char key[64];
        split_key_value(body, key, sizeof(key), notes->target,
                        sizeof(notes->target));
      }
      continue;
    }
    if (in_kernels) parse_kernel_line(notes, indent, item, body, &in_args);
  }
}

static bool fail_why(char* why, size_t size, const char* format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(why, size, format, args);
  va_end(args);
  return false;
}

// Compares a YAML number with a JSON number member.
static bool same_number(const char* yaml, const cJSON* object, const char* key,
                        const char* where, char* why, size_t size) {
  const cJSON* item = cJSON_GetObjectItemCaseSensitive(object, key);
  if (!yaml || !cJSON_IsNumber(item)) {
    return fail_why(why, size, "%s: %s missing (yaml %s)", where, key,
                    yaml ? yaml : "absent");
  }
  unsigned long long expected = strtoull(yaml, NULL, 10);
  if ((double)expected != item->valuedouble) {
    return fail_why(why, size, "%s: %s is %.0f, llvm-readelf says %s", where,
                    key, item->valuedouble, yaml);
  }
  return true;
}

// Compares an optional YAML string with a JSON string member: both absent
// or both present and equal.
static bool same_string(const char* yaml, const cJSON* object, const char* key,
                        const char* where, char* why, size_t size) {
  const cJSON* item = cJSON_GetObjectItemCaseSensitive(object, key);
  const char* json = cJSON_IsString(item) ? item->valuestring : NULL;
  if ((yaml == NULL) != (json == NULL) || (yaml && strcmp(yaml, json) != 0)) {
    return fail_why(why, size, "%s: %s is '%s', llvm-readelf says '%s'", where,
                    key, json ? json : "(absent)", yaml ? yaml : "(absent)");
  }
  return true;
}

static bool compare_arg(const record_t* arg, const cJSON* json,
                        const char* where, char* why, size_t size) {
  return same_number(record_get(arg, ".offset"), json, "offset", where, why, size) &&
         same_number(record_get(arg, ".size"), json, "size", where, why, size) &&
         same_string(record_get(arg, ".value_kind"), json, "value_kind", where,
                     why, size) &&
         same_string(record_get(arg, ".address_space"), json, "address_space",
                     where, why, size) &&
         same_string(record_get(arg, ".access"), json, "access", where, why,
                     size) &&
         same_string(record_get(arg, ".actual_access"), json, "actual_access",
                     where, why, size) &&
         same_string(record_get(arg, ".name"), json, "name", where, why, size);
}

static const char* const number_keys[][2] = {
    {".kernarg_segment_size", "kernarg_size"},
    {".kernarg_segment_align", "kernarg_align"},
    {".group_segment_fixed_size", "group_segment_size"},
    {".private_segment_fixed_size", "private_segment_size"},
    {".wavefront_size", "wavefront_size"},
    {".sgpr_count", "sgpr_count"},
    {".vgpr_count", "vgpr_count"},
};

static bool compare_kernel(const yaml_kernel_t* yaml, const cJSON* json,
                           char* why, size_t size) {
  const char* name = record_get(&yaml->keys, ".name");
  char where[160];
  snprintf(where, sizeof(where), "kernel %s", name ? name : "?");
  if (!same_string(name, json, "name", where, why, size)) return false;
  for (size_t i = 0; i < sizeof(number_keys) / sizeof(number_keys[0]); ++i) {
    if (!same_number(record_get(&yaml->keys, number_keys[i][0]), json,
                     number_keys[i][1], where, why, size)) {
      return false;
    }
  }
  const cJSON* args = cJSON_GetObjectItemCaseSensitive(json, "args");
  if (cJSON_GetArraySize(args) != yaml->arg_count) {
    return fail_why(why, size, "%s: %d args, llvm-readelf lists %d", where,
                    cJSON_GetArraySize(args), yaml->arg_count);
  }
  for (int a = 0; a < yaml->arg_count; ++a) {
    char arg_where[200];
    snprintf(arg_where, sizeof(arg_where), "%s arg %d", where, a);
    if (!compare_arg(&yaml->args[a], cJSON_GetArrayItem(args, a), arg_where,
                     why, size)) {
      return false;
    }
  }
  return true;
}

// The comparison under test: true when |root| reports what |notes| says.
static bool compare_object(const notes_t* notes, const cJSON* root, char* why,
                           size_t size) {
  if (!same_string(notes->target, root, "target", "object", why, size)) {
    return false;
  }
  const cJSON* kernels = cJSON_GetObjectItemCaseSensitive(root, "kernels");
  if (cJSON_GetArraySize(kernels) != notes->kernel_count) {
    return fail_why(why, size, "%d kernels, llvm-readelf lists %d",
                    cJSON_GetArraySize(kernels), notes->kernel_count);
  }
  for (int k = 0; k < notes->kernel_count; ++k) {
    if (!compare_kernel(&notes->kernels[k], cJSON_GetArrayItem(kernels, k), why,
                        size)) {
      return false;
    }
  }
  return true;
}

static void load(const char* path, notes_t* notes, cJSON** out_json) {
  char command[1024];
  snprintf(command, sizeof(command), "'%s' --notes '%s'", RL_LLVM_READELF, path);
  char* text = run(command);
  parse_notes(text, notes);
  free(text);
  snprintf(command, sizeof(command), "'%s' kernels '%s' --json", RL_REDLINE_BIN,
           path);
  text = run(command);
  *out_json = cJSON_Parse(text);
  free(text);
  if (!*out_json) fail_msg("redline printed invalid JSON for %s", path);
}

static void test_all_code_objects_match(void** state) {
  (void)state;
  DIR* dir = opendir(RL_KERNELS_DIR);
  assert_non_null(dir);
  int objects = 0;
  static notes_t notes;
  for (struct dirent* entry = readdir(dir); entry; entry = readdir(dir)) {
    size_t length = strlen(entry->d_name);
    if (length < 4 || strcmp(entry->d_name + length - 3, ".co") != 0) continue;
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", RL_KERNELS_DIR, entry->d_name);
    cJSON* json = NULL;
    load(path, &notes, &json);
    assert_true(notes.kernel_count > 0);
    char why[512] = "";
    if (!compare_object(&notes, json, why, sizeof(why))) {
      fail_msg("%s: %s", entry->d_name, why);
    }
    cJSON_Delete(json);
    ++objects;
  }
  closedir(dir);
  assert_true(objects >= 4);  // gfx1100, gfx1151, gfx1201, gfx1100-v4
}

// Negative controls: each alteration of the expected values must make the
// comparison fail, so a passing run means something.
static void test_comparison_can_fail(void** state) {
  (void)state;
  static notes_t notes, altered;
  cJSON* json = NULL;
  load(RL_KERNELS_DIR "/vecchain-gfx1100.co", &notes, &json);
  char why[512];
  assert_true(compare_object(&notes, json, why, sizeof(why)));
  altered = notes;  // a wrong number
  record_t* keys = &altered.kernels[1].keys;
  for (int i = 0; i < keys->count; ++i) {
    if (strcmp(keys->fields[i].key, ".sgpr_count") == 0) {
      snprintf(keys->fields[i].value, sizeof(keys->fields[i].value), "12345");
    }
  }
  assert_false(compare_object(&altered, json, why, sizeof(why)));
  assert_non_null(strstr(why, "sgpr_count is"));
  altered = notes;  // a missing arg
  --altered.kernels[1].arg_count;
  assert_false(compare_object(&altered, json, why, sizeof(why)));
  assert_non_null(strstr(why, "args"));
  altered = notes;  // an access qualifier readelf did not print
  record_add(&altered.kernels[2].args[2], ".access", "read_only");
  assert_false(compare_object(&altered, json, why, sizeof(why)));
  assert_non_null(strstr(why, "access"));
  altered = notes;  // a different target
  altered.target[strlen(altered.target) - 1] = '9';
  assert_false(compare_object(&altered, json, why, sizeof(why)));
  cJSON_Delete(json);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_all_code_objects_match),
      cmocka_unit_test(test_comparison_can_fail),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
