// redline/hip_sim/hip_sim_graph.c — stream capture and graphs
// (hipStreamBeginCapture .. hipGraphLaunch, hipGraphExecUpdate) and error
// names; see hip_sim.h for the execution model.
#include "redline/hip_sim/hip_sim_internal.h"

//===----------------------------------------------------------------------===//
// Graphs
//===----------------------------------------------------------------------===//

RL_HIP_EXPORT hipError_t hipStreamBeginCapture(hipStream_t stream,
                                               hipStreamCaptureMode mode) {
  (void)mode;
  RL_HIP_ENTER();
  if (!stream) return rl_hip_leave(hipErrorStreamCaptureUnsupported);
  if (!rl_hip_stream_usable(stream, "hipStreamBeginCapture")) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  if (stream->capturing) return rl_hip_leave(hipErrorIllegalState);
  stream->capturing = true;
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipStreamEndCapture(hipStream_t stream,
                                             hipGraph_t* graph) {
  if (!graph) return hipErrorInvalidValue;
  *graph = NULL;
  RL_HIP_ENTER();
  if (!stream || !rl_hip_stream_usable(stream, "hipStreamEndCapture")) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  if (!stream->capturing) return rl_hip_leave(hipErrorStreamCaptureUnmatched);
  struct ihipGraph* g = calloc(1, sizeof(*g));
  if (!g) return rl_hip_leave(hipErrorOutOfMemory);
  g->magic = RL_HIP_MAGIC_GRAPH;
  g->ops = stream->captured;  // moved
  memset(&stream->captured, 0, sizeof(stream->captured));
  stream->capturing = false;
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
    hipError_t error = rl_hip_enqueue(s, &exec->ops.items[i]);
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

RL_HIP_EXPORT hipError_t hipStreamIsCapturing(hipStream_t stream,
                                              hipStreamCaptureStatus* status) {
  if (!status) return hipErrorInvalidValue;
  RL_HIP_ENTER();
  struct ihipStream_t* s = rl_hip_stream(stream);
  if (!rl_hip_stream_usable(s, "hipStreamIsCapturing")) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  *status = s->capturing ? hipStreamCaptureStatusActive
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
  free(graph);
  return rl_hip_leave(hipSuccess);
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

RL_HIP_EXPORT const char* hipGetErrorName(hipError_t error) {
  switch (error) {
#define RL_HIP_NAME(e) case e: return #e;
    RL_HIP_NAME(hipSuccess)
    RL_HIP_NAME(hipErrorInvalidValue)
    RL_HIP_NAME(hipErrorOutOfMemory)
    RL_HIP_NAME(hipErrorInvalidConfiguration)
    RL_HIP_NAME(hipErrorInvalidMemcpyDirection)
    RL_HIP_NAME(hipErrorNoDevice)
    RL_HIP_NAME(hipErrorInvalidDevice)
    RL_HIP_NAME(hipErrorInvalidImage)
    RL_HIP_NAME(hipErrorInvalidHandle)
    RL_HIP_NAME(hipErrorIllegalState)
    RL_HIP_NAME(hipErrorNotFound)
    RL_HIP_NAME(hipErrorLaunchFailure)
    RL_HIP_NAME(hipErrorStreamCaptureUnsupported)
    RL_HIP_NAME(hipErrorStreamCaptureUnmatched)
    RL_HIP_NAME(hipErrorNotSupported)
    RL_HIP_NAME(hipErrorInvalidDeviceFunction)
    RL_HIP_NAME(hipErrorInvalidSymbol)
    RL_HIP_NAME(hipErrorNotReady)
    RL_HIP_NAME(hipErrorFileNotFound)
    RL_HIP_NAME(hipErrorGraphExecUpdateFailure)
    RL_HIP_NAME(hipErrorAssert)
#undef RL_HIP_NAME
    default: return "hipErrorUnknown";
  }
}

RL_HIP_EXPORT const char* hipGetErrorString(hipError_t error) {
  switch (error) {
    case hipSuccess: return "no error";
    case hipErrorInvalidValue: return "invalid argument";
    case hipErrorInvalidHandle: return "invalid resource handle";
    case hipErrorLaunchFailure: return "unspecified launch failure";
    default: return hipGetErrorName(error);
  }
}
