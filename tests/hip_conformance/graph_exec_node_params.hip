// graph_exec_node_params.hip — hipGraphExecKernelNodeSetParams changes the
// arguments and grid of one kernel node of an instantiated graph in place:
// launches after the call use the new parameters, launches before it keep
// the old ones, the graph the node came from is unchanged (a new
// instantiation of it runs the old parameters), and a node update that
// changes the kernel is refused with hipErrorInvalidValue, leaving the
// executable graph as it was.
// Rule: HIP API reference, hipGraphExecKernelNodeSetParams
// (https://rocm.docs.amd.com/projects/HIP/en/latest/doxygen/html/group___graph.html):
// "Sets the parameters for a kernel node in the given graphExec"; CUDA
// Runtime API, cudaGraphExecKernelNodeSetParams
// (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__GRAPH.html):
// "Updates the work represented by node in hGraphExec as though node had
// contained nodeParams at instantiation. ... node is also not modified by
// this call. ... Changes to the function ... are not supported"
// (the function must stay in the same context; HIP keeps it).
#include "conformance.h"

__global__ void add(int* v, int k) { v[blockIdx.x * 64 + threadIdx.x] += k; }
__global__ void scale(int* v, int k) { v[blockIdx.x * 64 + threadIdx.x] *= k; }

static void read(int* host, const int* v) {
  HIP_CHECK(hipMemcpy(host, v, 128 * sizeof(int), hipMemcpyDeviceToHost));
}

int main() {
  int* v;
  int host[128];
  HIP_CHECK(hipMalloc(&v, sizeof(host)));
  HIP_CHECK(hipMemset(v, 0, sizeof(host)));
  hipStream_t stream;
  HIP_CHECK(hipStreamCreateWithFlags(&stream, hipStreamNonBlocking));
  HIP_CHECK(hipStreamBeginCapture(stream, hipStreamCaptureModeGlobal));
  add<<<1, 64, 0, stream>>>(v, 1);
  scale<<<1, 64, 0, stream>>>(v, 2);
  hipGraph_t graph;
  HIP_CHECK(hipStreamEndCapture(stream, &graph));
  hipGraphNode_t nodes[2] = {};
  size_t count = 2;
  HIP_CHECK(hipGraphGetNodes(graph, nodes, &count));
  EXPECT(count == 2, "the graph has %zu nodes, expected 2", count);
  hipGraphExec_t exec;
  HIP_CHECK(hipGraphInstantiate(&exec, graph, NULL, NULL, 0));
  HIP_CHECK(hipGraphLaunch(exec, stream));  // (0 + 1) * 2 = 2
  HIP_CHECK(hipStreamSynchronize(stream));
  read(host, v);
  EXPECT(host[0] == 2 && host[64] == 0, "first launch: v[0] %d v[64] %d",
         host[0], host[64]);
  // Node 0 becomes add(v, 5) over two work-groups, by kernelParams.
  int k = 5;
  void* args[] = {&v, &k};
  hipKernelNodeParams params = {};
  HIP_CHECK(hipGraphKernelNodeGetParams(nodes[0], &params));
  params.gridDim = dim3(2);
  params.blockDim = dim3(64);
  params.kernelParams = args;
  params.extra = NULL;
  HIP_CHECK(hipGraphExecKernelNodeSetParams(exec, nodes[0], &params));
  k = 100;  // the arguments were copied by the call
  // (2 + 5) * 2 = 14; v[64] gets add's second work-group only (scale
  // still runs one): 0 + 5.
  HIP_CHECK(hipGraphLaunch(exec, stream));
  HIP_CHECK(hipStreamSynchronize(stream));
  read(host, v);
  EXPECT(host[0] == 14 && host[64] == 5,
         "after the update: v[0] %d (expected 14) v[64] %d (expected 5)",
         host[0], host[64]);
  // The graph's node is unchanged: a new instantiation runs add(v, 1).
  hipKernelNodeParams original = {};
  HIP_CHECK(hipGraphKernelNodeGetParams(nodes[0], &original));
  EXPECT(original.gridDim.x == 1, "the graph's node grid became %u",
         original.gridDim.x);
  hipGraphExec_t fresh;
  HIP_CHECK(hipGraphInstantiate(&fresh, graph, NULL, NULL, 0));
  HIP_CHECK(hipGraphLaunch(fresh, stream));  // (14 + 1) * 2 = 30
  HIP_CHECK(hipStreamSynchronize(stream));
  read(host, v);
  EXPECT(host[0] == 30 && host[64] == 5, "fresh instantiation: v[0] %d "
         "(expected 30) v[64] %d (expected 5)", host[0], host[64]);
  // Another kernel in the node: refused, the executable graph unchanged.
  hipKernelNodeParams other = params;
  HIP_CHECK(hipGraphKernelNodeGetParams(nodes[1], &other));
  other.kernelParams = args;
  other.extra = NULL;
  EXPECT_ERROR(hipGraphExecKernelNodeSetParams(exec, nodes[0], &other),
               hipErrorInvalidValue);
  k = 5;
  HIP_CHECK(hipGraphLaunch(exec, stream));  // (30 + 5) * 2 = 70, 5 + 5
  HIP_CHECK(hipStreamSynchronize(stream));
  read(host, v);
  EXPECT(host[0] == 70 && host[64] == 10, "after the refused update: v[0] "
         "%d (expected 70) v[64] %d (expected 10)", host[0], host[64]);
  HIP_CHECK(hipGraphExecDestroy(fresh));
  HIP_CHECK(hipGraphExecDestroy(exec));
  HIP_CHECK(hipGraphDestroy(graph));
  HIP_CHECK(hipStreamDestroy(stream));
  HIP_CHECK(hipFree(v));
  return 0;
}
