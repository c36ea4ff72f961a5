// Implementation of redline/status.h. Messages are kept as one heap string;
// annotation reallocates it with the context in front.
#include "redline/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rl_status_s {
  rl_status_code_t code;
  const char* file;
  int line;
  char* message;
};

static struct rl_status_s rl_status_oom_static = {
    RL_STATUS_OUT_OF_MEMORY, __FILE__, __LINE__, "out of memory"};

rl_status_t rl_status_out_of_memory(void) { return &rl_status_oom_static; }

static char* rl_status_vformat(const char* format, va_list args) {
  if (!format) format = "(no message)";  // a NULL format: say so, no crash
  va_list copy;
  va_copy(copy, args);
  int length = vsnprintf(NULL, 0, format, copy);
  va_end(copy);
  if (length < 0) length = 0;
  char* text = malloc((size_t)length + 1);
  if (text) vsnprintf(text, (size_t)length + 1, format, args);
  return text;
}

rl_status_t rl_status_makev(rl_status_code_t code, const char* file, int line,
                            const char* format, va_list args) {
  rl_status_t status = malloc(sizeof(*status));
  if (!status) return rl_status_out_of_memory();
  status->code = code == RL_STATUS_OK ? RL_STATUS_INTERNAL : code;
  status->file = file;
  status->line = line;
  status->message = rl_status_vformat(format, args);
  if (!status->message) {
    free(status);
    return rl_status_out_of_memory();
  }
  return status;
}

rl_status_t rl_status_make(rl_status_code_t code, const char* file, int line,
                           const char* format, ...) {
  va_list args;
  va_start(args, format);
  rl_status_t status = rl_status_makev(code, file, line, format, args);
  va_end(args);
  return status;
}

// Replaces the message of |status| by |prefix| + |separator| + message +
// |suffix|. Keeps the old message when memory runs out: losing context is
// better than losing the error.
static void rl_status_rewrite(rl_status_t status, const char* prefix,
                              const char* separator, const char* suffix) {
  if (status == rl_status_out_of_memory()) return;
  size_t length = strlen(prefix) + strlen(separator) +
                  strlen(status->message) + strlen(suffix) + 1;
  char* text = malloc(length);
  if (!text) return;
  snprintf(text, length, "%s%s%s%s", prefix, separator, status->message,
           suffix);
  free(status->message);
  status->message = text;
}

rl_status_t rl_status_annotate(rl_status_t status, const char* format, ...) {
  if (!status) return status;
  va_list args;
  va_start(args, format);
  char* context = rl_status_vformat(format, args);
  va_end(args);
  if (context) rl_status_rewrite(status, context, ": ", "");
  free(context);
  return status;
}

rl_status_t rl_status_join(rl_status_t primary, rl_status_t secondary) {
  if (!primary) return secondary;
  if (!secondary) return primary;
  const char* tag = "; also: ";
  size_t length = strlen(tag) + strlen(secondary->message) + 1;
  char* suffix = malloc(length);
  if (suffix) {
    snprintf(suffix, length, "%s%s", tag, secondary->message);
    rl_status_rewrite(primary, "", "", suffix);
    free(suffix);
  }
  rl_status_free(secondary);
  return primary;
}

rl_status_code_t rl_status_code(rl_status_t status) {
  return status ? status->code : RL_STATUS_OK;
}

const char* rl_status_message(rl_status_t status) {
  return status ? status->message : "OK";
}

const char* rl_status_file(rl_status_t status) {
  return status && status->file ? status->file : "";
}

int rl_status_line(rl_status_t status) { return status ? status->line : 0; }

bool rl_status_is(rl_status_t status, rl_status_code_t code) {
  return rl_status_code(status) == code;
}

const char* rl_status_code_name(rl_status_code_t code) {
  switch (code) {
    case RL_STATUS_OK: return "OK";
    case RL_STATUS_MISMATCH: return "MISMATCH";
    case RL_STATUS_INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case RL_STATUS_INVALID_INPUT: return "INVALID_INPUT";
    case RL_STATUS_CONTRACT: return "CONTRACT";
    case RL_STATUS_PREPARE: return "PREPARE";
    case RL_STATUS_POISONED: return "POISONED";
    case RL_STATUS_QUARANTINED: return "QUARANTINED";
    case RL_STATUS_UNAVAILABLE: return "UNAVAILABLE";
    case RL_STATUS_UNSUPPORTED: return "UNSUPPORTED";
    case RL_STATUS_IO: return "IO";
    case RL_STATUS_NOT_FOUND: return "NOT_FOUND";
    case RL_STATUS_OUT_OF_MEMORY: return "OUT_OF_MEMORY";
    case RL_STATUS_INTERNAL: return "INTERNAL";
  }
  return "UNKNOWN";
}

void rl_status_free(rl_status_t status) {
  if (!status || status == rl_status_out_of_memory()) return;
  free(status->message);
  free(status);
}
