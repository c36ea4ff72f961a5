// The trace-event recorder (base/trace.h): events appended as JSON text.
#include "base/trace.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/output_file.h"

struct rl_trace_s {
  char* text;
  size_t length;
  size_t capacity;
  uint64_t events;
  uint64_t dropped;
  uint64_t next_flow_id;
  bool out_of_memory;
};

uint64_t rl_trace_now_ns(void) { return rl_now_ns(); }

rl_status_t rl_trace_create(rl_trace_t** out_trace) {
  rl_trace_t* trace = calloc(1, sizeof(*trace));
  if (!trace) return rl_status_out_of_memory();
  trace->next_flow_id = 1;
  *out_trace = trace;
  return NULL;
}

void rl_trace_destroy(rl_trace_t* trace) {
  if (!trace) return;
  free(trace->text);
  free(trace);
}

static bool rl_trace_reserve(rl_trace_t* trace, size_t more) {
  if (trace->out_of_memory) return false;
  if (trace->length + more + 1 <= trace->capacity) return true;
  size_t capacity = trace->capacity ? trace->capacity : 1u << 16;
  while (capacity < trace->length + more + 1) capacity *= 2;
  char* text = realloc(trace->text, capacity);
  if (!text) {
    trace->out_of_memory = true;
    return false;
  }
  trace->text = text;
  trace->capacity = capacity;
  return true;
}

static void rl_trace_printf(rl_trace_t* trace, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
static void rl_trace_printf(rl_trace_t* trace, const char* format, ...) {
  va_list args;
  va_start(args, format);
  va_list copy;
  va_copy(copy, args);
  int needed = vsnprintf(NULL, 0, format, copy);
  va_end(copy);
  if (needed >= 0 && rl_trace_reserve(trace, (size_t)needed)) {
    vsnprintf(trace->text + trace->length, (size_t)needed + 1, format, args);
    trace->length += (size_t)needed;
  }
  va_end(args);
}

// A JSON string: quotes, backslashes and control characters escaped.
static void rl_trace_string(rl_trace_t* trace, const char* text) {
  rl_trace_printf(trace, "\"");
  for (const unsigned char* c = (const unsigned char*)(text ? text : "");
       *c; ++c) {
    if (*c == '"' || *c == '\\') {
      rl_trace_printf(trace, "\\%c", *c);
    } else if (*c < 0x20) {
      rl_trace_printf(trace, "\\u%04x", *c);
    } else {
      rl_trace_printf(trace, "%c", *c);
    }
  }
  rl_trace_printf(trace, "\"");
}

// Microseconds with three decimals: nanoseconds kept exactly.
static void rl_trace_us(rl_trace_t* trace, const char* key, uint64_t ns) {
  rl_trace_printf(trace, ",\"%s\":%" PRIu64 ".%03u", key, ns / 1000u,
                  (unsigned)(ns % 1000u));
}

static void rl_trace_number(rl_trace_t* trace, double value) {
  // JSON has no NaN or infinities.
  if (!isfinite(value)) value = 0;
  rl_trace_printf(trace, "%.17g", value);
}

// Starts an event object; false when it is dropped.
static bool rl_trace_begin(rl_trace_t* trace, const char* phase, uint32_t pid,
                           uint32_t tid) {
  if (trace->events >= RL_TRACE_MAX_EVENTS) {
    ++trace->dropped;
    return false;
  }
  ++trace->events;
  rl_trace_printf(trace, "%s{\"ph\":\"%s\",\"pid\":%" PRIu32 ",\"tid\":%" PRIu32,
                  trace->events > 1 ? ",\n" : "", phase, pid, tid);
  return true;
}

static void rl_trace_metadata(rl_trace_t* trace, uint32_t pid, uint32_t tid,
                              const char* what, const char* name,
                              int32_t sort_index) {
  if (rl_trace_begin(trace, "M", pid, tid)) {
    rl_trace_printf(trace, ",\"name\":\"%s_name\",\"args\":{\"name\":", what);
    rl_trace_string(trace, name);
    rl_trace_printf(trace, "}}");
  }
  if (rl_trace_begin(trace, "M", pid, tid)) {
    rl_trace_printf(trace,
                    ",\"name\":\"%s_sort_index\",\"args\":{\"sort_index\":%" PRId32
                    "}}",
                    what, sort_index);
  }
}

void rl_trace_name_process(rl_trace_t* trace, uint32_t pid, const char* name,
                           int32_t sort_index) {
  rl_trace_metadata(trace, pid, 0, "process", name, sort_index);
}

void rl_trace_name_thread(rl_trace_t* trace, uint32_t pid, uint32_t tid,
                          const char* name, int32_t sort_index) {
  rl_trace_metadata(trace, pid, tid, "thread", name, sort_index);
}

void rl_trace_span(rl_trace_t* trace, uint32_t pid, uint32_t tid,
                   const char* name, const char* category, uint64_t start_ns,
                   uint64_t duration_ns, const rl_trace_arg_t* args,
                   uint32_t arg_count) {
  if (!rl_trace_begin(trace, "X", pid, tid)) return;
  rl_trace_printf(trace, ",\"name\":");
  rl_trace_string(trace, name);
  rl_trace_printf(trace, ",\"cat\":");
  rl_trace_string(trace, category);
  rl_trace_us(trace, "ts", start_ns);
  rl_trace_us(trace, "dur", duration_ns);
  if (arg_count) {
    rl_trace_printf(trace, ",\"args\":{");
    for (uint32_t i = 0; i < arg_count; ++i) {
      rl_trace_printf(trace, "%s", i ? "," : "");
      rl_trace_string(trace, args[i].key);
      rl_trace_printf(trace, ":");
      if (args[i].text) {
        rl_trace_string(trace, args[i].text);
      } else {
        rl_trace_number(trace, args[i].number);
      }
    }
    rl_trace_printf(trace, "}");
  }
  rl_trace_printf(trace, "}");
}

void rl_trace_counter(rl_trace_t* trace, uint32_t pid, const char* name,
                      uint64_t time_ns, double value) {
  if (!rl_trace_begin(trace, "C", pid, 0)) return;
  rl_trace_printf(trace, ",\"name\":");
  rl_trace_string(trace, name);
  rl_trace_us(trace, "ts", time_ns);
  rl_trace_printf(trace, ",\"args\":{\"value\":");
  rl_trace_number(trace, value);
  rl_trace_printf(trace, "}}");
}

void rl_trace_flow(rl_trace_t* trace, const char* name, uint32_t from_pid,
                   uint32_t from_tid, uint64_t from_ns, uint32_t to_pid,
                   uint32_t to_tid, uint64_t to_ns) {
  // Both halves or neither: a lone "s" or "f" is malformed.
  if (trace->events + 2 > RL_TRACE_MAX_EVENTS) {
    trace->dropped += 2;
    return;
  }
  uint64_t id = trace->next_flow_id++;
  rl_trace_begin(trace, "s", from_pid, from_tid);
  rl_trace_printf(trace, ",\"name\":");
  rl_trace_string(trace, name);
  rl_trace_printf(trace, ",\"cat\":\"wait\",\"id\":%" PRIu64, id);
  rl_trace_us(trace, "ts", from_ns);
  rl_trace_printf(trace, "}");
  rl_trace_begin(trace, "f", to_pid, to_tid);
  rl_trace_printf(trace, ",\"name\":");
  rl_trace_string(trace, name);
  rl_trace_printf(trace, ",\"cat\":\"wait\",\"id\":%" PRIu64 ",\"bp\":\"e\"", id);
  rl_trace_us(trace, "ts", to_ns);
  rl_trace_printf(trace, "}");
}

uint64_t rl_trace_event_count(const rl_trace_t* trace) {
  return trace->events;
}

uint64_t rl_trace_dropped_count(const rl_trace_t* trace) {
  return trace->dropped;
}

rl_status_t rl_trace_write(rl_trace_t* trace, const char* path) {
  if (trace->out_of_memory) return rl_status_out_of_memory();
  static const char head[] = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  char tail[128];
  int tail_length = snprintf(tail, sizeof(tail),
                             "\n],\"metadata\":{\"producer\":\"redline\","
                             "\"dropped_events\":%" PRIu64 "}}\n",
                             trace->dropped);
  size_t size = sizeof(head) - 1 + trace->length + (size_t)tail_length;
  char* text = malloc(size);
  if (!text) return rl_status_out_of_memory();
  memcpy(text, head, sizeof(head) - 1);
  if (trace->length) memcpy(text + sizeof(head) - 1, trace->text, trace->length);
  memcpy(text + sizeof(head) - 1 + trace->length, tail, (size_t)tail_length);
  rl_status_t status = rl_output_file_write(path, text, size);
  free(text);
  return status;
}
