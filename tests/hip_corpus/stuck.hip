// stuck.hip — not a corpus program: the fixture of the stop tests
// (tests/hip_corpus/stuck.sh; docs/failure-semantics.md, "A kernel that
// never ends"). wait_flag spins until the flag is nonzero, then consumes
// it (stores 0). The program sets the flag once and launches the kernel
// LAUNCHES times (its argument, default 1): the first launch ends, every
// later one spins forever. So `stuck` ends, and a capture of it (one
// launch, the flag set in its initial state) replays once; a second run of
// that capture on the same state (replay --repeat 2, a second shadow
// window, a second rl_replay_run) finds the flag consumed and spins, as
// the second launch of `stuck 2` does under `redline run`.
//
// Exit status: corpus.h's (0 the flag was consumed, 2 a HIP call failed:
// a launch stopped after its bound, 3 bad arguments).
#include "corpus.h"

// volatile: a load per iteration the compiler must keep, so the loop
// depends on memory and is not folded away (or made undefined: a loop
// without side effects may be assumed to end). extern "C": the kernel's
// name in messages is wait_flag.
extern "C" __global__ void wait_flag(volatile unsigned* flag) {
  while (*flag == 0u) {
  }
  *flag = 0u;
}

int main(int argc, char** argv) {
  const int launches = argc > 1 ? std::atoi(argv[1]) : 1;
  if (launches < 1 || argc > 2) {
    std::fprintf(stderr, "usage: stuck [LAUNCHES >= 1]\n");
    return 3;
  }
  unsigned* flag = nullptr;
  HIP_CHECK(hipMalloc(&flag, sizeof(unsigned)));
  const unsigned one = 1u;
  HIP_CHECK(hipMemcpy(flag, &one, sizeof(one), hipMemcpyHostToDevice));
  for (int i = 0; i < launches; ++i) {
    wait_flag<<<1, 1>>>(flag);
    HIP_CHECK_LAUNCH();
  }
  HIP_CHECK(hipDeviceSynchronize());
  unsigned got = 1u;
  HIP_CHECK(hipMemcpy(&got, flag, sizeof(got), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(flag));
  corpus_corrupt(&got);
  if (got != 0u) corpus_mismatch("flag", 0, got, 0);
  return corpus_finish("stuck");
}
