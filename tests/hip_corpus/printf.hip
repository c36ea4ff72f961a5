// printf.hip — device-side printf: every thread of two small blocks
// prints one line with integers, a float, a string argument and a
// pointer-sized value; block 1 thread 0 prints a line with a %s of a
// device string. The program sends its own stdout to a temporary file
// around the launch and then checks that every expected line is there
// exactly once (order between threads is not defined). Exact check of the
// text; the float is printed with %.3f of a value exact in binary.
#include "corpus.h"

#include <algorithm>
#include <string>
#include <unistd.h>
#include <vector>

__global__ void hello(int tag) {
  int t = threadIdx.x, b = blockIdx.x;
  printf("hello from block %d thread %2d tag %d value %.3f\n", b, t, tag,
         0.25f * (float)(t + 4 * b));
  if (b == 1 && t == 0) printf("%s|%c|%ld\n", "device string", 'Z', -1234567890123l);
}

int main() {
  const int blocks = 2, threads = 8, tag = 77;
  std::fflush(stdout);
  FILE* capture = std::tmpfile();
  if (!capture) {
    std::perror("tmpfile");
    return 3;
  }
  int saved = dup(STDOUT_FILENO);
  if (saved < 0 || dup2(fileno(capture), STDOUT_FILENO) < 0) {
    std::perror("dup2");
    return 3;
  }
  hello<<<blocks, threads>>>(tag);
  hipError_t launch = hipGetLastError();
  hipError_t sync = hipDeviceSynchronize();
  std::fflush(stdout);
  dup2(saved, STDOUT_FILENO);
  close(saved);
  HIP_CHECK(launch);
  HIP_CHECK(sync);

  std::vector<std::string> got, want;
  std::rewind(capture);
  char line[512];
  while (std::fgets(line, sizeof line, capture)) got.push_back(line);
  std::fclose(capture);
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t) {
      std::snprintf(line, sizeof line, "hello from block %d thread %2d tag %d value %.3f\n",
                    b, t, tag, 0.25f * (float)(t + 4 * b));
      want.push_back(line);
    }
  want.push_back("device string|Z|-1234567890123\n");
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  if (std::getenv("REDLINE_CORPUS_CORRUPT") && !got.empty()) got[0][0] ^= 0x20;
  if (got != want) {
    std::fprintf(stderr, "device printf output differs: %zu lines, expected %zu\n",
                 got.size(), want.size());
    for (size_t i = 0; i < std::max(got.size(), want.size()) && i < 20; ++i)
      std::fprintf(stderr, "  got  %s  want %s",
                   i < got.size() ? got[i].c_str() : "(none)\n",
                   i < want.size() ? want[i].c_str() : "(none)\n");
    corpus_mismatch("lines", 0, (double)got.size(), (double)want.size());
  }
  return corpus_finish("printf");
}
