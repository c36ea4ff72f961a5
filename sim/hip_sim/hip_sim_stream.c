// sim/hip_sim/hip_sim_stream.c — streams and their operations,
// launches (hipModuleLaunchKernel, hipLaunchKernel and the <<<>>> call
// configuration, hipExtModuleLaunchKernel) and events; the execution model
// is hip_sim.h's.
#include <stdint.h>

#include "capture/recording/hip_ext_abi.h"
#include "base/trace.h"
#include "sim/hip_sim/hip_sim_internal.h"

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

hipError_t rl_hip_list_append(rl_hip_list_t* list, const rl_hip_op_t* op) {
  if (list->count == list->capacity) {
    uint32_t capacity = list->capacity ? list->capacity * 2 : 16;
    void* grown = realloc(list->items, capacity * sizeof(*list->items));
    if (!grown) return hipErrorOutOfMemory;
    list->items = grown;
    list->capacity = capacity;
  }
  rl_hip_op_t copy = *op;
  copy.kernarg = NULL;
  copy.staged = NULL;  // a staged source is the queue's (hip_sim_exec.c)
  if (op->kind == RL_HIP_OP_LAUNCH) {
    copy.kernarg = malloc(op->kernarg_size ? op->kernarg_size : 1);
    if (!copy.kernarg) return hipErrorOutOfMemory;
    memcpy(copy.kernarg, op->kernarg, op->kernarg_size);
  }
  list->items[list->count++] = copy;
  return hipSuccess;
}

hipError_t rl_hip_launch_run(const rl_hip_op_t* op, uint64_t launch_index,
                             char* message, size_t message_size,
                             uint64_t* out_start, uint64_t* out_ticks) {
  *out_start = *out_ticks = 0;
  const rl_code_object_kernel_t* kernel = op->function->kernel;
  const rl_funnel_dispatch_t dispatch = {
      .launch_index = (uint32_t)launch_index,
      .code_object_handle = op->function->module->handle,
      .kernel = kernel,
      .grid = {op->grid[0], op->grid[1], op->grid[2]},
      .block = {op->block[0], op->block[1], op->block[2]},
      .dynamic_lds = op->lds,
      .kernarg = op->kernarg,
      .kernarg_size = op->kernarg_size,
  };
  // A cooperative launch: the simulator keeps all its work-groups resident
  // (sim.h rl_sim_set_cooperative); the launch is waited for under the
  // device lock, so no other dispatch is validated meanwhile.
  if (op->cooperative) rl_sim_set_cooperative(rl_hip.sim, true);
  rl_status_t status = rl_hip.adapter.launch(rl_hip.adapter.self, &dispatch);
  if (op->cooperative) rl_sim_set_cooperative(rl_hip.sim, false);
  if (status) {
    snprintf(message, message_size, "%s", rl_status_message(status));
    // A launch that outlived its bound: the report names it (the device's
    // destruction stops its work-group; the worker is joined before the
    // report is read).
    if (rl_status_is(status, RL_STATUS_QUARANTINED) && !rl_hip.stopped[0]) {
      snprintf(rl_hip.stopped, sizeof(rl_hip.stopped), "%s", kernel->name);
      rl_hip.stopped_stall = rl_device_funnel_stalled(
          &rl_hip.adapter, &rl_hip.stopped_wg_done, &rl_hip.stopped_wg_total);
    }
    rl_status_free(status);
    return hipErrorLaunchFailure;
  }
  rl_sim_dispatch_record_t record;
  if (rl_sim_dispatch_log(rl_hip.sim, &record, 1) == 1 &&
      record.end_timestamp >= record.start_timestamp) {
    *out_start = record.start_timestamp;
    *out_ticks = record.end_timestamp - record.start_timestamp;
  }
  return hipSuccess;
}

void rl_hip_launch_finish(const rl_hip_op_t* op, hipError_t result,
                          const char* message, uint64_t start,
                          uint64_t ticks) {
  const rl_code_object_kernel_t* kernel = op->function->kernel;
  if (result) {
    fprintf(stderr, "redline hip: kernel %s failed: %s\n", kernel->name,
            message);
    rl_hip_error("launch of %s failed: %s", kernel->name, message);
    if (!rl_hip.failed_launch[0]) {
      snprintf(rl_hip.failed_launch, sizeof(rl_hip.failed_launch),
               "#%llu %s: %s", (unsigned long long)rl_hip.launches_run,
               kernel->name, message);
    }
    rl_hip.sticky_error = hipErrorLaunchFailure;
    return;
  }
  ++rl_hip.launches_run;
  if (op->function->launches++ == 0) ++rl_hip.kernels_run;
  rl_hip.device_ticks += ticks;
  if (rl_hip.trace && start) {
    // The simulator's timestamps are CLOCK_MONOTONIC in 10 ns ticks
    // (sim/sim.h), the trace's clock.
    const uint64_t tick_ns = 1000000000ull / rl_hip.sim->timestamp_frequency;
    char name[160];
    snprintf(name, sizeof(name), "%s #%llu", kernel->name,
             (unsigned long long)(rl_hip.launches_run - 1));
    const rl_trace_arg_t args[] = {
        {"launch", NULL, (double)(rl_hip.launches_run - 1)},
        {"grid", NULL, (double)op->grid[0] * op->grid[1] * op->grid[2]},
        {"block", NULL, (double)op->block[0] * op->block[1] * op->block[2]},
    };
    rl_trace_span(rl_hip.trace, 1, 1, name, "dispatch", start * tick_ns,
                  ticks * tick_ns, args, 3);
  }
  rl_hip_printf_flush();
}

hipError_t rl_hip_enqueue(struct ihipStream_t* stream, const rl_hip_op_t* op,
                          bool sync) {
  if (stream->capture) {
    rl_hip_capture_t* capture = stream->capture;
    stream->capture_tip = ++capture->next_tip;
    return rl_hip_list_append(&capture->ops, op);
  }
  if (rl_hip.sticky_error) return rl_hip.sticky_error;
  rl_hip_op_t prepared = *op;
  prepared.staged = NULL;
  bool wait = sync;
  if (op->kind == RL_HIP_OP_COPY || op->kind == RL_HIP_OP_SET) {
    hipError_t error = rl_hip_copy_prepare(&prepared, sync, &wait);
    if (error) return error;
  }
  hipError_t error = rl_hip_exec_queue(stream, &prepared);
  if (error) {
    free(prepared.staged);
    return error;
  }
  return wait ? rl_hip_wait_seq(stream, stream->submitted) : hipSuccess;
}

//===----------------------------------------------------------------------===//
// Streams
//===----------------------------------------------------------------------===//

struct ihipStream_t* rl_hip_stream(hipStream_t stream) {
  return stream ? stream : &rl_hip.null_stream;
}

bool rl_hip_stream_usable(struct ihipStream_t* stream, const char* call) {
  if (stream->magic != RL_HIP_MAGIC_STREAM) return false;
  if (stream->destroyed) {
    rl_hip_error("%s on destroyed stream %p", call, (void*)stream);
    return false;
  }
  return true;
}

RL_HIP_EXPORT hipError_t hipStreamCreateWithFlags(hipStream_t* stream,
                                                  unsigned int flags) {
  if (!stream) return hipErrorInvalidValue;
  RL_HIP_ENTER();
  if (rl_hip.stream_count == RL_HIP_MAX_STREAMS) {
    return rl_hip_leave(hipErrorOutOfMemory);
  }
  struct ihipStream_t* s = calloc(1, sizeof(*s));
  if (!s) return rl_hip_leave(hipErrorOutOfMemory);
  s->magic = RL_HIP_MAGIC_STREAM;
  s->non_blocking = (flags & hipStreamNonBlocking) != 0;
  rl_hip.streams[rl_hip.stream_count++] = s;
  *stream = s;
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipStreamCreate(hipStream_t* stream) {
  return hipStreamCreateWithFlags(stream, hipStreamDefault);
}

RL_HIP_EXPORT hipError_t hipStreamCreateWithPriority(hipStream_t* stream,
                                                     unsigned int flags,
                                                     int priority) {
  (void)priority;
  return hipStreamCreateWithFlags(stream, flags);
}

RL_HIP_EXPORT hipError_t hipDeviceGetStreamPriorityRange(int* least,
                                                         int* greatest) {
  if (least) *least = 0;
  if (greatest) *greatest = 0;
  return hipSuccess;
}

RL_HIP_EXPORT hipError_t hipStreamGetFlags(hipStream_t stream,
                                           unsigned int* flags) {
  if (!flags) return hipErrorInvalidValue;
  RL_HIP_ENTER();
  struct ihipStream_t* s = rl_hip_stream(stream);
  if (!rl_hip_stream_usable(s, "hipStreamGetFlags")) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  *flags = s->non_blocking ? hipStreamNonBlocking : hipStreamDefault;
  return rl_hip_leave(hipSuccess);
}

// A host-side wait on a capturing stream is not allowed (HIP and CUDA
// report hipErrorStreamCaptureUnsupported).
RL_HIP_EXPORT hipError_t hipStreamSynchronize(hipStream_t stream) {
  RL_HIP_ENTER();
  struct ihipStream_t* s = rl_hip_stream(stream);
  if (!rl_hip_stream_usable(s, "hipStreamSynchronize")) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  if (s->capture) return rl_hip_leave(hipErrorStreamCaptureUnsupported);
  return rl_hip_leave(rl_hip_wait_stream(s));
}

// hipSuccess when everything queued on |stream| has completed, else
// hipErrorNotReady. REDLINE_STANDIN_HIP_HANG=1 makes every query answer
// hipErrorNotReady (a kernel that never finishes), for the tests of
// redline's bounded waits.
RL_HIP_EXPORT hipError_t hipStreamQuery(hipStream_t stream) {
  RL_HIP_ENTER();
  struct ihipStream_t* s = rl_hip_stream(stream);
  if (!rl_hip_stream_usable(s, "hipStreamQuery")) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  const char* hang = getenv("REDLINE_STANDIN_HIP_HANG");
  if (hang && strcmp(hang, "1") == 0) return rl_hip_leave(hipErrorNotReady);
  if (rl_hip.sticky_error) return rl_hip_leave(rl_hip.sticky_error);
  return rl_hip_leave(s->completed < s->submitted ? hipErrorNotReady
                                                  : hipSuccess);
}

// Waits for the stream's queued work (HIP returns at once and releases the
// stream later; waiting is the same for the program), then frees its slot.
RL_HIP_EXPORT hipError_t hipStreamDestroy(hipStream_t stream) {
  RL_HIP_ENTER();
  if (!stream || !rl_hip_stream_usable(stream, "hipStreamDestroy")) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  rl_status_t reserved = RL_ARRAY_RESERVE(&rl_hip.destroyed,
                                          &rl_hip.destroyed_capacity,
                                          rl_hip.destroyed_count + 1);
  if (reserved) {
    rl_status_free(reserved);
    return rl_hip_leave(hipErrorOutOfMemory);
  }
  hipError_t result = rl_hip_wait_seq(stream, stream->submitted);
  rl_hip_capture_t* capture = stream->capture;
  if (capture && capture->origin == stream) {  // the capture ends unused
    for (uint32_t i = 0; i < rl_hip.stream_count; ++i) {
      if (rl_hip.streams[i]->capture == capture) {
        rl_hip.streams[i]->capture = NULL;
      }
    }
    rl_hip_list_clear(&capture->ops);
    free(capture);
  }
  stream->capture = NULL;
  stream->destroyed = true;
  for (uint32_t i = 0; i < rl_hip.stream_count; ++i) {
    if (rl_hip.streams[i] == stream) {
      rl_hip.streams[i] = rl_hip.streams[--rl_hip.stream_count];
      break;
    }
  }
  rl_hip.destroyed[rl_hip.destroyed_count++] = stream;
  return rl_hip_leave(result);
}

RL_HIP_EXPORT hipError_t hipStreamWaitEvent(hipStream_t stream,
                                            hipEvent_t event,
                                            unsigned int flags) {
  RL_HIP_ENTER();
  struct ihipStream_t* s = rl_hip_stream(stream);
  if (!rl_hip_stream_usable(s, "hipStreamWaitEvent")) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  if (!event || event->magic != RL_HIP_MAGIC_EVENT) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  if (flags != 0) return rl_hip_leave(hipErrorInvalidValue);
  if (rl_hip_capture_wait_event(s, event)) return rl_hip_leave(hipSuccess);
  if (!event->recorded || s->capture) {
    return rl_hip_leave(hipSuccess);  // as HIP: nothing to wait for
  }
  // Exactly the work before the record: the event's stream's operation
  // |seq|; later work of that stream is not waited for.
  if (event->stream == s || event->stream->completed >= event->seq) {
    return rl_hip_leave(hipSuccess);
  }
  const rl_hip_op_t op = {.kind = RL_HIP_OP_WAIT,
                          .wait_stream = event->stream,
                          .wait_seq = event->seq};
  return rl_hip_leave(rl_hip_exec_queue(s, &op));
}

// A host function or stream callback, in stream order (a node of the graph
// when the stream is capturing).
static hipError_t rl_hip_host_op(hipStream_t stream, const rl_hip_op_t* op,
                                 const char* call) {
  RL_HIP_ENTER();
  struct ihipStream_t* s = rl_hip_stream(stream);
  if (!rl_hip_stream_usable(s, call)) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  rl_hip_op_t queued = *op;
  queued.callback_stream = stream;
  return rl_hip_leave(rl_hip_enqueue(s, &queued, false));
}

RL_HIP_EXPORT hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn,
                                           void* data) {
  if (!fn) return hipErrorInvalidValue;
  const rl_hip_op_t op = {.kind = RL_HIP_OP_HOST, .host_fn = fn,
                          .host_data = data};
  return rl_hip_host_op(stream, &op, "hipLaunchHostFunc");
}

// |flags| must be 0 (HIP's documentation: reserved).
RL_HIP_EXPORT hipError_t hipStreamAddCallback(hipStream_t stream,
                                              hipStreamCallback_t callback,
                                              void* data, unsigned int flags) {
  if (!callback || flags != 0) return hipErrorInvalidValue;
  const rl_hip_op_t op = {.kind = RL_HIP_OP_HOST, .callback = callback,
                          .host_data = data};
  return rl_hip_host_op(stream, &op, "hipStreamAddCallback");
}

//===----------------------------------------------------------------------===//
// Events
//===----------------------------------------------------------------------===//

#define RL_HIP_EVENT_FLAGS                                            \
  (hipEventDefault | hipEventBlockingSync | hipEventDisableTiming |   \
   hipEventInterprocess | hipEventReleaseToDevice |                   \
   hipEventReleaseToSystem)

RL_HIP_EXPORT hipError_t hipEventCreateWithFlags(hipEvent_t* event,
                                                 unsigned flags) {
  if (!event) return hipErrorInvalidValue;
  // Interprocess events must disable timing (HIP and CUDA).
  if ((flags & ~(unsigned)RL_HIP_EVENT_FLAGS) ||
      ((flags & hipEventInterprocess) && !(flags & hipEventDisableTiming))) {
    return hipErrorInvalidValue;
  }
  struct ihipEvent_t* e = calloc(1, sizeof(*e));
  if (!e) return hipErrorOutOfMemory;
  e->magic = RL_HIP_MAGIC_EVENT;
  e->flags = flags;
  *event = e;
  return hipSuccess;
}

RL_HIP_EXPORT hipError_t hipEventCreate(hipEvent_t* event) {
  return hipEventCreateWithFlags(event, 0);
}

// A queued marker names the event: the destruction waits for it.
RL_HIP_EXPORT hipError_t hipEventDestroy(hipEvent_t event) {
  RL_HIP_ENTER();
  if (!event || event->magic != RL_HIP_MAGIC_EVENT) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  event->magic = 0;
  while (event->markers_pending) {
    pthread_cond_wait(&rl_hip.done, &rl_hip.lock);
  }
  free(event);
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) {
  RL_HIP_ENTER();
  struct ihipStream_t* s = rl_hip_stream(stream);
  if (!event || event->magic != RL_HIP_MAGIC_EVENT ||
      !rl_hip_stream_usable(s, "hipEventRecord")) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  if (s->capture) {
    rl_hip_capture_record_event(s, event);
    return rl_hip_leave(hipSuccess);
  }
  event->capture_id = 0;
  const rl_hip_op_t op = {.kind = RL_HIP_OP_EVENT, .event = event,
                          .event_seq = s->submitted + 1};
  hipError_t error = rl_hip_exec_queue(s, &op);
  if (error) return rl_hip_leave(error);
  // The marker is the stream's last operation (implicit waits go before).
  event->recorded = true;
  event->stream = s;
  event->seq = s->submitted;
  s->pending.items[s->pending.count - 1].event_seq = s->submitted;
  ++event->markers_pending;
  return rl_hip_leave(hipSuccess);
}

static bool rl_hip_event_done(const struct ihipEvent_t* e) {
  return !e->recorded || e->stream->completed >= e->seq;
}

RL_HIP_EXPORT hipError_t hipEventSynchronize(hipEvent_t event) {
  RL_HIP_ENTER();
  if (!event || event->magic != RL_HIP_MAGIC_EVENT) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  if (!event->recorded) return rl_hip_leave(hipSuccess);
  return rl_hip_leave(rl_hip_wait_seq(event->stream, event->seq));
}

RL_HIP_EXPORT hipError_t hipEventQuery(hipEvent_t event) {
  RL_HIP_ENTER();
  if (!event || event->magic != RL_HIP_MAGIC_EVENT) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  if (rl_hip.sticky_error) return rl_hip_leave(rl_hip.sticky_error);
  return rl_hip_leave(rl_hip_event_done(event) ? hipSuccess
                                               : hipErrorNotReady);
}

// HIP: either event created with hipEventDisableTiming, or not recorded,
// is hipErrorInvalidHandle; not yet completed is hipErrorNotReady.
RL_HIP_EXPORT hipError_t hipEventElapsedTime(float* ms, hipEvent_t start,
                                             hipEvent_t stop) {
  if (!ms) return hipErrorInvalidValue;
  RL_HIP_ENTER();
  if (!start || start->magic != RL_HIP_MAGIC_EVENT || !stop ||
      stop->magic != RL_HIP_MAGIC_EVENT) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  if ((start->flags | stop->flags) & hipEventDisableTiming) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  if (!start->recorded || !stop->recorded) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  if (!rl_hip_event_done(start) || !rl_hip_event_done(stop)) {
    return rl_hip_leave(hipErrorNotReady);
  }
  double ticks = (double)stop->timestamp - (double)start->timestamp;
  *ms = (float)(ticks * 1000.0 / (double)rl_hip.sim->timestamp_frequency);
  return rl_hip_leave(hipSuccess);
}

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

// Writes the hidden arguments at or past |given| bytes of |kernarg|
// (redline/funnel.h lists what HIP puts in each; the printf buffer is the
// runtime's, hip_sim.h).
static void rl_hip_fill_hidden(const rl_code_object_kernel_t* kernel,
                               uint8_t* kernarg, uint32_t given,
                               const uint32_t grid[3], const uint32_t block[3],
                               uint32_t lds) {
  for (uint32_t i = 0; i < kernel->arg_count; ++i) {
    const rl_kernel_arg_t* arg = &kernel->args[i];
    if (arg->kind != RL_ARG_KIND_HIDDEN || arg->offset < given) continue;
    if (arg->offset + arg->size > kernel->kernarg_size) continue;
    const char* kind = arg->value_kind;
    uint64_t value = 0;
    if (strncmp(kind, "hidden_block_count_", 19) == 0) {
      value = grid[kind[19] - 'x'];
    } else if (strncmp(kind, "hidden_group_size_", 18) == 0) {
      value = block[kind[18] - 'x'];
    } else if (strcmp(kind, "hidden_grid_dims") == 0) {
      value = 3;
    } else if (strcmp(kind, "hidden_dynamic_lds_size") == 0) {
      value = lds;
    } else if (strcmp(kind, "hidden_printf_buffer") == 0) {
      value = rl_hip.printf_buffer;
    }
    memset(kernarg + arg->offset, 0, arg->size);
    memcpy(kernarg + arg->offset, &value, arg->size < 8 ? arg->size : 8);
  }
}

// Pointer arguments into host-visible or registered memory become device
// addresses (registered memory: its mirror's, hip_sim_register.c).
static void rl_hip_translate_pointers(const rl_code_object_kernel_t* kernel,
                                      uint8_t* kernarg) {
  for (uint32_t i = 0; i < kernel->arg_count; ++i) {
    const rl_kernel_arg_t* arg = &kernel->args[i];
    if (arg->kind != RL_ARG_KIND_GLOBAL_BUFFER || arg->size != 8) continue;
    uint64_t value;
    memcpy(&value, kernarg + arg->offset, 8);
    uint64_t device = rl_hip_device_address((const void*)(uintptr_t)value);
    memcpy(kernarg + arg->offset, &device, 8);
  }
}

// Checks a launch's geometry and LDS at the call, as HIP does before it
// builds a command (ROCm CLR ihipLaunchKernel_validate): a zero or too
// large dimension or a work-group above 1024 work-items is
// hipErrorInvalidConfiguration (grid limits: hipDeviceProp_t.maxGridSize,
// and at most 2^32 - 1 work-items per axis, the AQL packet's field); more
// LDS than a work-group may have (the kernel's static LDS plus the
// launch's dynamic LDS above the device's limit) is hipErrorInvalidValue.
// A refused launch never reaches the device, which stays usable.
static hipError_t rl_hip_launch_check(const rl_code_object_kernel_t* kernel,
                                      const uint32_t grid[3],
                                      const uint32_t block[3], uint32_t lds,
                                      const char* call) {
  const uint64_t max_grid[3] = {INT32_MAX, 65535, 65535};
  for (int axis = 0; axis < 3; ++axis) {
    if (!grid[axis] || !block[axis] || block[axis] > 1024u ||
        grid[axis] > max_grid[axis] ||
        (uint64_t)grid[axis] * block[axis] > UINT32_MAX) {
      rl_hip_error("%s(%s): grid %ux%ux%u, block %ux%ux%u out of the "
                   "device's limits", call, kernel->name, grid[0], grid[1],
                   grid[2], block[0], block[1], block[2]);
      return hipErrorInvalidConfiguration;
    }
  }
  if ((uint64_t)block[0] * block[1] * block[2] > 1024u) {
    rl_hip_error("%s(%s): %llu work-items per block, the limit is 1024",
                 call, kernel->name,
                 (unsigned long long)block[0] * block[1] * block[2]);
    return hipErrorInvalidConfiguration;
  }
  if ((uint64_t)kernel->group_segment_size + lds > rl_hip.sim->lds_limit) {
    rl_hip_error("%s(%s): %u bytes of static and %u of dynamic LDS, the "
                 "device has %u per work-group", call, kernel->name,
                 kernel->group_segment_size, lds, rl_hip.sim->lds_limit);
    return hipErrorInvalidValue;
  }
  return hipSuccess;
}

// Queues a launch; lock held. |extra_bytes| is the `extra` buffer (NULL:
// |params| holds one pointer per explicit argument).
hipError_t rl_hip_launch_locked(struct ihipModuleSymbol_t* f,
                                const uint32_t grid[3],
                                const uint32_t block[3], uint32_t lds,
                                struct ihipStream_t* s, void** params,
                                void** extra, const char* call,
                                bool cooperative) {
  if (!rl_hip_stream_usable(s, call)) return hipErrorInvalidHandle;
  if (!f || f->magic != RL_HIP_MAGIC_FUNCTION) {
    return hipErrorInvalidResourceHandle;
  }
  if (!f->module->live) {
    rl_hip_error("%s: %s belongs to an unloaded module", call,
                 f->kernel->name);
    return hipErrorInvalidHandle;
  }
  uint8_t* kernarg = NULL;
  hipError_t invalid =
      rl_hip_launch_kernarg(f, grid, block, lds, params, extra, call, &kernarg);
  if (invalid) return invalid;
  const rl_hip_op_t op = {.kind = RL_HIP_OP_LAUNCH,
                          .function = f,
                          .grid = {grid[0], grid[1], grid[2]},
                          .block = {block[0], block[1], block[2]},
                          .lds = lds,
                          .cooperative = cooperative,
                          .kernarg = kernarg,
                          .kernarg_size = f->kernel->kernarg_size};
  hipError_t result = rl_hip_enqueue(s, &op, false);
  free(kernarg);
  return result;
}

hipError_t rl_hip_launch_kernarg(struct ihipModuleSymbol_t* f,
                                 const uint32_t grid[3],
                                 const uint32_t block[3], uint32_t lds,
                                 void** params, void** extra,
                                 const char* call, uint8_t** out_kernarg) {
  *out_kernarg = NULL;
  const rl_code_object_kernel_t* kernel = f->kernel;
  hipError_t invalid = rl_hip_launch_check(kernel, grid, block, lds, call);
  if (invalid) return invalid;
  uint32_t explicit_count = 0;
  for (uint32_t i = 0; i < kernel->arg_count; ++i) {
    explicit_count += kernel->args[i].kind != RL_ARG_KIND_HIDDEN;
  }
  if ((params && extra) || (!params && !extra && explicit_count)) {
    return hipErrorInvalidValue;
  }
  uint8_t* kernarg = calloc(1, kernel->kernarg_size ? kernel->kernarg_size : 1);
  if (!kernarg) return hipErrorOutOfMemory;
  uint32_t given = 0;
  if (params) {
    uint32_t explicit_index = 0;
    for (uint32_t i = 0; i < kernel->arg_count; ++i) {
      const rl_kernel_arg_t* arg = &kernel->args[i];
      if (arg->kind == RL_ARG_KIND_HIDDEN) continue;
      memcpy(kernarg + arg->offset, params[explicit_index++], arg->size);
    }
  } else if (extra) {
    const void* buffer = NULL;
    size_t size = 0;
    bool have_size = false;
    for (uint32_t i = 0; extra[i] != HIP_LAUNCH_PARAM_END; i += 2) {
      if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_POINTER) {
        buffer = extra[i + 1];
      } else if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_SIZE) {
        size = *(const size_t*)extra[i + 1];
        have_size = true;
      } else {
        free(kernarg);
        return hipErrorInvalidValue;
      }
    }
    if (!buffer || !have_size || size > kernel->kernarg_size) {
      free(kernarg);
      return hipErrorInvalidValue;
    }
    memcpy(kernarg, buffer, size);
    given = (uint32_t)size;
  }
  rl_hip_translate_pointers(kernel, kernarg);
  rl_hip_fill_hidden(kernel, kernarg, given, grid, block, lds);
  *out_kernarg = kernarg;
  return hipSuccess;
}

RL_HIP_EXPORT hipError_t hipModuleLaunchKernel(
    hipFunction_t f, unsigned int gx, unsigned int gy, unsigned int gz,
    unsigned int bx, unsigned int by, unsigned int bz, unsigned int lds,
    hipStream_t stream, void** kernelParams, void** extra) {
  RL_HIP_ENTER();
  const uint32_t grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
  return rl_hip_leave(rl_hip_launch_locked(f, grid, block, lds,
                                           rl_hip_stream(stream), kernelParams,
                                           extra, "hipModuleLaunchKernel", false));
}

// Global sizes in work-items; the simulator's dispatches are whole
// work-groups (redline/device/device_funnel.h), so a global size that is
// not a multiple of the local size is refused as not supported.
RL_HIP_EXPORT hipError_t hipExtModuleLaunchKernel(
    hipFunction_t f, uint32_t globalX, uint32_t globalY, uint32_t globalZ,
    uint32_t localX, uint32_t localY, uint32_t localZ, size_t lds,
    hipStream_t stream, void** kernelParams, void** extra,
    hipEvent_t startEvent, hipEvent_t stopEvent, uint32_t flags) {
  (void)flags;
  if (!localX || !localY || !localZ) return hipErrorInvalidConfiguration;
  if (globalX % localX || globalY % localY || globalZ % localZ) {
    rl_hip_unsupported("hipExtModuleLaunchKernel with a partial work-group");
    return hipErrorNotSupported;
  }
  if (startEvent) hipEventRecord(startEvent, stream);
  RL_HIP_ENTER();
  const uint32_t grid[3] = {globalX / localX, globalY / localY,
                            globalZ / localZ};
  const uint32_t block[3] = {localX, localY, localZ};
  hipError_t result = rl_hip_launch_locked(
      f, grid, block, (uint32_t)lds, rl_hip_stream(stream), kernelParams,
      extra, "hipExtModuleLaunchKernel", false);
  rl_hip_leave(result);
  if (!result && stopEvent) result = hipEventRecord(stopEvent, stream);
  return result;
}

RL_HIP_EXPORT hipError_t hipLaunchKernel(const void* function_address,
                                         dim3 numBlocks, dim3 dimBlocks,
                                         void** args, size_t sharedMemBytes,
                                         hipStream_t stream) {
  RL_HIP_ENTER();
  struct ihipModuleSymbol_t* f = rl_hip_stub_function(function_address);
  if (!f) {
    rl_hip_error("hipLaunchKernel(%p): not a registered kernel",
                 function_address);
    return rl_hip_leave(hipErrorInvalidDeviceFunction);
  }
  const uint32_t grid[3] = {numBlocks.x, numBlocks.y, numBlocks.z};
  const uint32_t block[3] = {dimBlocks.x, dimBlocks.y, dimBlocks.z};
  return rl_hip_leave(rl_hip_launch_locked(
      f, grid, block, (uint32_t)sharedMemBytes, rl_hip_stream(stream), args,
      NULL, "hipLaunchKernel", false));
}

// The mangled C++ names HIP 5's hip_ext.h binds, forwarding to
// hipExtModuleLaunchKernel (one definition: capture/recording/hip_ext_abi.h).
RL_HIP_EXT_ABI_FORWARDERS(RL_HIP_EXPORT)

// hip_impl::hipLaunchKernelGGLImpl(uintptr_t, const dim3&, const dim3&,
// uint32_t, hipStream_t, void**): what HIP 5's hipLaunchKernelGGL template
// calls.
void _ZN8hip_impl22hipLaunchKernelGGLImplEmRK4dim3S2_jP12ihipStream_tPPv(
    uintptr_t function_address, const dim3* numBlocks, const dim3* dimBlocks,
    uint32_t sharedMemBytes, hipStream_t stream, void** kernarg);
RL_HIP_EXPORT void _ZN8hip_impl22hipLaunchKernelGGLImplEmRK4dim3S2_jP12ihipStream_tPPv(
    uintptr_t function_address, const dim3* numBlocks, const dim3* dimBlocks,
    uint32_t sharedMemBytes, hipStream_t stream, void** kernarg) {
  hipLaunchKernel((const void*)function_address, *numBlocks, *dimBlocks,
                  kernarg, sharedMemBytes, stream);
}

// The <<<>>> call configuration: clang's host code pushes it before calling
// the kernel's host stub, which pops it and calls hipLaunchKernel. A stack
// per thread (a stub may run another launch while building arguments).
typedef struct rl_hip_call_config_s {
  dim3 grid, block;
  size_t shared;
  hipStream_t stream;
} rl_hip_call_config_t;

#define RL_HIP_CALL_CONFIG_DEPTH 16
static _Thread_local rl_hip_call_config_t
    rl_hip_call_configs[RL_HIP_CALL_CONFIG_DEPTH];
static _Thread_local uint32_t rl_hip_call_config_count;

RL_HIP_EXPORT hipError_t __hipPushCallConfiguration(dim3 gridDim,
                                                    dim3 blockDim,
                                                    size_t sharedMem,
                                                    hipStream_t stream) {
  if (rl_hip_call_config_count == RL_HIP_CALL_CONFIG_DEPTH) {
    return hipErrorInvalidConfiguration;
  }
  rl_hip_call_configs[rl_hip_call_config_count++] =
      (rl_hip_call_config_t){gridDim, blockDim, sharedMem, stream};
  return hipSuccess;
}

RL_HIP_EXPORT hipError_t __hipPopCallConfiguration(dim3* gridDim,
                                                   dim3* blockDim,
                                                   size_t* sharedMem,
                                                   hipStream_t* stream) {
  if (rl_hip_call_config_count == 0) return hipErrorInvalidConfiguration;
  const rl_hip_call_config_t* c =
      &rl_hip_call_configs[--rl_hip_call_config_count];
  *gridDim = c->grid;
  *blockDim = c->block;
  *sharedMem = c->shared;
  *stream = c->stream;
  return hipSuccess;
}

RL_HIP_EXPORT hipError_t hipConfigureCall(dim3 gridDim, dim3 blockDim,
                                          size_t sharedMem,
                                          hipStream_t stream) {
  return __hipPushCallConfiguration(gridDim, blockDim, sharedMem, stream);
}
