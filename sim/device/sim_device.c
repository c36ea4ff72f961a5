// sim/device/sim_device.c — the simulated device object: creation from
// options, the rl_device_t vtable, cold-path memory access, and reading
// back the dispatch log and the hazard list (written by sim/wg
// sim_report.c; the timestamp counter is sim/clock's).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/clock/sim_clock.h"
#include "sim/cp/sim_cp.h"
#include "sim/signal/sim_signal.h"

// Processors the simulator models; they share everything it checks (wave32
// by default, 64 KiB of LDS per work-group: AMDGPUUsage processor table).
static const char* const rl_sim_processors[] = {"gfx1100", "gfx1151",
                                                "gfx1201"};

static rl_status_t rl_sim_allocate(rl_device_t* device, uint64_t size,
                                   uint64_t alignment, rl_memory_kind_t kind,
                                   rl_device_allocation_t* out_allocation) {
  return rl_sim_memory_allocate(&rl_sim_device_cast(device)->memory, size,
                                alignment, kind, out_allocation);
}

static rl_status_t rl_sim_allocate_fixed(
    rl_device_t* device, uint64_t address, uint64_t size, rl_memory_kind_t kind,
    rl_device_allocation_t* out_allocation) {
  return rl_sim_memory_allocate_fixed(&rl_sim_device_cast(device)->memory,
                                      address, size, kind, out_allocation);
}

static rl_status_t rl_sim_reserve_guard(rl_device_t* device, uint64_t address,
                                        uint64_t size) {
  return rl_sim_memory_reserve_guard(&rl_sim_device_cast(device)->memory,
                                     address, size);
}

static rl_status_t rl_sim_free(rl_device_t* device, uint64_t address) {
  return rl_sim_memory_free(&rl_sim_device_cast(device)->memory, address);
}

static rl_status_t rl_sim_write(rl_device_t* device, uint64_t address,
                                const void* data, uint64_t size) {
  rl_sim_device_t* sim = rl_sim_device_cast(device);
  if (rl_sim_memory_copy_in(&sim->memory, address, data, size)) {
    rl_sim_cache_host_write(&sim->cache, address, data, size);
    return RL_OK;
  }
  return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                   "write of %llu bytes at 0x%llx: not inside one live "
                   "allocation",
                   (unsigned long long)size, (unsigned long long)address);
}

static rl_status_t rl_sim_read(rl_device_t* device, uint64_t address,
                               void* data, uint64_t size) {
  rl_sim_device_t* sim = rl_sim_device_cast(device);
  if (rl_sim_memory_copy_out(&sim->memory, address, data, size)) {
    // The host sees memory, not L2: dirty lines not yet written back show
    // their old bytes (sim_mem.h).
    rl_sim_cache_host_read(sim, address, data, size);
    return RL_OK;
  }
  return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                   "read of %llu bytes at 0x%llx: not inside one live "
                   "allocation",
                   (unsigned long long)size, (unsigned long long)address);
}

static void rl_sim_destroy(rl_device_t* device) {
  rl_sim_device_t* sim = rl_sim_device_cast(device);
  // Queues first: a queue left busy (a quarantined replay's, or one nobody
  // destroyed) may still be executing a kernel that reads the loader's
  // tables and writes device memory.
  rl_sim_queues_stop_all(sim);
  pthread_mutex_destroy(&sim->queue_lock);
  rl_sim_loader_deinit(&sim->loader);
  rl_sim_memory_deinit(&sim->memory);
  rl_sim_cache_deinit(&sim->cache);
  pthread_mutex_destroy(&sim->signal_lock);
  pthread_cond_destroy(&sim->signal_cond);
  rl_sim_trace_deinit(sim);
  rl_sim_access_log_deinit(sim);
  pthread_mutex_destroy(&sim->report_lock);
  free(sim);
}

static const rl_device_vtable_t rl_sim_vtable = {
    .destroy = rl_sim_destroy,
    .allocate = rl_sim_allocate,
    .allocate_fixed = rl_sim_allocate_fixed,
    .reserve_guard = rl_sim_reserve_guard,
    .free = rl_sim_free,
    .write = rl_sim_write,
    .read = rl_sim_read,
    .load_code_object = rl_sim_load_code_object,
    .check_kernel = rl_sim_check_kernel,
    .unload_code_object = rl_sim_unload_code_object,
    .queue_create = rl_sim_queue_create,
    .queue_destroy = rl_sim_queue_destroy,
    .queue_doorbell = rl_sim_queue_doorbell,
    .queue_idle = rl_sim_queue_idle,
    .queue_fault = rl_sim_queue_fault,
    .queue_progress = rl_sim_queue_progress,
    .signal_create = rl_sim_signal_create,
    .signal_destroy = rl_sim_signal_destroy,
    .signal_store = rl_sim_signal_store,
    .signal_load = rl_sim_signal_load,
    .signal_wait_lt = rl_sim_signal_wait_lt,
    .signal_spin_lt = rl_sim_signal_spin_lt,
    .timestamp = rl_sim_timestamp,
};

static rl_status_t rl_sim_check_processor(const char* processor) {
  for (size_t i = 0; i < sizeof(rl_sim_processors) / sizeof(char*); ++i) {
    if (strcmp(processor, rl_sim_processors[i]) == 0) return RL_OK;
  }
  return RL_STATUS(RL_STATUS_UNSUPPORTED,
                   "simulated processor '%s': expected gfx1100, gfx1151 or "
                   "gfx1201",
                   processor);
}

// Initialises the locks and tables of a zeroed device.
static rl_status_t rl_sim_device_init(rl_sim_device_t* sim,
                                      const rl_sim_options_t* options) {
  sim->options = *options;
  if (!sim->options.max_work_items) {
    sim->options.max_work_items = RL_LIMIT_DEFAULT_WORK_ITEMS;
  }
  if (!sim->options.max_dispatches) {
    sim->options.max_dispatches = RL_LIMIT_DEFAULT_DISPATCHES;
  }
  const char* processor = options->processor ? options->processor : "gfx1100";
  RL_RETURN_IF_ERROR(rl_sim_check_processor(processor));
  snprintf(sim->processor, sizeof(sim->processor), "%s", processor);
  snprintf(sim->target, sizeof(sim->target), "amdgcn-amd-amdhsa--%s",
           processor);
  sim->options.processor = sim->processor;
  sim->base = (rl_device_t){
      .vtable = &rl_sim_vtable,
      .name = "sim",
      .target = sim->target,
      .timestamp_frequency = RL_SIM_TIMESTAMP_HZ,
      .lds_limit = RL_SIM_LDS_LIMIT,
      .host_executes = true,
  };
  pthread_mutex_init(&sim->signal_lock, NULL);
  pthread_cond_init(&sim->signal_cond, NULL);
  pthread_mutex_init(&sim->report_lock, NULL);
  sim->upcalls.report_hazard = rl_sim_report_hazard;
  pthread_mutex_init(&sim->queue_lock, NULL);
  rl_sim_loader_init(&sim->loader);
  atomic_init(&sim->next_queue_id, 1);
  atomic_init(&sim->signal_sleepers, 0);
  atomic_init(&sim->dispatch_count, 0);
  atomic_init(&sim->trace_enabled, false);
  atomic_init(&sim->access_enabled, false);
  atomic_init(&sim->cp_cpu, -1);
  atomic_init(&sim->last_wait_long, false);
  sim->threads = options->threads ? options->threads : rl_sim_default_threads();
  if (sim->threads > RL_SIM_THREADS_MAX) sim->threads = RL_SIM_THREADS_MAX;
  RL_RETURN_IF_ERROR(rl_sim_cache_init(&sim->cache, processor,
                                       options->cache_model, options->seed));
  return rl_sim_memory_init(&sim->memory, options->memory_bytes);
}

rl_status_t rl_sim_device_create(const rl_sim_options_t* options,
                                 rl_device_t** out_device) {
  *out_device = NULL;
  static const rl_sim_options_t defaults = {0};
  if (options == NULL) options = &defaults;
  if (options->hazards != RL_SIM_HAZARDS_SEQUENTIAL &&
      options->hazards != RL_SIM_HAZARDS_ADVERSARIAL) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "hazard mode %d: expected sequential or adversarial",
                     (int)options->hazards);
  }
  // Aligned as its type asks: its locks sit on host cache lines of their
  // own (sim_mem.h).
  rl_sim_device_t* sim = aligned_alloc(_Alignof(rl_sim_device_t), sizeof(*sim));
  if (sim == NULL) return rl_status_out_of_memory();
  memset(sim, 0, sizeof(*sim));
  rl_status_t status = rl_sim_device_init(sim, options);
  if (status != RL_OK) {
    if (sim->base.vtable != NULL)
      rl_sim_destroy(&sim->base);
    else
      free(sim);
    return status;
  }
  *out_device = &sim->base;
  return RL_OK;
}

bool rl_sim_device_is(const rl_device_t* device) {
  return device != NULL && device->vtable == &rl_sim_vtable;
}

void rl_sim_device_pin_cp(rl_device_t* device, int cp_cpu) {
  if (!rl_sim_device_is(device)) return;
  rl_sim_device_t* sim = (rl_sim_device_t*)device;
  sim->options.pin_cp = true;
  sim->options.cp_cpu = cp_cpu;
}

uint64_t rl_sim_executor_instructions(const rl_device_t* device) {
  if (!rl_sim_device_is(device)) return 0;
  const rl_sim_executor_t* executor =
      ((const rl_sim_device_t*)device)->options.executor;
  if (!executor || !executor->instructions) return 0;
  return executor->instructions(executor->self);
}

void* rl_sim_translate(rl_device_t* device, uint64_t address, uint64_t size) {
  return rl_sim_memory_translate(&rl_sim_device_cast(device)->memory, address,
                                 size);
}

void rl_sim_memory_info(rl_device_t* device, uint64_t* out_total,
                        uint64_t* out_used) {
  *out_total = 0;
  *out_used = 0;
  if (!rl_sim_device_is(device)) return;
  rl_sim_memory_usage(&rl_sim_device_cast(device)->memory, out_total,
                      out_used);
}

uint32_t rl_sim_dispatch_log(rl_device_t* device,
                             rl_sim_dispatch_record_t* out_records,
                             uint32_t capacity) {
  rl_sim_device_t* sim = rl_sim_device_cast(device);
  pthread_mutex_lock(&sim->report_lock);
  uint64_t kept = sim->log_count < RL_SIM_DISPATCH_LOG ? sim->log_count
                                                       : RL_SIM_DISPATCH_LOG;
  uint64_t count = kept < capacity ? kept : capacity;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t index = sim->log_count - count + i;
    out_records[i] = sim->log[index % RL_SIM_DISPATCH_LOG];
  }
  pthread_mutex_unlock(&sim->report_lock);
  return (uint32_t)count;
}

uint32_t rl_sim_hazards(rl_device_t* device, rl_sim_hazard_t* out_hazards,
                        uint32_t capacity) {
  rl_sim_device_t* sim = rl_sim_device_cast(device);
  pthread_mutex_lock(&sim->report_lock);
  uint32_t total = sim->hazard_count;
  rl_sim_report_copy(out_hazards, sim->hazards, sizeof(*out_hazards), total,
                     RL_SIM_HAZARD_CAPACITY, capacity);
  pthread_mutex_unlock(&sim->report_lock);
  return total;
}

void rl_sim_hazards_clear(rl_device_t* device) {
  rl_sim_device_t* sim = rl_sim_device_cast(device);
  pthread_mutex_lock(&sim->report_lock);
  sim->hazard_count = 0;
  pthread_mutex_unlock(&sim->report_lock);
}

void rl_sim_cache_stats(rl_device_t* device, rl_sim_cache_stats_t* out_stats) {
  rl_sim_device_t* sim = rl_sim_device_cast(device);
  out_stats->stale_reads = atomic_load(&sim->cache.stale_reads);
  out_stats->stale_host_reads = atomic_load(&sim->cache.stale_host_reads);
}

bool rl_sim_cache_mode_parse(const char* text, rl_sim_cache_mode_t* out_mode) {
  static const char* const names[] = {"off", "report", "strict"};
  for (int m = 0; m < 3; ++m) {
    if (text && strcmp(text, names[m]) == 0) {
      *out_mode = (rl_sim_cache_mode_t)m;
      return true;
    }
  }
  return false;
}

rl_status_t rl_sim_cache_mode_option(const char* text,
                                     rl_sim_cache_mode_t* in_out_mode) {
  if (text == NULL || rl_sim_cache_mode_parse(text, in_out_mode)) return RL_OK;
  return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                   "cache model '%s': expected off, report or strict", text);
}

const char* rl_sim_cache_mode_name(rl_sim_cache_mode_t mode) {
  switch (mode) {
    case RL_SIM_CACHE_OFF:
      return "off";
    case RL_SIM_CACHE_REPORT:
      return "report";
    case RL_SIM_CACHE_STRICT:
      return "strict";
  }
  return "unknown";
}

uint64_t rl_sim_dispatch_next(rl_device_t* device) {
  return atomic_load(&rl_sim_device_cast(device)->dispatch_count);
}
