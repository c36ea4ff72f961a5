// async_submission_order.hip — a producer kernel on stream A and two
// consumers on streams B and C that the host synchronises (only B and C):
// without an event the consumers are not ordered after the producer by any
// rule, but on a GPU the producer, submitted first, has run long before
// (work starts when submitted). Public llama2.c ports rely on it; redline
// runs queued work in submission order whenever its dependencies allow,
// so they get the GPU's answer (docs/hip-runtime.md: a deliberate choice,
// not a HIP guarantee). The HIP rule it rests on: launches are
// asynchronous and start without a synchronising call (HIP docs,
// "Asynchronous concurrent execution",
// https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_runtime_api/asynchronous.html).
#include "conformance.h"

__global__ void produce(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 0.5f * i;
}

__global__ void consume(const float* x, float* out, float k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = k * x[i];
}

int main() {
  const int n = 1024;
  float *x, *out_b, *out_c;
  HIP_CHECK(hipMalloc(&x, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&out_b, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&out_c, n * sizeof(float)));
  HIP_CHECK(hipMemset(x, 0, n * sizeof(float)));
  HIP_CHECK(hipDeviceSynchronize());
  hipStream_t a, b, c;
  HIP_CHECK(hipStreamCreate(&a));
  HIP_CHECK(hipStreamCreate(&b));
  HIP_CHECK(hipStreamCreate(&c));
  produce<<<n / 256, 256, 0, a>>>(x, n);
  consume<<<n / 256, 256, 0, b>>>(x, out_b, 2.0f, n);
  consume<<<n / 256, 256, 0, c>>>(x, out_c, 3.0f, n);
  HIP_CHECK(hipStreamSynchronize(b));
  HIP_CHECK(hipStreamSynchronize(c));
  float hb[n], hc[n];
  HIP_CHECK(hipMemcpyAsync(hb, out_b, sizeof(hb), hipMemcpyDeviceToHost, b));
  HIP_CHECK(hipMemcpyAsync(hc, out_c, sizeof(hc), hipMemcpyDeviceToHost, c));
  EXPECT(hb[100] == 100.0f && hc[n - 1] == 1.5f * (n - 1),
         "the consumers ran before the producer: b[100] = %g, c[%d] = %g",
         hb[100], n - 1, hc[n - 1]);
  conformance_ok("async_submission_order");
  return 0;
}
