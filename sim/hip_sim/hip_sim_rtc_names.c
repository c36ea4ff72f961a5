// sim/hip_sim/hip_sim_rtc_names.c — hiprtc name expressions: the generated
// source and the lowered names read back from the code object
// (hip_sim_rtc_names.h has the contract).
#define _GNU_SOURCE
#include "sim/hip_sim/hip_sim_rtc_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redline/code_object.h"

#define RL_RTC_NAME_PREFIX "__redline_hiprtc_name_"

bool rl_rtc_names_add(rl_rtc_names_t* names, const char* expression) {
  if (rl_rtc_names_find(names, expression)) return true;
  rl_rtc_name_t* grown =
      realloc(names->names, (names->count + 1) * sizeof(*grown));
  if (!grown) return false;
  names->names = grown;
  char* copy = strdup(expression);
  if (!copy) return false;
  names->names[names->count++] = (rl_rtc_name_t){copy, NULL};
  return true;
}

char* rl_rtc_names_source(const rl_rtc_names_t* names, const char* source,
                          bool device_pointers) {
  char* text = NULL;
  size_t size = 0;
  FILE* out = open_memstream(&text, &size);
  if (!out) return NULL;
  fputs(source, out);
  for (size_t i = 0; i < names->count; i++) {
    const char* e = names->names[i].expression;
    // The #line makes an error inside the expression read
    // "<name expression 0: foo<int>>:1:...", naming what the program added.
    // An expression a file name cannot hold is named by its index only.
    bool quotable = !strpbrk(e, "\"\\\n");
    fprintf(out,
            "\n#line 1 \"<name expression %zu%s%s>\"\n"
            "%s __attribute__((used)) const void* " RL_RTC_NAME_PREFIX
            "%zu = (const void*)%s(%s);\n",
            i, quotable ? ": " : "", quotable ? e : "",
            device_pointers ? "extern \"C\" __device__" : "static", i,
            e[0] == '&' ? "" : "&", e);
  }
  if (fclose(out) != 0) {
    free(text);
    return NULL;
  }
  return text;
}

// The kernel or variable (other than the generated ones) at image address
// |target|, or NULL.
static const char* rtc_symbol_at(const rl_code_object_t* co, uint64_t target,
                                 size_t* name_len) {
  for (uint32_t k = 0; k < co->kernel_count; k++) {
    const rl_code_object_kernel_t* kernel = &co->kernels[k];
    if (kernel->entry_address != target || !kernel->symbol) continue;
    size_t n = strlen(kernel->symbol);
    if (n > 3 && strcmp(kernel->symbol + n - 3, ".kd") == 0) n -= 3;
    *name_len = n;
    return kernel->symbol;
  }
  for (uint32_t v = 0; v < co->variable_count; v++) {
    const rl_code_object_variable_t* var = &co->variables[v];
    if (var->address != target ||
        strncmp(var->name, RL_RTC_NAME_PREFIX, strlen(RL_RTC_NAME_PREFIX)) ==
            0) {
      continue;
    }
    *name_len = strlen(var->name);
    return var->name;
  }
  return NULL;
}

void rl_rtc_names_forget(rl_rtc_names_t* names) {
  for (size_t i = 0; i < names->count; i++) {
    free(names->names[i].lowered);
    names->names[i].lowered = NULL;
  }
}

char* rl_rtc_names_resolve(rl_rtc_names_t* names, const void* code,
                           size_t size) {
  rl_rtc_names_forget(names);
  if (names->count == 0) return NULL;
  char* message = NULL;
  rl_code_object_t* co = NULL;
  uint8_t* image = NULL;
  // The image laid out at address 0, relocations applied: each generated
  // variable then holds its target's image address.
  if (rl_code_object_parse(code, size, &co) != RL_STATUS_OK ||
      !(image = calloc(1, (size_t)co->image_size)) ||
      rl_code_object_load_image(co, code, size, 0, image,
                                (size_t)co->image_size) != RL_STATUS_OK) {
    if (asprintf(&message,
                 "hiprtc: cannot read the name expressions' lowered names: "
                 "the compiled code object could not be parsed and laid "
                 "out\n") < 0) {
      message = NULL;
    }
    free(image);
    rl_code_object_destroy(co);
    return message;
  }
  for (size_t i = 0; i < names->count; i++) {
    char var_name[64];
    snprintf(var_name, sizeof(var_name), RL_RTC_NAME_PREFIX "%zu", i);
    const rl_code_object_variable_t* var =
        rl_code_object_find_variable(co, var_name);
    const char* symbol = NULL;
    size_t len = 0;
    if (var && var->size == 8 && var->address + 8 <= co->image_size) {
      uint64_t target;
      memcpy(&target, image + var->address, sizeof(target));
      symbol = rtc_symbol_at(co, target, &len);
    }
    if (symbol) {
      names->names[i].lowered = strndup(symbol, len);
    }
    if (!names->names[i].lowered && !message &&
        asprintf(&message,
                 "hiprtc: name expression \"%s\" names no kernel or "
                 "variable of the compiled code (a __device__ function has "
                 "no lowered name)\n",
                 names->names[i].expression) < 0) {
      message = NULL;
    }
  }
  free(image);
  rl_code_object_destroy(co);
  return message;
}

// Whether |log| names expression |index| after one of its |marker|s (the
// index read whole: "…_1" is not "…_12").
static bool rtc_log_names(const char* log, const char* marker, size_t index) {
  const size_t n = strlen(marker);
  for (const char* at = strstr(log, marker); at; at = strstr(at + 1, marker)) {
    char* end = NULL;
    unsigned long long got = strtoull(at + n, &end, 10);
    if (end != at + n && got == index) return true;
  }
  return false;
}

char* rl_rtc_names_blame(const rl_rtc_names_t* names, const char* log) {
  if (!log) return NULL;
  char* text = NULL;
  size_t size = 0;
  FILE* out = open_memstream(&text, &size);
  if (!out) return NULL;
  bool any = false;
  for (size_t i = 0; i < names->count; i++) {
    if (!rtc_log_names(log, RL_RTC_NAME_PREFIX, i) &&
        !rtc_log_names(log, "<name expression ", i)) {
      continue;
    }
    fprintf(out,
            "hiprtc: name expression \"%s\" names no __global__ kernel or "
            "__device__ variable: device code cannot take its address (host "
            "code), so the compile fails (HIPRTC_ERROR_COMPILATION, as "
            "ROCm's hiprtc)\n",
            names->names[i].expression);
    any = true;
  }
  if (fclose(out) != 0 || !any) {
    free(text);
    return NULL;
  }
  return text;
}

const rl_rtc_name_t* rl_rtc_names_find(const rl_rtc_names_t* names,
                                       const char* expression) {
  for (size_t i = 0; i < names->count; i++) {
    if (strcmp(names->names[i].expression, expression) == 0) {
      return &names->names[i];
    }
  }
  return NULL;
}

void rl_rtc_names_free(rl_rtc_names_t* names) {
  for (size_t i = 0; i < names->count; i++) {
    free(names->names[i].expression);
    free(names->names[i].lowered);
  }
  free(names->names);
  names->names = NULL;
  names->count = 0;
}
