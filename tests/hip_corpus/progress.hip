// progress.hip — not a corpus program: the fixture of the watchdog and
// work-item cap tests (tests/hip_corpus/progress.sh; docs/reliability.md,
// "The watchdog"). Each mode launches one kernel and checks its result:
//
//   progress long GROUPS STEPS   GROUPS work-groups of 64 work-items, each
//                                work-item STEPS dependent steps: a
//                                dispatch that completes work-groups all
//                                along, for as long as the sizes make it
//   progress one STEPS           the same in one work-group: nothing
//                                completes until the end
//   progress wide ITEMS          ITEMS work-items (rounded up to 256) each
//                                storing its index: a dispatch past the
//                                default cap of 2^24 work-items
//
// Exit status: corpus.h's (0 the results match, 1 a mismatch, 2 a HIP call
// failed: a launch refused or stopped, 3 bad arguments).
#include "corpus.h"

#include <cstring>
#include <vector>

// out[i] = the STEPS-th value of a linear congruential sequence from i.
extern "C" __global__ void steps(unsigned* out, unsigned count) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = i;
  for (unsigned s = 0; s < count; ++s) x = x * 1664525u + 1013904223u;
  out[i] = x;
}

extern "C" __global__ void wide(unsigned* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = i ^ 0x5a5a5a5au;
}

static unsigned parse(const char* text) {
  char* end = nullptr;
  unsigned long value = std::strtoul(text, &end, 10);
  if (!*text || *end || value == 0 || value > 0xffffffffu) {
    std::fprintf(stderr, "progress: bad number '%s'\n", text);
    std::exit(3);
  }
  return (unsigned)value;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  unsigned groups = 0, block = 64, count = 0;
  if (std::strcmp(mode, "long") == 0 && argc == 4) {
    groups = parse(argv[2]);
    count = parse(argv[3]);
  } else if (std::strcmp(mode, "one") == 0 && argc == 3) {
    groups = 1;
    count = parse(argv[2]);
  } else if (std::strcmp(mode, "wide") == 0 && argc == 3) {
    block = 256;
    groups = (parse(argv[2]) + 255u) / 256u;
  } else {
    std::fprintf(stderr,
                 "usage: progress long GROUPS STEPS | one STEPS | wide ITEMS\n");
    return 3;
  }
  const size_t items = (size_t)groups * block;
  unsigned* out = nullptr;
  HIP_CHECK(hipMalloc(&out, items * sizeof(unsigned)));
  if (block == 256) {
    wide<<<groups, block>>>(out);
  } else {
    steps<<<groups, block>>>(out, count);
  }
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipDeviceSynchronize());
  std::vector<unsigned> got(items);
  HIP_CHECK(hipMemcpy(got.data(), out, items * sizeof(unsigned),
                      hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(out));
  corpus_corrupt(&got[items - 1]);
  for (size_t i = 0; i < items; ++i) {
    unsigned want = (unsigned)i;
    if (block == 256) {
      want ^= 0x5a5a5a5au;
    } else if (i == 0 || i == items - 1 || i % 997 == 0) {
      for (unsigned s = 0; s < count; ++s) want = want * 1664525u + 1013904223u;
    } else {
      continue;  // recomputing every item would take longer than the kernel
    }
    if (got[i] != want) {
      corpus_mismatch("out", i, got[i], want);
      break;
    }
  }
  return corpus_finish("progress");
}
