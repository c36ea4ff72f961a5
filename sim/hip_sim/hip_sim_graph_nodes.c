// sim/hip_sim/hip_sim_graph_nodes.c — the node queries of a graph
// made by stream capture (hipGraphGetNodes, hipGraphGetRootNodes,
// hipGraphNodeGetType, the dependency queries, and the parameters of
// kernel, memset, memcpy and host nodes). A captured graph here is its operations in
// issue order (hip_sim_graph.c), so its nodes form one chain: node i
// depends on node i - 1. That order is one the captured dependencies allow;
// a graph HIP builds may have fewer edges (docs/hip-runtime.md).
#include "sim/hip_sim/hip_sim_internal.h"

// The node handles of |graph|, made once; lock held.
static struct hipGraphNode* rl_hip_graph_nodes(struct ihipGraph* graph) {
  if (graph->nodes || graph->ops.count == 0) return graph->nodes;
  graph->nodes = calloc(graph->ops.count, sizeof(*graph->nodes));
  for (uint32_t i = 0; graph->nodes && i < graph->ops.count; ++i) {
    graph->nodes[i] = (struct hipGraphNode){RL_HIP_MAGIC_NODE, graph, i};
  }
  return graph->nodes;
}

// Writes up to *|count| handles of nodes [first, first + available) to
// |out| (NULL: only the count), NULL past the end, as HIP documents.
static hipError_t rl_hip_graph_list(struct ihipGraph* graph, uint32_t first,
                                    uint32_t available, hipGraphNode_t* out,
                                    size_t* count) {
  if (!out) {
    *count = available;
    return hipSuccess;
  }
  struct hipGraphNode* nodes = rl_hip_graph_nodes(graph);
  if (available && !nodes) return hipErrorOutOfMemory;
  for (size_t i = 0; i < *count; ++i) {
    out[i] = i < available ? &nodes[first + i] : NULL;
  }
  if (*count > available) *count = available;
  return hipSuccess;
}

static bool rl_hip_graph_valid(hipGraph_t graph) {
  return graph && graph->magic == RL_HIP_MAGIC_GRAPH;
}

static bool rl_hip_node_valid(hipGraphNode_t node) {
  return node && node->magic == RL_HIP_MAGIC_NODE &&
         rl_hip_graph_valid(node->graph);
}

RL_HIP_EXPORT hipError_t hipGraphGetNodes(hipGraph_t graph,
                                          hipGraphNode_t* nodes,
                                          size_t* numNodes) {
  if (!numNodes) return hipErrorInvalidValue;
  pthread_mutex_lock(&rl_hip.lock);
  if (!rl_hip_graph_valid(graph)) return rl_hip_leave(hipErrorInvalidValue);
  return rl_hip_leave(
      rl_hip_graph_list(graph, 0, graph->ops.count, nodes, numNodes));
}

RL_HIP_EXPORT hipError_t hipGraphGetRootNodes(hipGraph_t graph,
                                              hipGraphNode_t* pRootNodes,
                                              size_t* pNumRootNodes) {
  if (!pNumRootNodes) return hipErrorInvalidValue;
  pthread_mutex_lock(&rl_hip.lock);
  if (!rl_hip_graph_valid(graph)) return rl_hip_leave(hipErrorInvalidValue);
  return rl_hip_leave(rl_hip_graph_list(graph, 0, graph->ops.count ? 1 : 0,
                                        pRootNodes, pNumRootNodes));
}

RL_HIP_EXPORT hipError_t hipGraphNodeGetDependencies(
    hipGraphNode_t node, hipGraphNode_t* pDependencies,
    size_t* pNumDependencies) {
  if (!pNumDependencies) return hipErrorInvalidValue;
  pthread_mutex_lock(&rl_hip.lock);
  if (!rl_hip_node_valid(node)) return rl_hip_leave(hipErrorInvalidValue);
  uint32_t first = node->index ? node->index - 1 : 0;
  return rl_hip_leave(rl_hip_graph_list(node->graph, first,
                                        node->index ? 1 : 0, pDependencies,
                                        pNumDependencies));
}

RL_HIP_EXPORT hipError_t hipGraphNodeGetDependentNodes(
    hipGraphNode_t node, hipGraphNode_t* pDependentNodes,
    size_t* pNumDependentNodes) {
  if (!pNumDependentNodes) return hipErrorInvalidValue;
  pthread_mutex_lock(&rl_hip.lock);
  if (!rl_hip_node_valid(node)) return rl_hip_leave(hipErrorInvalidValue);
  bool last = node->index + 1 >= node->graph->ops.count;
  return rl_hip_leave(rl_hip_graph_list(node->graph, node->index + 1,
                                        last ? 0 : 1, pDependentNodes,
                                        pNumDependentNodes));
}

RL_HIP_EXPORT hipError_t hipGraphNodeGetType(hipGraphNode_t node,
                                             hipGraphNodeType* pType) {
  if (!pType) return hipErrorInvalidValue;
  pthread_mutex_lock(&rl_hip.lock);
  if (!rl_hip_node_valid(node)) return rl_hip_leave(hipErrorInvalidValue);
  switch (node->graph->ops.items[node->index].kind) {
    case RL_HIP_OP_LAUNCH: *pType = hipGraphNodeTypeKernel; break;
    case RL_HIP_OP_COPY: *pType = hipGraphNodeTypeMemcpy; break;
    case RL_HIP_OP_SET: *pType = hipGraphNodeTypeMemset; break;
    case RL_HIP_OP_HOST: *pType = hipGraphNodeTypeHost; break;
    default: *pType = hipGraphNodeTypeEmpty; break;
  }
  return rl_hip_leave(hipSuccess);
}

// |func| is the kernel's host stub when it has one (a <<<>>> kernel), else
// its hipFunction_t; |kernelParams| and |extra| are NULL (the captured
// kernarg is not split back into arguments).
RL_HIP_EXPORT hipError_t hipGraphKernelNodeGetParams(
    hipGraphNode_t node, hipKernelNodeParams* pNodeParams) {
  if (!pNodeParams) return hipErrorInvalidValue;
  pthread_mutex_lock(&rl_hip.lock);
  if (!rl_hip_node_valid(node)) return rl_hip_leave(hipErrorInvalidValue);
  const rl_hip_op_t* op = &node->graph->ops.items[node->index];
  if (op->kind != RL_HIP_OP_LAUNCH) return rl_hip_leave(hipErrorInvalidValue);
  memset(pNodeParams, 0, sizeof(*pNodeParams));
  pNodeParams->func = op->function;
  for (uint32_t i = 0; i < rl_hip.stub_count; ++i) {
    if (rl_hip.stubs[i].function == op->function) {
      pNodeParams->func = (void*)rl_hip.stubs[i].host;
    }
  }
  pNodeParams->gridDim = (dim3){op->grid[0], op->grid[1], op->grid[2]};
  pNodeParams->blockDim = (dim3){op->block[0], op->block[1], op->block[2]};
  pNodeParams->sharedMemBytes = op->lds;
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipGraphMemsetNodeGetParams(
    hipGraphNode_t node, hipMemsetParams* pNodeParams) {
  if (!pNodeParams) return hipErrorInvalidValue;
  pthread_mutex_lock(&rl_hip.lock);
  if (!rl_hip_node_valid(node)) return rl_hip_leave(hipErrorInvalidValue);
  const rl_hip_op_t* op = &node->graph->ops.items[node->index];
  if (op->kind != RL_HIP_OP_SET) return rl_hip_leave(hipErrorInvalidValue);
  memset(pNodeParams, 0, sizeof(*pNodeParams));
  pNodeParams->dst = op->dst;
  pNodeParams->elementSize = op->value_size;
  pNodeParams->value = op->value;
  pNodeParams->width = op->size / op->value_size;
  pNodeParams->height = 1;
  pNodeParams->pitch = op->size;
  return rl_hip_leave(hipSuccess);
}

// A captured copy is one-dimensional: |size| bytes as one row of a 3-D
// copy between two pitched pointers of that width.
RL_HIP_EXPORT hipError_t hipGraphMemcpyNodeGetParams(
    hipGraphNode_t node, hipMemcpy3DParms* pNodeParams) {
  if (!pNodeParams) return hipErrorInvalidValue;
  pthread_mutex_lock(&rl_hip.lock);
  if (!rl_hip_node_valid(node)) return rl_hip_leave(hipErrorInvalidValue);
  const rl_hip_op_t* op = &node->graph->ops.items[node->index];
  if (op->kind != RL_HIP_OP_COPY) return rl_hip_leave(hipErrorInvalidValue);
  memset(pNodeParams, 0, sizeof(*pNodeParams));
  pNodeParams->srcPtr = (hipPitchedPtr){(void*)op->src, op->size, op->size, 1};
  pNodeParams->dstPtr = (hipPitchedPtr){op->dst, op->size, op->size, 1};
  pNodeParams->extent = (hipExtent){op->size, 1, 1};
  pNodeParams->kind = (hipMemcpyKind)op->value;
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipGraphHostNodeGetParams(
    hipGraphNode_t node, hipHostNodeParams* pNodeParams) {
  if (!pNodeParams) return hipErrorInvalidValue;
  pthread_mutex_lock(&rl_hip.lock);
  if (!rl_hip_node_valid(node)) return rl_hip_leave(hipErrorInvalidValue);
  const rl_hip_op_t* op = &node->graph->ops.items[node->index];
  if (op->kind != RL_HIP_OP_HOST || !op->host_fn) {
    return rl_hip_leave(hipErrorInvalidValue);
  }
  pNodeParams->fn = op->host_fn;
  pNodeParams->userData = op->host_data;
  return rl_hip_leave(hipSuccess);
}
