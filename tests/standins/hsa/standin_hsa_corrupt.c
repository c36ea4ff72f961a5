// tests/standins/hsa/standin_hsa_corrupt.c — the ROCr stand-in's faulty-GPU
// mode (standin_hsa.h "corruption"): with REDLINE_STANDIN_CORRUPT_DISPATCH=N
// the first byte that the stand-in's dispatch N stored (dispatches counted
// from 0 over the simulated GPU's life, every queue together) is XORed with
// 0xFF once the dispatch has ended and the host next observes a signal
// (hsa_signal_wait_scacquire or hsa_signal_load_scacquire). One byte of one
// dispatch's output is wrong, as a faulty GPU would return it, while every
// API call still succeeds: the negative control of shadows on a device.
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/sim.h"
#include "tests/standins/hsa/standin_hsa.h"

static pthread_mutex_t rl_standin_corrupt_lock = PTHREAD_MUTEX_INITIALIZER;
static bool rl_standin_corrupt_armed;  // enabled and not applied yet
static uint64_t rl_standin_corrupt_dispatch;

void rl_standin_corrupt_start(rl_device_t* sim) {
  const char* text = getenv("REDLINE_STANDIN_CORRUPT_DISPATCH");
  pthread_mutex_lock(&rl_standin_corrupt_lock);
  rl_standin_corrupt_armed = text && text[0];
  if (rl_standin_corrupt_armed) {
    rl_standin_corrupt_dispatch = strtoull(text, NULL, 0);
    rl_sim_access_log_enable(sim, true);
  }
  pthread_mutex_unlock(&rl_standin_corrupt_lock);
}

void rl_standin_corrupt_poll(void) {
  pthread_mutex_lock(&rl_standin_corrupt_lock);
  rl_device_t* sim = rl_standin.sim;
  if (!rl_standin_corrupt_armed || !sim) {
    pthread_mutex_unlock(&rl_standin_corrupt_lock);
    return;
  }
  rl_sim_access_record_t* records = NULL;
  uint32_t total = 0;
  uint32_t count = rl_sim_access_log_take(sim, &records, &total);
  for (uint32_t i = 0; i < count && rl_standin_corrupt_armed; ++i) {
    const rl_sim_access_record_t* record = &records[i];
    if (record->dispatch_index != rl_standin_corrupt_dispatch) continue;
    rl_standin_corrupt_armed = false;  // once, written or not
    if (record->write_count == 0) break;
    uint64_t address = record->writes[0].begin;
    uint8_t byte = 0;
    rl_status_t status = sim->vtable->read(sim, address, &byte, 1);
    byte ^= 0xFFu;
    if (!status) status = sim->vtable->write(sim, address, &byte, 1);
    if (status) {
      rl_standin_error("corrupting dispatch %llu at 0x%llx: %s",
                       (unsigned long long)rl_standin_corrupt_dispatch,
                       (unsigned long long)address, rl_status_message(status));
    } else {
      fprintf(stderr,
              "standin hsa: corrupted dispatch %llu's byte at 0x%llx "
              "(REDLINE_STANDIN_CORRUPT_DISPATCH)\n",
              (unsigned long long)rl_standin_corrupt_dispatch,
              (unsigned long long)address);
    }
    rl_status_free(status);
  }
  rl_sim_access_log_free(records, count);
  pthread_mutex_unlock(&rl_standin_corrupt_lock);
}
