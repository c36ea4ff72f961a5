// copy_2d_3d.hip — pitched allocations and strided copies: hipMallocPitch
// gives a pitch of at least the width, hipMemcpy2D / hipMemcpy2DAsync /
// hipMemcpy3D copy width bytes of each row between pitched buffers (and
// follow the copy rules: an async copy from pageable memory reads it at
// the call), a width above a pitch is refused, and hipMemcpyPeer on the one
// device is a device-to-device copy.
// Rule: HIP API reference, hipMallocPitch, hipMemcpy2D, hipMemcpy3D,
// hipMemcpyPeer; CUDA cudaMemcpy2D ("dpitch and spitch ... must be greater
// than or equal to width", else cudaErrorInvalidPitchValue)
// (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html);
// API synchronization behavior for the async form.
#include "conformance.h"

int main() {
  const size_t width = 100, height = 7;  // bytes, rows
  void* pitched;
  size_t pitch = 0;
  HIP_CHECK(hipMallocPitch(&pitched, &pitch, width, height));
  EXPECT(pitch >= width, "pitch %zu below the width %zu", pitch, width);
  unsigned char host[height][width], back[height][width];
  for (size_t y = 0; y < height; ++y) {
    for (size_t x = 0; x < width; ++x) host[y][x] = (unsigned char)(y * 31 + x);
  }
  hipStream_t stream;
  HIP_CHECK(hipStreamCreate(&stream));
  HIP_CHECK(hipMemcpy2DAsync(pitched, pitch, host, width, width, height,
                             hipMemcpyHostToDevice, stream));
  std::memset(host, 0xEE, sizeof(host));  // staged at the call
  HIP_CHECK(hipStreamSynchronize(stream));
  std::memset(back, 0, sizeof(back));
  HIP_CHECK(hipMemcpy2D(back, width, pitched, pitch, width, height,
                        hipMemcpyDeviceToHost));
  EXPECT(back[6][99] == (unsigned char)(6 * 31 + 99) && back[3][0] == 93,
         "2D round trip: back[6][99] = %u", back[6][99]);
  EXPECT_ERROR(hipMemcpy2D(back, width, pitched, width - 1, width, height,
                           hipMemcpyDeviceToHost),
               hipErrorInvalidPitchValue);
  // 3D: the 2x3 block at (x 10, row 2) of the pitched buffer into a dense
  // host box.
  unsigned char box[3][2] = {};
  hipMemcpy3DParms p = {};
  p.srcPtr = make_hipPitchedPtr(pitched, pitch, width, height);
  p.srcPos = make_hipPos(10, 2, 0);
  p.dstPtr = make_hipPitchedPtr(box, 2, 2, 3);
  p.extent = make_hipExtent(2, 3, 1);
  p.kind = hipMemcpyDeviceToHost;
  HIP_CHECK(hipMemcpy3D(&p));
  EXPECT(box[0][0] == back[2][10] && box[2][1] == back[4][11],
         "3D block: %u %u, expected %u %u", box[0][0], box[2][1], back[2][10],
         back[4][11]);
  void* other;
  HIP_CHECK(hipMalloc(&other, pitch * height));
  HIP_CHECK(hipMemcpyPeer(other, 0, pitched, 0, pitch * height));
  HIP_CHECK(hipMemcpy2D(back, width, other, pitch, width, height,
                        hipMemcpyDeviceToHost));
  EXPECT(back[6][99] == (unsigned char)(6 * 31 + 99), "peer copy");
  EXPECT_ERROR(hipMemcpyPeer(other, 1, pitched, 0, 16), hipErrorInvalidDevice);
  conformance_ok("copy_2d_3d");
  return 0;
}
