// base/trace.h — a timeline in the Chrome/Perfetto JSON trace-event
// format, for `--trace FILE` (replay, shadow, bench, demo).
//
// The format is Google's "Trace Event Format" (the JSON object form:
// {"traceEvents": [...], "displayTimeUnit": "ns"}), which ui.perfetto.dev
// and chrome://tracing open. Events used here:
//   "M"  metadata: process_name / thread_name / *_sort_index, naming tracks;
//   "X"  a complete span: ts and dur in microseconds (fractional, so
//        nanoseconds survive), name, category, args;
//   "C"  a counter sample: args {name: value};
//   "s" / "f"  a flow arrow from the span enclosing the "s" timestamp to the
//        span enclosing the "f" timestamp ("bp": "e" binds the end to the
//        enclosing slice), matched by id.
// Spans on one (pid, tid) track must nest; callers put concurrent work on
// separate tracks (shadow/shadow_trace.h lays dispatches out in lanes).
//
// Times are nanoseconds of CLOCK_MONOTONIC (rl_trace_now_ns). The simulated
// device's timestamps are the same clock divided into 10 ns ticks
// (sim/sim.h), so device spans and host spans share one axis; on
// hardware the device clock has its own origin (docs/cli.md, Traces).
//
// A recorder keeps the events as JSON text in memory; past
// RL_TRACE_MAX_EVENTS further events are counted, not kept, and the count
// is written as metadata ("dropped_events"). Not thread-safe: one recorder
// per thread.
#ifndef REDLINE_BASE_TRACE_H_
#define REDLINE_BASE_TRACE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RL_TRACE_MAX_EVENTS 2000000u

typedef struct rl_trace_s rl_trace_t;

// A key and value for a span's "args" (value NULL: number |number|).
typedef struct rl_trace_arg_s {
  const char* key;
  const char* text;
  double number;
} rl_trace_arg_t;

rl_status_t rl_trace_create(rl_trace_t** out_trace);
void rl_trace_destroy(rl_trace_t* trace);

// The trace's clock: base/clock.h's rl_now_ns (CLOCK_MONOTONIC).
uint64_t rl_trace_now_ns(void);

// Names track |pid| (and |tid|); |sort_index| orders them in the viewer.
void rl_trace_name_process(rl_trace_t* trace, uint32_t pid, const char* name,
                           int32_t sort_index);
void rl_trace_name_thread(rl_trace_t* trace, uint32_t pid, uint32_t tid,
                          const char* name, int32_t sort_index);

void rl_trace_span(rl_trace_t* trace, uint32_t pid, uint32_t tid,
                   const char* name, const char* category, uint64_t start_ns,
                   uint64_t duration_ns, const rl_trace_arg_t* args,
                   uint32_t arg_count);

void rl_trace_counter(rl_trace_t* trace, uint32_t pid, const char* name,
                      uint64_t time_ns, double value);

// An arrow from the span on (|from_pid|, |from_tid|) enclosing |from_ns| to
// the span on (|to_pid|, |to_tid|) enclosing |to_ns|.
void rl_trace_flow(rl_trace_t* trace, const char* name, uint32_t from_pid,
                   uint32_t from_tid, uint64_t from_ns, uint32_t to_pid,
                   uint32_t to_tid, uint64_t to_ns);

// Events kept and dropped so far.
uint64_t rl_trace_event_count(const rl_trace_t* trace);
uint64_t rl_trace_dropped_count(const rl_trace_t* trace);

// Writes the trace to |path| by the output-file rules
// (base/output_file.h). The recorder stays usable.
rl_status_t rl_trace_write(rl_trace_t* trace, const char* path);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_BASE_TRACE_H_
