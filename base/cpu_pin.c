// The benchmark thread placement (base/cpu_pin.h).
#include "base/cpu_pin.h"

bool rl_cpu_pin_host(cpu_set_t* out_previous, int* out_host, int* out_cp) {
  int first = -1, last = -1;
  if (sched_getaffinity(0, sizeof(*out_previous), out_previous) == 0) {
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (!CPU_ISSET(cpu, out_previous)) continue;
      if (first < 0) first = cpu;
      last = cpu;
    }
  }
  cpu_set_t host;
  CPU_ZERO(&host);
  if (first >= 0) CPU_SET(first, &host);
  if (first < 0 || first == last ||
      sched_setaffinity(0, sizeof(host), &host) != 0) {
    return false;
  }
  *out_host = first;
  *out_cp = last;
  return true;
}
