// sim/hip_sim/hip_sim_exec.c — the device worker: one thread that
// runs the streams' queued operations as the hardware would, concurrently
// with the host, and the host's waits for them (hip_sim.h "Execution
// model").
//
// The worker repeatedly picks, among the streams whose first queued
// operation can run, the one submitted first (as a GPU's command processor
// takes work in the order it arrives when nothing holds it back), takes the
// operation off the queue, runs it holding only rl_hip.device_lock, and
// then, under rl_hip.lock, records its result and counts it completed on
// its stream (broadcasting rl_hip.done). A wait operation can run when the
// stream it names has completed the operation it names; it is how
// hipStreamWaitEvent and the legacy null stream's implicit ordering are
// expressed, so a stream waits for exactly the work it depends on. Host
// functions and callbacks are handed to a second thread, the host thread,
// which runs them in order with no lock held; their stream waits for them
// (it is busy until the function returns), the other streams go on, as
// HIP runs callbacks on a thread of its own.
#include "sim/hip_sim/hip_sim_internal.h"

// Set on the worker and host threads: a host function that calls a
// waiting HIP entry could wait for itself.
static _Thread_local bool rl_hip_on_worker;

void rl_hip_op_release(rl_hip_op_t* op) {
  free(op->kernarg);
  free(op->staged);
  op->kernarg = NULL;
  op->staged = NULL;
}

// True when the first queued operation of |s| may run now.
static bool rl_hip_exec_ready(const struct ihipStream_t* s) {
  if (s->head == s->pending.count || s->host_busy) return false;
  const rl_hip_op_t* op = &s->pending.items[s->head];
  return op->kind != RL_HIP_OP_WAIT ||
         op->wait_stream->completed >= op->wait_seq;
}

// The stream whose runnable first operation was submitted first, or NULL;
// lock held.
static struct ihipStream_t* rl_hip_exec_pick(void) {
  struct ihipStream_t* best =
      rl_hip_exec_ready(&rl_hip.null_stream) ? &rl_hip.null_stream : NULL;
  for (uint32_t i = 0; i < rl_hip.stream_count; ++i) {
    struct ihipStream_t* s = rl_hip.streams[i];
    if (rl_hip_exec_ready(s) &&
        (!best || s->pending.items[s->head].order <
                      best->pending.items[best->head].order)) {
      best = s;
    }
  }
  return best;
}

// Runs |op| with rl_hip.lock released; returns with it held again.
static void rl_hip_exec_run(rl_hip_op_t* op, struct ihipStream_t* s) {
  hipError_t sticky = rl_hip.sticky_error;
  uint64_t launch_index = rl_hip.launches_run;
  rl_hip_mirror_t* mirror = !sticky && op->kind == RL_HIP_OP_LAUNCH
                                ? rl_hip_mirror_in()
                                : NULL;
  pthread_mutex_unlock(&rl_hip.lock);
  char message[RL_HIP_ERROR_BYTES] = "";
  hipError_t result = sticky;
  uint64_t start = 0, ticks = 0;
  if (!sticky) {
    pthread_mutex_lock(&rl_hip.device_lock);
    if (op->kind == RL_HIP_OP_LAUNCH) {
      rl_hip_observe_before_launch();
      result = rl_hip_launch_run(op, launch_index, message, sizeof(message),
                                 &start, &ticks);
      rl_hip_observe_after_launch(op, result == hipSuccess);
      rl_hip_mirror_out(mirror);
    } else if (op->kind == RL_HIP_OP_EVENT) {
      start = rl_hip.sim->vtable->timestamp(rl_hip.sim);
    } else {
      result = rl_hip_copy_run(op, message, sizeof(message));
    }
    pthread_mutex_unlock(&rl_hip.device_lock);
  }
  pthread_mutex_lock(&rl_hip.lock);
  if (op->kind == RL_HIP_OP_LAUNCH && !sticky) {
    rl_hip_launch_finish(op, result, message, start, ticks);
  } else if (op->kind == RL_HIP_OP_EVENT) {
    struct ihipEvent_t* e = op->event;
    if (e->stream == s && e->seq == op->event_seq) e->timestamp = start;
    --e->markers_pending;
  } else if ((op->kind == RL_HIP_OP_COPY || op->kind == RL_HIP_OP_SET) &&
             result && !sticky) {
    rl_hip_error("%s", message);
  }
}

static void* rl_hip_exec_main(void* unused) {
  (void)unused;
  rl_hip_on_worker = true;
  pthread_mutex_lock(&rl_hip.lock);
  for (;;) {
    struct ihipStream_t* s = rl_hip_exec_pick();
    if (!s) {
      if (rl_hip.worker_stop) break;
      pthread_cond_wait(&rl_hip.work, &rl_hip.lock);
      continue;
    }
    rl_hip_op_t op = s->pending.items[s->head];
    s->pending.items[s->head].kernarg = NULL;  // owned by |op| now
    s->pending.items[s->head++].staged = NULL;
    if (s->head == s->pending.count) s->head = s->pending.count = 0;
    if (op.kind == RL_HIP_OP_HOST) {
      // The stream stays busy until the host thread has run it.
      op.host_on = s;
      if (rl_hip_list_append(&rl_hip.host_queue, &op) == hipSuccess) {
        s->host_busy = true;
        pthread_cond_signal(&rl_hip.host_work);
        continue;
      }
      rl_hip_error("a host function was dropped: out of memory");
    } else if (op.kind != RL_HIP_OP_WAIT) {
      rl_hip_exec_run(&op, s);
    }
    rl_hip_op_release(&op);
    ++s->completed;
    pthread_cond_broadcast(&rl_hip.done);
  }
  pthread_mutex_unlock(&rl_hip.lock);
  return NULL;
}

// The host thread: runs host functions and callbacks in the order the
// worker handed them over. Callbacks run even after a failure, with the
// error (as HIP's do); host functions only on success.
static void* rl_hip_exec_host_main(void* unused) {
  (void)unused;
  rl_hip_on_worker = true;
  pthread_mutex_lock(&rl_hip.lock);
  for (;;) {
    if (rl_hip.host_head == rl_hip.host_queue.count) {
      rl_hip.host_head = rl_hip.host_queue.count = 0;
      if (rl_hip.worker_stop) break;
      pthread_cond_wait(&rl_hip.host_work, &rl_hip.lock);
      continue;
    }
    rl_hip_op_t op = rl_hip.host_queue.items[rl_hip.host_head++];
    hipError_t sticky = rl_hip.sticky_error;
    pthread_mutex_unlock(&rl_hip.lock);
    if (op.callback) {
      op.callback(op.callback_stream, sticky, op.host_data);
    } else if (!sticky) {
      op.host_fn(op.host_data);
    }
    pthread_mutex_lock(&rl_hip.lock);
    op.host_on->host_busy = false;
    ++op.host_on->completed;
    pthread_cond_broadcast(&rl_hip.done);
    pthread_cond_signal(&rl_hip.work);
  }
  pthread_mutex_unlock(&rl_hip.lock);
  return NULL;
}

hipError_t rl_hip_exec_start_locked(void) {
  pthread_condattr_t attributes;
  pthread_condattr_init(&attributes);
  pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
  pthread_cond_init(&rl_hip.work, &attributes);
  pthread_cond_init(&rl_hip.done, &attributes);
  pthread_cond_init(&rl_hip.host_work, &attributes);
  pthread_condattr_destroy(&attributes);
  if (pthread_create(&rl_hip.host_thread, NULL, rl_hip_exec_host_main,
                     NULL) != 0) {
    return hipErrorOutOfMemory;
  }
  if (pthread_create(&rl_hip.worker, NULL, rl_hip_exec_main, NULL) != 0) {
    rl_hip.worker_stop = true;
    pthread_cond_signal(&rl_hip.host_work);
    pthread_mutex_unlock(&rl_hip.lock);
    pthread_join(rl_hip.host_thread, NULL);
    pthread_mutex_lock(&rl_hip.lock);
    return hipErrorOutOfMemory;
  }
  rl_hip.worker_running = true;
  return hipSuccess;
}

void rl_hip_exec_stop(void) {
  pthread_mutex_lock(&rl_hip.lock);
  bool running = rl_hip.worker_running;
  rl_hip.worker_stop = true;
  rl_hip.worker_running = false;
  pthread_cond_broadcast(&rl_hip.work);
  pthread_cond_broadcast(&rl_hip.host_work);
  pthread_mutex_unlock(&rl_hip.lock);
  if (running) {
    pthread_join(rl_hip.worker, NULL);
    pthread_join(rl_hip.host_thread, NULL);
  }
  rl_hip_list_clear(&rl_hip.host_queue);
}

//===----------------------------------------------------------------------===//
// Queueing and waiting
//===----------------------------------------------------------------------===//

static hipError_t rl_hip_exec_append(struct ihipStream_t* s,
                                     const rl_hip_op_t* op) {
  if (s->head && s->pending.count == s->pending.capacity) {
    // Reuse the consumed front before growing.
    memmove(s->pending.items, s->pending.items + s->head,
            (s->pending.count - s->head) * sizeof(*s->pending.items));
    s->pending.count -= s->head;
    s->head = 0;
  }
  hipError_t error = rl_hip_list_append(&s->pending, op);
  if (error) return error;
  // The list copied the kernarg; the staged source moves to the queue.
  s->pending.items[s->pending.count - 1].staged = op->staged;
  s->pending.items[s->pending.count - 1].order = ++rl_hip.next_order;
  if (op->kind == RL_HIP_OP_LAUNCH) {
    s->pending.items[s->pending.count - 1].launch_number =
        ++rl_hip.launches_queued;
  }
  ++s->submitted;
  return hipSuccess;
}

// Appends a wait of |s| for what |on| has queued, when |on| has work
// outstanding.
static hipError_t rl_hip_exec_wait_for(struct ihipStream_t* s,
                                       struct ihipStream_t* on) {
  if (on->completed == on->submitted) return hipSuccess;
  const rl_hip_op_t wait = {.kind = RL_HIP_OP_WAIT, .wait_stream = on,
                            .wait_seq = on->submitted};
  return rl_hip_exec_append(s, &wait);
}

hipError_t rl_hip_exec_queue(struct ihipStream_t* s, const rl_hip_op_t* op) {
  hipError_t error = hipSuccess;
  // The legacy default stream: its work follows every blocking stream's
  // queued work, and a blocking stream's work follows the null stream's.
  if (s == &rl_hip.null_stream) {
    for (uint32_t i = 0; !error && i < rl_hip.stream_count; ++i) {
      if (!rl_hip.streams[i]->non_blocking) {
        error = rl_hip_exec_wait_for(s, rl_hip.streams[i]);
      }
    }
  } else if (!s->non_blocking) {
    error = rl_hip_exec_wait_for(s, &rl_hip.null_stream);
  }
  if (!error) error = rl_hip_exec_append(s, op);
  if (!error) pthread_cond_signal(&rl_hip.work);
  return error;
}

hipError_t rl_hip_wait_seq(struct ihipStream_t* s, uint64_t seq) {
  if (s->completed < seq && rl_hip_on_worker) {
    rl_hip_error("a host function or stream callback waited for the device "
                 "(it would wait for itself)");
    return hipErrorIllegalState;
  }
  while (s->completed < seq) pthread_cond_wait(&rl_hip.done, &rl_hip.lock);
  return rl_hip.sticky_error;
}

hipError_t rl_hip_wait_stream(struct ihipStream_t* s) {
  if (s != &rl_hip.null_stream) return rl_hip_wait_seq(s, s->submitted);
  return rl_hip_wait_all();
}

hipError_t rl_hip_wait_all(void) {
  // Targets first: work queued by other threads meanwhile is not waited for.
  uint64_t targets[RL_HIP_MAX_STREAMS];
  struct ihipStream_t* streams[RL_HIP_MAX_STREAMS];
  uint32_t count = rl_hip.stream_count;
  for (uint32_t i = 0; i < count; ++i) {
    streams[i] = rl_hip.streams[i];
    targets[i] = streams[i]->submitted;
  }
  hipError_t result =
      rl_hip_wait_seq(&rl_hip.null_stream, rl_hip.null_stream.submitted);
  for (uint32_t i = 0; i < count && result != hipErrorIllegalState; ++i) {
    hipError_t error = rl_hip_wait_seq(streams[i], targets[i]);
    if (!result) result = error;
  }
  return result;
}
