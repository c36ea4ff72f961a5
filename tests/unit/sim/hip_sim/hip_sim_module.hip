// hipModuleLoad / LoadData / GetFunction / GetGlobal / LaunchKernel and
// hipExtModuleLaunchKernel on a code object built apart (argv[1]), and a
// graph captured from a stream: instantiated, launched twice, updated with
// another capture and launched again (hip_sim_tests.cmake).
#include <hip/hip_ext.h>

#include <vector>

#include "hip_sim_check.h"

__global__ void scale(int* data, int factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const int n = 512;
  std::vector<int> host(n), out(n);
  for (int i = 0; i < n; ++i) host[i] = i;
  int* data;
  CHECK(hipMalloc((void**)&data, n * sizeof(int)));
  CHECK(hipMemcpy(data, host.data(), n * sizeof(int), hipMemcpyHostToDevice));

  hipModule_t module;
  CHECK(hipModuleLoad(&module, argv[1]));
  hipFunction_t add_bias;
  CHECK(hipModuleGetFunction(&add_bias, module, "add_bias"));
  EXPECT_EQ(hipModuleGetFunction(&add_bias, module, "missing"), hipErrorNotFound);
  CHECK(hipModuleGetFunction(&add_bias, module, "add_bias"));
  hipDeviceptr_t bias;
  size_t bias_size = 0;
  CHECK(hipModuleGetGlobal(&bias, &bias_size, module, "bias"));
  EXPECT_EQ(bias_size, 4);
  int ten = 10;
  CHECK(hipMemcpyHtoD(bias, &ten, sizeof(ten)));

  int count = n;
  void* params[] = {&data, &count};
  CHECK(hipModuleLaunchKernel(add_bias, n / 128, 1, 1, 128, 1, 1, 0, NULL,
                              params, NULL));
  // The `extra` form: the arguments as one buffer.
  struct { int* data; int n; } args = {data, n};
  size_t args_size = sizeof(args);
  void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args,
                   HIP_LAUNCH_PARAM_BUFFER_SIZE, &args_size,
                   HIP_LAUNCH_PARAM_END};
  hipEvent_t start, stop;
  CHECK(hipEventCreate(&start));
  CHECK(hipEventCreate(&stop));
  CHECK(hipExtModuleLaunchKernel(add_bias, n, 1, 1, 64, 1, 1, 0, NULL, NULL,
                                 extra, start, stop, 0));
  CHECK(hipMemcpyDtoH(out.data(), data, n * sizeof(int)));
  for (int i = 0; i < n; ++i) EXPECT_EQ(out[i], i + 20);

  // A second module from bytes in memory.
  FILE* file = fopen(argv[1], "rb");
  if (!file) return 2;
  std::vector<char> image(1 << 20);
  image.resize(fread(image.data(), 1, image.size(), file));
  fclose(file);
  hipModule_t again;
  CHECK(hipModuleLoadData(&again, image.data()));
  CHECK(hipModuleUnload(again));

  // A graph: capture scale(3) then add_bias, run it twice.
  hipStream_t stream;
  CHECK(hipStreamCreate(&stream));
  CHECK(hipStreamBeginCapture(stream, hipStreamCaptureModeGlobal));
  hipStreamCaptureStatus capturing;
  CHECK(hipStreamIsCapturing(stream, &capturing));
  EXPECT_EQ(capturing, hipStreamCaptureStatusActive);
  scale<<<n / 256, 256, 0, stream>>>(data, 3, n);
  CHECK(hipModuleLaunchKernel(add_bias, n / 128, 1, 1, 128, 1, 1, 0, stream,
                              params, NULL));
  hipGraph_t graph;
  CHECK(hipStreamEndCapture(stream, &graph));
  // Nothing ran during the capture.
  CHECK(hipMemcpy(out.data(), data, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) EXPECT_EQ(out[i], i + 20);
  hipGraphExec_t exec;
  CHECK(hipGraphInstantiate(&exec, graph, NULL, NULL, 0));
  CHECK(hipGraphLaunch(exec, stream));
  CHECK(hipGraphLaunch(exec, stream));
  CHECK(hipStreamSynchronize(stream));
  CHECK(hipMemcpy(out.data(), data, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) EXPECT_EQ(out[i], ((i + 20) * 3 + 10) * 3 + 10);

  // Exec update: the same topology with factor 2.
  CHECK(hipStreamBeginCapture(stream, hipStreamCaptureModeGlobal));
  scale<<<n / 256, 256, 0, stream>>>(data, 2, n);
  CHECK(hipModuleLaunchKernel(add_bias, n / 128, 1, 1, 128, 1, 1, 0, stream,
                              params, NULL));
  hipGraph_t updated;
  CHECK(hipStreamEndCapture(stream, &updated));
  hipGraphExecUpdateResult result;
  hipGraphNode_t error_node;
  CHECK(hipGraphExecUpdate(exec, updated, &error_node, &result));
  EXPECT_EQ(result, hipGraphExecUpdateSuccess);
  CHECK(hipMemcpy(data, host.data(), n * sizeof(int), hipMemcpyHostToDevice));
  CHECK(hipGraphLaunch(exec, stream));
  CHECK(hipStreamSynchronize(stream));
  CHECK(hipMemcpy(out.data(), data, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) EXPECT_EQ(out[i], i * 2 + 10);
  // Another topology is refused.
  CHECK(hipStreamBeginCapture(stream, hipStreamCaptureModeGlobal));
  scale<<<n / 256, 256, 0, stream>>>(data, 2, n);
  hipGraph_t other;
  CHECK(hipStreamEndCapture(stream, &other));
  EXPECT_EQ(hipGraphExecUpdate(exec, other, &error_node, &result),
            hipErrorGraphExecUpdateFailure);

  CHECK(hipGraphExecDestroy(exec));
  CHECK(hipGraphDestroy(graph));
  CHECK(hipGraphDestroy(updated));
  CHECK(hipGraphDestroy(other));
  CHECK(hipStreamDestroy(stream));
  CHECK(hipModuleUnload(module));
  CHECK(hipFree(data));
  printf("hip_sim_module: ok\n");
  return 0;
}
