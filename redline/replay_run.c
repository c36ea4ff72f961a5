// rl_replay_run (redline/replay.h): the hot path, the same for every route
// (redline/replay_route.h):
//
//   1. admit: the cheap contract (state, REDLINE_ROUTE, parameter ranges);
//      a refusal changes nothing;
//   2. checked mode: poison-fill scratch;
//   3. apply: the route's compiled patch table (capture/bind/bind_table.h):
//      each distinct expression evaluated once, only the sites whose value
//      changed written, all or nothing;
//   4. publish: the route hands the stream to the device (aql, pm4: the
//      completion signal armed at 1, the ring protocol, one doorbell);
//   5. wait: the route's bounded wait and its check (a fault, the
//      completion value);
//   6. checked mode: the guards.
// Writes to the device's kernarg segment or IB in step 3 are safe because
// the previous run's wait observed its completion (acquire) before this
// run started.
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/clock.h"
#include "redline/replay_internal.h"

// Steps 2-3. Admitted values always bind (the contract checked the ends of
// every admitted range), so a failure here is a broken invariant.
static rl_status_t rl_run_bind(rl_replay_t* replay, const int64_t* values,
                               uint32_t value_count) {
  if (replay->options.checked) {
    RL_RETURN_IF_ERROR(rl_replay_scratch_fill(replay));
  }
  uint32_t changed = 0;
  RL_RETURN_IF_ERROR(
      replay->route_ops->apply(replay, values, value_count, &changed));
  replay->counters.values_written += changed;
  replay->counters.values_unchanged += replay->binds->site_count - changed;
  if (value_count) {
    memcpy(replay->values, values, value_count * sizeof(*values));
  }
  return RL_OK;
}

// Turns a failure of steps 2-6 into the replay's sticky state: quarantine
// when the queue may still run, poison otherwise.
static rl_status_t rl_run_fail(rl_replay_t* replay, rl_status_t status) {
  if (rl_status_is(status, RL_STATUS_QUARANTINED)) {
    return rl_replay_quarantine(replay, status);
  }
  status = rl_replay_recode(status, RL_STATUS_POISONED);
  return rl_replay_poison(replay, rl_status_annotate(status, "replay"));
}

// Steps 2-6 of an admitted run.
static rl_status_t rl_run_admitted(rl_replay_t* replay, const int64_t* values,
                                   uint32_t value_count, uint64_t start,
                                   uint64_t admitted) {
  const rl_replay_route_t* route = replay->route_ops;
  replay->counters.last_admit_ns = admitted - start;
  RL_RETURN_IF_ERROR(rl_run_bind(replay, values, value_count));
  const uint64_t applied = rl_now_ns();
  replay->counters.last_apply_ns = applied - admitted;
  uint64_t last = 0;
  RL_RETURN_IF_ERROR(route->publish(replay, &last));
  const uint64_t published = rl_now_ns();
  replay->counters.last_publish_ns = published - applied;
  replay->counters.last_host_ns = published - start;
  replay->counters.host_ns += replay->counters.last_host_ns;
  rl_status_t status = route->wait(replay, last);
  replay->counters.last_wait_ns = rl_now_ns() - published;
  replay->counters.wait_ns += replay->counters.last_wait_ns;
  if (status) return status;
  return replay->options.checked ? rl_replay_guards_check(replay) : RL_OK;
}

rl_status_t rl_replay_run(rl_replay_t* replay, const int64_t* values,
                          uint32_t value_count) {
  if (!replay) return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "run: no replay");
  if (value_count && !values) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "run: values is NULL but value_count is %u", value_count);
  }
  RL_RETURN_IF_ERROR(
      rl_replay_require(replay, RL_REPLAY_PREPARED, "rl_replay_run"));
  const uint64_t start = rl_now_ns();
  char reason[256];
  if (!rl_replay_can_run(replay, values, value_count, reason,
                         sizeof(reason))) {
    ++replay->counters.refused;
    return RL_STATUS(RL_STATUS_CONTRACT, "run not admitted: %s", reason);
  }
  rl_status_t status =
      rl_run_admitted(replay, values, value_count, start, rl_now_ns());
  if (status) return rl_run_fail(replay, status);
  ++replay->counters.runs;
  replay->state = RL_REPLAY_REPLAYING;
  return RL_OK;
}
