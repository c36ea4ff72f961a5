// sim/hip_sim/hip_sim_observe.c — observed launch accesses for the
// capture interposer (the protocol of capture/recording/hip_observe_abi.h).
//
// While observing, the worker turns the simulator's access log on before
// each launch it runs and takes the launch's record after it (both under
// rl_hip.device_lock, so the record is that launch's alone), and keeps its
// read and write ranges and kernel name keyed by the launch's number
// (rl_hip_op_t.launch_number). The kept ranges have their own lock
// (observe_lock, taken last: under rl_hip.lock or rl_hip.device_lock, never
// around them).
#include <stdatomic.h>

#include "capture/recording/hip_observe_abi.h"
#include "sim/hip_sim/hip_sim_internal.h"

typedef struct rl_hip_observed_entry_s {
  uint64_t submission;
  rl_hip_observed_t ranges;  // the arrays are owned here
} rl_hip_observed_entry_t;

static pthread_mutex_t rl_hip_observe_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_bool rl_hip_observing;
static rl_hip_observed_entry_t* rl_hip_observed;
static uint32_t rl_hip_observed_count, rl_hip_observed_capacity;

static void rl_hip_observe_clear_locked(void) {
  for (uint32_t i = 0; i < rl_hip_observed_count; ++i) {
    free((void*)rl_hip_observed[i].ranges.reads);
    free((void*)rl_hip_observed[i].ranges.writes);
    free((void*)rl_hip_observed[i].ranges.kernel);
  }
  free(rl_hip_observed);
  rl_hip_observed = NULL;
  rl_hip_observed_count = rl_hip_observed_capacity = 0;
}

RL_HIP_EXPORT void rl_hip_sim_observe_begin(void) {
  pthread_mutex_lock(&rl_hip_observe_lock);
  rl_hip_observe_clear_locked();
  atomic_store(&rl_hip_observing, true);
  pthread_mutex_unlock(&rl_hip_observe_lock);
}

RL_HIP_EXPORT void rl_hip_sim_observe_end(void) {
  pthread_mutex_lock(&rl_hip_observe_lock);
  atomic_store(&rl_hip_observing, false);
  rl_hip_observe_clear_locked();
  pthread_mutex_unlock(&rl_hip_observe_lock);
}

RL_HIP_EXPORT uint64_t rl_hip_sim_observe_last_launch(void) {
  pthread_mutex_lock(&rl_hip.lock);
  uint64_t last = rl_hip.launches_queued;
  pthread_mutex_unlock(&rl_hip.lock);
  return last;
}

RL_HIP_EXPORT bool rl_hip_sim_observe_launch(uint64_t submission,
                                             rl_hip_observed_t* out_observed) {
  *out_observed = (rl_hip_observed_t){0};
  bool found = false;
  pthread_mutex_lock(&rl_hip_observe_lock);
  for (uint32_t i = 0; i < rl_hip_observed_count && !found; ++i) {
    if (rl_hip_observed[i].submission != submission) continue;
    *out_observed = rl_hip_observed[i].ranges;
    found = true;
  }
  pthread_mutex_unlock(&rl_hip_observe_lock);
  return found;
}

void rl_hip_observe_before_launch(void) {
  if (atomic_load(&rl_hip_observing)) {
    rl_sim_access_log_enable(rl_hip.sim, true);  // clears older records
  }
}

// The simulator's ranges as the ABI's (the layouts are the same two u64s,
// but neither header promises that to the other).
static rl_hip_observed_range_t* rl_hip_observe_copy(
    const rl_sim_access_range_t* ranges, uint32_t count, bool* ok) {
  if (count == 0) return NULL;
  rl_hip_observed_range_t* out = malloc(count * sizeof(*out));
  if (!out) {
    *ok = false;
    return NULL;
  }
  for (uint32_t i = 0; i < count; ++i) {
    out[i] = (rl_hip_observed_range_t){ranges[i].begin, ranges[i].end};
  }
  return out;
}

// Keeps |record| as submission |submission|'s; false when out of memory.
static bool rl_hip_observe_keep(uint64_t submission, const char* kernel,
                                const rl_sim_access_record_t* record) {
  bool ok = true;
  rl_hip_observed_entry_t entry = {.submission = submission};
  entry.ranges.kernel = strdup(kernel);
  if (!entry.ranges.kernel) ok = false;
  entry.ranges.reads = rl_hip_observe_copy(record->reads, record->read_count, &ok);
  entry.ranges.writes =
      rl_hip_observe_copy(record->writes, record->write_count, &ok);
  entry.ranges.read_count = record->read_count;
  entry.ranges.write_count = record->write_count;
  pthread_mutex_lock(&rl_hip_observe_lock);
  if (ok && atomic_load(&rl_hip_observing)) {
    rl_status_t status =
        RL_ARRAY_RESERVE(&rl_hip_observed, &rl_hip_observed_capacity,
                         rl_hip_observed_count + 1);
    ok = status == RL_OK;
    rl_status_free(status);
    if (ok) rl_hip_observed[rl_hip_observed_count++] = entry;
  } else {
    ok = false;
  }
  pthread_mutex_unlock(&rl_hip_observe_lock);
  if (!ok) {
    free((void*)entry.ranges.reads);
    free((void*)entry.ranges.writes);
    free((void*)entry.ranges.kernel);
  }
  return ok;
}

void rl_hip_observe_after_launch(const rl_hip_op_t* op, bool succeeded) {
  if (!atomic_load(&rl_hip_observing)) return;
  rl_sim_access_record_t* records = NULL;
  uint32_t total = 0;
  uint32_t count = rl_sim_access_log_take(rl_hip.sim, &records, &total);
  rl_sim_access_log_enable(rl_hip.sim, false);
  // One launch is one dispatch; a launch that failed, or whose record was
  // lost, is not observed (its slots keep their effects).
  if (succeeded && count == 1 && total == 1 &&
      !rl_hip_observe_keep(op->launch_number, op->function->kernel->name,
                           &records[0])) {
    // Not rl_hip_error: rl_hip.lock is not held here.
    fprintf(stderr, "redline hip: the observed accesses of a launch were "
                    "dropped (out of memory)\n");
  }
  rl_sim_access_log_free(records, count);
}
