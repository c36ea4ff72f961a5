// capture_fork_join.hip — stream capture across streams: an event recorded
// on the capturing stream and waited for by a second stream brings that
// stream into the capture (its work becomes graph nodes and does not run
// during capture); its event waited for by the origin joins it back.
// Ending a capture with a forked stream not joined back fails with
// hipErrorStreamCaptureUnjoined; a host wait on a capturing stream, or for
// the device while one captures, fails with
// hipErrorStreamCaptureUnsupported.
// Rule: CUDA Programming Guide, "Cross-stream Dependencies and Events"
// (https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#cross-stream-dependencies-and-events):
// "It is invalid to call cudaStreamEndCapture() ... while ... [streams]
// have not been rejoined to the origin stream"; HIP implements the same
// (hipErrorStreamCaptureUnjoined: "The capture sequence contains a fork
// that was not joined to the primary stream", hip_runtime_api.h); CUDA
// Programming Guide, "Prohibited and Unhandled Operations": "it is invalid
// to synchronize or query the execution status of a stream which is being
// captured".
#include "conformance.h"

__global__ void add(int* v, int k) { v[threadIdx.x] += k; }
__global__ void scale(int* v, int k) { v[threadIdx.x] *= k; }

int main() {
  int *v, host[64];
  HIP_CHECK(hipMalloc(&v, sizeof(host)));
  HIP_CHECK(hipMemset(v, 0, sizeof(host)));
  hipStream_t origin, side;
  HIP_CHECK(hipStreamCreateWithFlags(&origin, hipStreamNonBlocking));
  HIP_CHECK(hipStreamCreateWithFlags(&side, hipStreamNonBlocking));
  hipEvent_t fork, join;
  HIP_CHECK(hipEventCreateWithFlags(&fork, hipEventDisableTiming));
  HIP_CHECK(hipEventCreateWithFlags(&join, hipEventDisableTiming));
  HIP_CHECK(hipStreamBeginCapture(origin, hipStreamCaptureModeGlobal));
  add<<<1, 64, 0, origin>>>(v, 1);
  HIP_CHECK(hipEventRecord(fork, origin));
  HIP_CHECK(hipStreamWaitEvent(side, fork, 0));
  hipStreamCaptureStatus status = hipStreamCaptureStatusNone;
  HIP_CHECK(hipStreamIsCapturing(side, &status));
  EXPECT(status == hipStreamCaptureStatusActive,
         "the forked stream is not capturing");
  scale<<<1, 64, 0, side>>>(v, 5);
  // A host wait inside a capture is not allowed.
  EXPECT_ERROR(hipStreamSynchronize(side), hipErrorStreamCaptureUnsupported);
  EXPECT_ERROR(hipDeviceSynchronize(), hipErrorStreamCaptureUnsupported);
  HIP_CHECK(hipEventRecord(join, side));
  HIP_CHECK(hipStreamWaitEvent(origin, join, 0));
  add<<<1, 64, 0, origin>>>(v, 2);
  hipGraph_t graph;
  HIP_CHECK(hipStreamEndCapture(origin, &graph));
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipMemcpy(host, v, sizeof(host), hipMemcpyDeviceToHost));
  EXPECT(host[0] == 0, "work ran during capture: v[0] = %d", host[0]);
  size_t nodes = 0;
  HIP_CHECK(hipGraphGetNodes(graph, NULL, &nodes));
  EXPECT(nodes == 3, "the graph has %zu nodes, expected 3", nodes);
  hipGraphNode_t list[4] = {};
  nodes = 4;
  HIP_CHECK(hipGraphGetNodes(graph, list, &nodes));
  EXPECT(nodes == 3 && list[3] == NULL, "hipGraphGetNodes filled %zu", nodes);
  int scale_nodes = 0;
  for (int i = 0; i < 3; ++i) {
    hipGraphNodeType type;
    HIP_CHECK(hipGraphNodeGetType(list[i], &type));
    EXPECT(type == hipGraphNodeTypeKernel, "node %d has type %d", i, (int)type);
    hipKernelNodeParams params;
    HIP_CHECK(hipGraphKernelNodeGetParams(list[i], &params));
    EXPECT(params.blockDim.x == 64 && params.gridDim.x == 1,
           "node %d: grid %u block %u", i, params.gridDim.x, params.blockDim.x);
    scale_nodes += params.func == (void*)scale;
  }
  EXPECT(scale_nodes == 1, "%d nodes run scale, expected 1", scale_nodes);
  size_t roots = 0;
  HIP_CHECK(hipGraphGetRootNodes(graph, NULL, &roots));
  EXPECT(roots >= 1, "no root node");
  hipGraphExec_t exec;
  HIP_CHECK(hipGraphInstantiate(&exec, graph, NULL, NULL, 0));
  HIP_CHECK(hipGraphLaunch(exec, origin));
  HIP_CHECK(hipStreamSynchronize(origin));
  HIP_CHECK(hipMemcpy(host, v, sizeof(host), hipMemcpyDeviceToHost));
  EXPECT(host[63] == 7, "graph result %d, expected (0 + 1) * 5 + 2 = 7",
         host[63]);
  // A fork never joined back.
  HIP_CHECK(hipStreamBeginCapture(origin, hipStreamCaptureModeGlobal));
  add<<<1, 64, 0, origin>>>(v, 1);
  HIP_CHECK(hipEventRecord(fork, origin));
  HIP_CHECK(hipStreamWaitEvent(side, fork, 0));
  scale<<<1, 64, 0, side>>>(v, 5);
  hipGraph_t unjoined = NULL;
  EXPECT_ERROR(hipStreamEndCapture(origin, &unjoined),
               hipErrorStreamCaptureUnjoined);
  EXPECT(unjoined == NULL, "an unjoined capture returned a graph");
  HIP_CHECK(hipStreamIsCapturing(side, &status));
  EXPECT(status == hipStreamCaptureStatusNone,
         "the forked stream still captures after the capture ended");
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipMemcpy(host, v, sizeof(host), hipMemcpyDeviceToHost));
  EXPECT(host[0] == 7, "the failed capture ran work: v[0] = %d", host[0]);
  conformance_ok("capture_fork_join");
  return 0;
}
