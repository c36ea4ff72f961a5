// sim/hip_sim/hip_sim_graph.c — stream capture and graphs
// (hipStreamBeginCapture .. hipGraphLaunch, hipGraphExecUpdate); see
// hip_sim.h for the execution model.
#include "sim/hip_sim/hip_sim_internal.h"

//===----------------------------------------------------------------------===//
// Graphs
//===----------------------------------------------------------------------===//

// Stream capture. The capturing streams append their operations to one
// list in issue order, a valid order of the graph CUDA and HIP would build
// (every dependency was issued before what depends on it). Fork and join go
// through events: a wait on an event recorded in the capture brings the
// waiting stream into the capture; a capturing stream's wait on an event
// recorded on another joins that stream up to the record. At the end every
// stream that captured work must have been joined, directly or through
// other joined streams, to the origin, or the capture fails with
// hipErrorStreamCaptureUnjoined (and leaves no graph).
RL_HIP_EXPORT hipError_t hipStreamBeginCapture(hipStream_t stream,
                                               hipStreamCaptureMode mode) {
  (void)mode;
  RL_HIP_ENTER();
  if (!stream) return rl_hip_leave(hipErrorStreamCaptureUnsupported);
  if (!rl_hip_stream_usable(stream, "hipStreamBeginCapture")) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  if (stream->capture) return rl_hip_leave(hipErrorIllegalState);
  rl_hip_capture_t* capture = calloc(1, sizeof(*capture));
  if (!capture) return rl_hip_leave(hipErrorOutOfMemory);
  capture->id = ++rl_hip.next_capture_id;
  capture->origin = stream;
  stream->capture = capture;
  stream->capture_tip = stream->capture_joined_tip = 0;
  return rl_hip_leave(hipSuccess);
}

void rl_hip_capture_record_event(struct ihipStream_t* stream,
                                 struct ihipEvent_t* event) {
  event->capture_id = stream->capture->id;
  event->capture_stream = stream;
  event->capture_tip = stream->capture_tip;
}

bool rl_hip_capture_wait_event(struct ihipStream_t* stream,
                               struct ihipEvent_t* event) {
  struct ihipStream_t* from = event->capture_stream;
  if (!event->capture_id || !from || !from->capture ||
      from->capture->id != event->capture_id) {
    return false;
  }
  rl_hip_capture_t* capture = from->capture;
  if (!stream->capture) {  // fork: |stream| joins the capture
    stream->capture = capture;
    stream->capture_tip = stream->capture_joined_tip = 0;
    stream->capture_joined_by = NULL;
    return true;
  }
  if (stream->capture == capture && from != stream &&
      event->capture_tip >= from->capture_joined_tip) {
    from->capture_joined_tip = event->capture_tip;  // join
    from->capture_joined_by = stream;
  }
  return true;
}

// True when |s|'s captured work is joined to the origin, directly or
// through a chain of joined streams (|depth| bounds a cycle).
static bool rl_hip_capture_joined(const struct ihipStream_t* s,
                                  const rl_hip_capture_t* capture,
                                  uint32_t depth) {
  if (s == capture->origin) return true;
  if (s->capture_tip == 0) return true;  // captured nothing
  if (s->capture_tip > s->capture_joined_tip || !s->capture_joined_by ||
      depth > RL_HIP_MAX_STREAMS) {
    return false;
  }
  return rl_hip_capture_joined(s->capture_joined_by, capture, depth + 1);
}

// Takes every stream out of |capture|; true when all were joined.
static bool rl_hip_capture_leave(rl_hip_capture_t* capture) {
  bool joined = true;
  for (uint32_t i = 0; i < rl_hip.stream_count; ++i) {
    const struct ihipStream_t* s = rl_hip.streams[i];
    if (s->capture == capture && !rl_hip_capture_joined(s, capture, 0)) {
      joined = false;
    }
  }
  for (uint32_t i = 0; i < rl_hip.stream_count; ++i) {
    if (rl_hip.streams[i]->capture == capture) {
      rl_hip.streams[i]->capture = NULL;
    }
  }
  capture->origin->capture = NULL;
  return joined;
}

RL_HIP_EXPORT hipError_t hipStreamEndCapture(hipStream_t stream,
                                             hipGraph_t* graph) {
  if (!graph) return hipErrorInvalidValue;
  *graph = NULL;
  RL_HIP_ENTER();
  if (!stream || !rl_hip_stream_usable(stream, "hipStreamEndCapture")) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  rl_hip_capture_t* capture = stream->capture;
  if (!capture || capture->origin != stream) {
    return rl_hip_leave(hipErrorStreamCaptureUnmatched);
  }
  bool joined = rl_hip_capture_leave(capture);
  struct ihipGraph* g = joined ? calloc(1, sizeof(*g)) : NULL;
  if (!g) {
    rl_hip_list_clear(&capture->ops);
    free(capture);
    if (!joined) {
      rl_hip_error("hipStreamEndCapture: a stream forked into the capture "
                   "was not joined back to the origin stream");
    }
    return rl_hip_leave(joined ? hipErrorOutOfMemory
                               : hipErrorStreamCaptureUnjoined);
  }
  g->magic = RL_HIP_MAGIC_GRAPH;
  g->ops = capture->ops;  // moved
  free(capture);
  *graph = g;
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipGraphInstantiate(hipGraphExec_t* exec,
                                             hipGraph_t graph,
                                             hipGraphNode_t* error_node,
                                             char* log, size_t log_size) {
  if (error_node) *error_node = NULL;
  if (log && log_size) log[0] = '\0';
  if (!exec) return hipErrorInvalidValue;
  *exec = NULL;
  RL_HIP_ENTER();
  if (!graph || graph->magic != RL_HIP_MAGIC_GRAPH) {
    return rl_hip_leave(hipErrorInvalidValue);
  }
  struct hipGraphExec* e = calloc(1, sizeof(*e));
  if (!e) return rl_hip_leave(hipErrorOutOfMemory);
  e->magic = RL_HIP_MAGIC_EXEC;
  for (uint32_t i = 0; i < graph->ops.count; ++i) {
    hipError_t error = rl_hip_list_append(&e->ops, &graph->ops.items[i]);
    if (error) {
      rl_hip_list_clear(&e->ops);
      free(e);
      return rl_hip_leave(error);
    }
  }
  *exec = e;
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipGraphLaunch(hipGraphExec_t exec,
                                        hipStream_t stream) {
  RL_HIP_ENTER();
  struct ihipStream_t* s = rl_hip_stream(stream);
  if (!exec || exec->magic != RL_HIP_MAGIC_EXEC) {
    return rl_hip_leave(hipErrorInvalidValue);
  }
  if (!rl_hip_stream_usable(s, "hipGraphLaunch")) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  for (uint32_t i = 0; i < exec->ops.count; ++i) {
    hipError_t error = rl_hip_enqueue(s, &exec->ops.items[i], false);
    if (error) return rl_hip_leave(error);
  }
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t* exec,
                                                      hipGraph_t graph,
                                                      unsigned long long flags) {
  (void)flags;
  return hipGraphInstantiate(exec, graph, NULL, NULL, 0);
}

// The executable graph takes the operations of |graph| (same topology: a
// list of the same length whose launches run the same kernels), as HIP
// updates kernel parameters in place; anything else is refused with
// hipGraphExecUpdateErrorTopologyChanged and the executable graph kept.
RL_HIP_EXPORT hipError_t hipGraphExecUpdate(hipGraphExec_t exec,
                                            hipGraph_t graph,
                                            hipGraphNode_t* error_node,
                                            hipGraphExecUpdateResult* result) {
  if (error_node) *error_node = NULL;
  if (!exec || exec->magic != RL_HIP_MAGIC_EXEC || !graph ||
      graph->magic != RL_HIP_MAGIC_GRAPH) {
    return hipErrorInvalidValue;
  }
  RL_HIP_ENTER();
  bool same = exec->ops.count == graph->ops.count;
  for (uint32_t i = 0; same && i < graph->ops.count; ++i) {
    const rl_hip_op_t* a = &exec->ops.items[i];
    const rl_hip_op_t* b = &graph->ops.items[i];
    same = a->kind == b->kind &&
           (a->kind != RL_HIP_OP_LAUNCH || a->function == b->function);
  }
  if (!same) {
    if (result) *result = hipGraphExecUpdateErrorTopologyChanged;
    return rl_hip_leave(hipErrorGraphExecUpdateFailure);
  }
  rl_hip_list_t ops = {0};
  for (uint32_t i = 0; i < graph->ops.count; ++i) {
    hipError_t error = rl_hip_list_append(&ops, &graph->ops.items[i]);
    if (error) {
      rl_hip_list_clear(&ops);
      return rl_hip_leave(error);
    }
  }
  rl_hip_list_clear(&exec->ops);
  exec->ops = ops;
  if (result) *result = hipGraphExecUpdateSuccess;
  return rl_hip_leave(hipSuccess);
}

// Replaces the launch of kernel node |node| in |exec| (the node of the
// graph |exec| was instantiated from, same index) with |params|: grid,
// block, dynamic LDS and the arguments (kernelParams or `extra`), checked
// and assembled like a launch. The kernel must stay the same (a function
// or its host stub); anything else is hipErrorInvalidValue and leaves the
// executable graph as it was. Launches already made keep the parameters
// they were made with.
RL_HIP_EXPORT hipError_t hipGraphExecKernelNodeSetParams(
    hipGraphExec_t exec, hipGraphNode_t node,
    const hipKernelNodeParams* params) {
  if (!exec || exec->magic != RL_HIP_MAGIC_EXEC || !params || !node ||
      node->magic != RL_HIP_MAGIC_NODE) {
    return hipErrorInvalidValue;
  }
  RL_HIP_ENTER();
  if (!node->graph || node->graph->magic != RL_HIP_MAGIC_GRAPH ||
      node->index >= exec->ops.count) {
    return rl_hip_leave(hipErrorInvalidValue);
  }
  rl_hip_op_t* op = &exec->ops.items[node->index];
  struct ihipModuleSymbol_t* f = (struct ihipModuleSymbol_t*)params->func;
  for (uint32_t i = 0; i < rl_hip.stub_count; ++i) {
    if ((const void*)rl_hip.stubs[i].host == params->func) {
      f = rl_hip.stubs[i].function;
    }
  }
  if (op->kind != RL_HIP_OP_LAUNCH || f != op->function ||
      node->graph->ops.items[node->index].function != op->function) {
    return rl_hip_leave(hipErrorInvalidValue);
  }
  const uint32_t grid[3] = {params->gridDim.x, params->gridDim.y,
                            params->gridDim.z};
  const uint32_t block[3] = {params->blockDim.x, params->blockDim.y,
                             params->blockDim.z};
  uint8_t* kernarg = NULL;
  hipError_t error = rl_hip_launch_kernarg(
      f, grid, block, params->sharedMemBytes, params->kernelParams,
      params->extra, "hipGraphExecKernelNodeSetParams", &kernarg);
  if (error) return rl_hip_leave(error);
  free(op->kernarg);
  op->kernarg = kernarg;
  op->kernarg_size = f->kernel->kernarg_size;
  memcpy(op->grid, grid, sizeof(grid));
  memcpy(op->block, block, sizeof(block));
  op->lds = params->sharedMemBytes;
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipStreamIsCapturing(hipStream_t stream,
                                              hipStreamCaptureStatus* status) {
  if (!status) return hipErrorInvalidValue;
  RL_HIP_ENTER();
  struct ihipStream_t* s = rl_hip_stream(stream);
  if (!rl_hip_stream_usable(s, "hipStreamIsCapturing")) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  *status = s->capture ? hipStreamCaptureStatusActive
                         : hipStreamCaptureStatusNone;
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipGraphExecDestroy(hipGraphExec_t exec) {
  if (!exec || exec->magic != RL_HIP_MAGIC_EXEC) return hipErrorInvalidValue;
  pthread_mutex_lock(&rl_hip.lock);
  exec->magic = 0;
  rl_hip_list_clear(&exec->ops);
  free(exec);
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipGraphDestroy(hipGraph_t graph) {
  if (!graph || graph->magic != RL_HIP_MAGIC_GRAPH) return hipErrorInvalidValue;
  pthread_mutex_lock(&rl_hip.lock);
  graph->magic = 0;
  rl_hip_list_clear(&graph->ops);
  free(graph->nodes);
  free(graph);
  return rl_hip_leave(hipSuccess);
}
