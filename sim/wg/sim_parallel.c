// sim/wg/sim_parallel.c — the work-groups of one dispatch on several
// host threads, with the same memory and the same findings whatever their
// number (docs/cache-model.md, "Work-groups in parallel").
//
// When. In sequential mode, once a dispatch's first work-group has run on
// the CP thread as always (the ISA executor resolves its program there),
// the rest run in parallel when the device has more than one thread, the
// executor can run work-groups on workers (rl_sim_executor_t.
// run_workgroup_on) and says the dispatch is order-free (concurrent(): no
// global atomic whose result depends on the order work-groups run in), and
// the kernel has no device printf (its records are appended in the order
// work-groups reach them), and the work-groups after the first fill at
// least two shards (rl_sim_parallel_busy_shards: the minimum dispatch
// size). Adversarial mode keeps its seeded order on one thread.
//
// Threads. Each queue keeps a pool of threads - 1 worker threads, made on
// its first parallel dispatch and joined when the queue is released; the
// CP thread hands a dispatch to them under the pool's lock (a generation
// count and a broadcast), runs worker 0 itself and waits until every pool
// thread has reported back.
//
// Sharding. The remaining work-groups are split into shards that share no
// cache of the model: those placed on one shader array (gfx11) or one WGP
// (gfx12) (rl_sim_cache_shards); with the model off, RL_SIM_PARALLEL_SLOTS
// shards of every 64th work-group. A thread claims a whole shard at a time
// (an atomic counter) and runs its work-groups in increasing index order,
// so every L0, K$ and GL1 table sees the same accesses in the same order as
// when one thread runs the dispatch in linear order. The L2's dirty lines
// are shared; a line keeps the bytes memory had before its first store
// since the last write-back, whichever work-group made it, and the
// dispatch's index, so their content does not depend on the order either.
//
// Private per thread, merged when every thread has ended: the LDS; the
// recorded read and write ranges (unions: the order they were added in does
// not matter); the findings (rl_sim_report_hazard on a worker keeps them
// here, tagged with the work-group), reported sorted by work-group, each
// work-group's in the order it found them: the order one thread running
// the work-groups in linear order reports them in. Global atomics are host
// atomics (rl_sim_wg_atomic).
//
// Faults: the status of the lowest-numbered failing work-group is
// returned; once one fails, no thread starts a work-group above it, and the
// findings of any above it that had already run are dropped.
#define _GNU_SOURCE  // sched_getaffinity, CPU_COUNT
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/test_fault.h"
#include "sim/wg/sim_wg.h"

// Shards (one work-group in every RL_SIM_PARALLEL_SLOTS) with the cache
// model off; also the largest number of WGPs one shard may hold.
#define RL_SIM_PARALLEL_SLOTS 64u

typedef struct rl_sim_finding_s {
  uint64_t wg;
  uint32_t seq;  // its place in its worker's list
  rl_sim_hazard_t hazard;
} rl_sim_finding_t;

// On host cache lines of its own (the workers are an array): a worker
// writes its range logs' counts on every access, which must not move a line
// another worker writes between the cores.
typedef struct rl_sim_worker_s {
  _Alignas(RL_SIM_HOST_LINE) struct rl_sim_parallel_s* parallel;
  uint32_t index;
  pthread_t thread;  // workers 1..: the pool's
  uint8_t* lds;  // parallel->lds_size bytes (the largest dispatch's so far)
  bool lds_used;
  rl_sim_range_set_t reads;
  rl_sim_range_set_t writes;
  rl_sim_finding_t* findings;
  uint32_t finding_count;
  uint32_t finding_capacity;
  uint64_t current_wg;
  rl_status_t error;  // of work-group |error_wg|
  uint64_t error_wg;
  uint64_t fault_address;
} rl_sim_worker_t;

// One queue's workers, kept from its first parallel dispatch to its end
// (rl_sim_parallel_pool_free): the threads wait on |wake| between
// dispatches instead of being created for each, and the workers' LDS,
// ranges and findings keep their storage. Only the queue's CP thread
// starts dispatches on it, one at a time.
typedef struct rl_sim_parallel_s {
  rl_sim_queue_t* queue;
  rl_sim_run_t* run;
  uint32_t slots, group, half, shards;
  atomic_uint next_shard;
  _Atomic uint64_t limit;  // the lowest failed work-group (UINT64_MAX: none)
  _Atomic uint64_t done;   // work-groups finished by the workers
  uint32_t worker_count;   // this dispatch's (worker 0: the CP thread)
  uint32_t lds_size;       // bytes of each worker's |lds|
  // The pool: threads for workers 1..thread_count; |generation| counts
  // dispatches handed out, |busy| the threads still in the current one.
  pthread_mutex_t lock;
  pthread_cond_t wake;  // a new generation, or |quit|
  pthread_cond_t idle;  // |busy| reached 0
  uint64_t generation;
  uint32_t busy;
  bool quit;
  uint32_t thread_count;
  rl_sim_worker_t workers[RL_SIM_THREADS_MAX];
} rl_sim_parallel_t;

// The worker the calling thread is, while it runs work-groups.
static _Thread_local rl_sim_worker_t* rl_sim_parallel_self;

// Default: the CPUs this process may run on (sched_getaffinity), at most
// RL_SIM_THREADS_MAX. Measured (docs/BENCHMARKS.md, "Work-groups on two
// host threads"): with the cache model's locks per shard and slice and the
// persistent pool, a second thread makes verify and decode faster for no
// more CPU. REDLINE_SIM_THREADS or --sim-threads set another count.
uint32_t rl_sim_default_threads(void) {
  const char* text = getenv("REDLINE_SIM_THREADS");
  if (text != NULL && *text != '\0') {
    char* end = NULL;
    unsigned long value = strtoul(text, &end, 10);
    if (*end == '\0' && value >= 1 && value <= RL_SIM_THREADS_MAX) {
      return (uint32_t)value;
    }
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 1;
  int count = CPU_COUNT(&set);
  if (count < 1) return 1;
  return count > (int)RL_SIM_THREADS_MAX ? RL_SIM_THREADS_MAX
                                         : (uint32_t)count;
}

bool rl_sim_parallel_capture(const rl_sim_hazard_t* hazard) {
  rl_sim_worker_t* w = rl_sim_parallel_self;
  if (w == NULL) return false;
  if (RL_ARRAY_RESERVE(&w->findings, &w->finding_capacity,
                       w->finding_count + 1) != RL_OK) {
    return false;  // out of memory: reported at once, out of order
  }
  w->findings[w->finding_count] =
      (rl_sim_finding_t){w->current_wg, w->finding_count, *hazard};
  w->finding_count++;
  return true;
}

// True when |kernel| writes device printf records (hip_sim_printf.c).
static bool rl_sim_parallel_printf(const rl_code_object_kernel_t* kernel) {
  for (uint32_t a = 0; a < kernel->arg_count; ++a) {
    const char* kind = kernel->args[a].value_kind;
    if (kind && (strcmp(kind, "hidden_printf_buffer") == 0 ||
                 strcmp(kind, "hidden_hostcall_buffer") == 0)) {
      return true;
    }
  }
  return false;
}

// How many shards hold work-groups 1.. of a dispatch of |total| (|slots|,
// |group| and |half| from rl_sim_cache_shards), counting up to 2. The
// minimum dispatch size for going parallel: with fewer than two the other
// threads would only be woken to find nothing, so the dispatch stays on
// the CP thread (on gfx11 a dispatch of 4 or fewer work-groups: the ones
// after the first land on one shader array).
static uint32_t rl_sim_parallel_busy_shards(uint64_t total, uint32_t slots,
                                            uint32_t group, uint32_t half) {
  uint32_t first = UINT32_MAX;
  for (uint64_t wg = 1; wg < total && wg <= slots; ++wg) {
    uint32_t shard = (uint32_t)((wg + half) % slots) / group;
    if (first == UINT32_MAX) {
      first = shard;
    } else if (shard != first) {
      return 2;
    }
  }
  return first == UINT32_MAX ? 0 : 1;
}

bool rl_sim_parallel_wanted(const rl_sim_queue_t* queue,
                            const rl_sim_run_t* run) {
  const rl_sim_device_t* device = queue->device;
  const rl_sim_executor_t* executor = device->options.executor;
  if (device->threads < 2 || run->wg_done != 1 || run->wg_total < 3 ||
      device->options.hazards != RL_SIM_HAZARDS_SEQUENTIAL ||
      executor->run_workgroup_on == NULL || executor->concurrent == NULL ||
      run->wg_stride != 1 || run->wg_offset != 0) {
    return false;
  }
  uint32_t slots = 0, group = 0, half = 0;
  rl_sim_cache_shards(&device->cache, run->dispatch.dispatch_index,
                      RL_SIM_PARALLEL_SLOTS, &slots, &group, &half);
  if (group > RL_SIM_PARALLEL_SLOTS || slots / group < 2) return false;
  if (rl_sim_parallel_busy_shards(run->wg_total, slots, group, half) < 2) {
    return false;
  }
  if (rl_sim_parallel_printf(run->dispatch.kernel)) return false;
  return executor->concurrent(executor->self, run->state);
}

// Runs work-group |wg| on |w|; false when it did not finish (a fault, kept
// if it is the worker's lowest, or a stop).
static bool rl_sim_worker_run(rl_sim_worker_t* w, uint64_t wg) {
  rl_sim_parallel_t* p = w->parallel;
  rl_sim_queue_t* queue = p->queue;
  rl_sim_run_t* run = p->run;
  uint32_t lds = run->dispatch.group_segment_size;
  if (lds != 0 && w->lds_used) memset(w->lds, 0, lds);
  w->lds_used = true;
  w->current_wg = wg;
  uint64_t fault = 0;
  rl_status_t status = rl_sim_run_workgroup_on(
      queue, run, wg, w->index, w->lds, &w->reads, &w->writes, &fault);
  if (status == RL_OK) {
    uint64_t done = atomic_fetch_add(&p->done, 1) + 2;  // + the first one
    atomic_store_explicit(&queue->progress_wg_done, done,
                          memory_order_relaxed);
    atomic_fetch_add_explicit(&queue->progress_events, 1,
                              memory_order_release);
    return true;
  }
  if (rl_sim_wg_was_stopped(queue, status)) return false;
  if (w->error == RL_OK || wg < w->error_wg) {
    rl_status_free(w->error);
    w->error = status;
    w->error_wg = wg;
    w->fault_address = fault;
  } else {
    rl_status_free(status);
  }
  uint64_t limit = atomic_load(&p->limit);
  while (wg < limit && !atomic_compare_exchange_weak(&p->limit, &limit, wg)) {
  }
  return false;
}

// Runs the work-groups of |shard| (but the first of the dispatch) in
// increasing order.
static void rl_sim_worker_shard(rl_sim_worker_t* w, uint32_t shard) {
  rl_sim_parallel_t* p = w->parallel;
  uint32_t offsets[RL_SIM_PARALLEL_SLOTS];
  uint32_t count = 0;
  for (uint32_t k = 0; k < p->group; ++k) {
    uint32_t slot = shard * p->group + k;
    if (slot >= p->slots) break;
    // Work-group wg runs on slot (wg + half) % slots.
    uint32_t offset = (slot + p->slots - p->half) % p->slots;
    uint32_t at = count++;
    while (at > 0 && offsets[at - 1] > offset) {
      offsets[at] = offsets[at - 1];
      --at;
    }
    offsets[at] = offset;
  }
  const uint64_t total = p->run->wg_total;
  for (uint64_t base = 0; base < total; base += p->slots) {
    for (uint32_t k = 0; k < count; ++k) {
      uint64_t wg = base + offsets[k];
      if (wg >= total || wg > atomic_load(&p->limit)) return;
      if (wg == 0) continue;  // ran first, alone
      if (atomic_load_explicit(&p->queue->stop, memory_order_acquire)) return;
      if (!rl_sim_worker_run(w, wg)) return;
    }
  }
}

// Claims and runs shards until none is left.
static void rl_sim_worker_work(rl_sim_worker_t* w) {
  rl_sim_parallel_t* p = w->parallel;
  rl_sim_parallel_self = w;
  for (;;) {
    uint32_t shard = atomic_fetch_add(&p->next_shard, 1);
    if (shard >= p->shards) break;
    rl_sim_worker_shard(w, shard);
  }
  rl_sim_parallel_self = NULL;
}

// A pool thread: waits for each dispatch, joins it when this worker is
// among the dispatch's, and reports back.
static void* rl_sim_worker_main(void* arg) {
  rl_sim_worker_t* w = arg;
  rl_sim_parallel_t* p = w->parallel;
  uint64_t seen = 0;
  pthread_mutex_lock(&p->lock);
  for (;;) {
    while (!p->quit && p->generation == seen) {
      pthread_cond_wait(&p->wake, &p->lock);
    }
    if (p->quit) break;
    seen = p->generation;
    bool joins = w->index < p->worker_count;
    pthread_mutex_unlock(&p->lock);
    if (joins) rl_sim_worker_work(w);
    pthread_mutex_lock(&p->lock);
    if (--p->busy == 0) pthread_cond_signal(&p->idle);
  }
  pthread_mutex_unlock(&p->lock);
  return NULL;
}

static int rl_sim_finding_compare(const void* a, const void* b) {
  const rl_sim_finding_t* x = a;
  const rl_sim_finding_t* y = b;
  if (x->wg != y->wg) return x->wg < y->wg ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

// Reports the workers' findings of work-groups up to |limit| in
// work-group order.
static rl_status_t rl_sim_parallel_report(rl_sim_parallel_t* p,
                                          uint64_t limit) {
  uint64_t count = 0;
  for (uint32_t k = 0; k < p->worker_count; ++k) {
    count += p->workers[k].finding_count;
  }
  if (count == 0) return RL_OK;
  rl_sim_finding_t* all = malloc(count * sizeof(*all));
  if (all == NULL) return rl_status_out_of_memory();
  uint64_t n = 0;
  for (uint32_t k = 0; k < p->worker_count; ++k) {
    const rl_sim_worker_t* w = &p->workers[k];
    for (uint32_t i = 0; i < w->finding_count; ++i) {
      if (w->findings[i].wg <= limit) all[n++] = w->findings[i];
    }
  }
  // Test-only (base/test_fault.h): the order threads happened to
  // keep them in, the determinism tests' negative control.
  if (!rl_test_fault("parallel-completion-order", 0)) {
    qsort(all, n, sizeof(*all), rl_sim_finding_compare);
  }
  for (uint64_t i = 0; i < n; ++i) {
    rl_sim_report_hazard(p->queue->device, &all[i].hazard);
  }
  free(all);
  return RL_OK;
}

// Merges what the workers found into the run; the first failure.
static rl_status_t rl_sim_parallel_merge(rl_sim_parallel_t* p,
                                         uint64_t* out_fault_address) {
  uint64_t limit = atomic_load(&p->limit);
  rl_status_t status = rl_sim_parallel_report(p, limit);
  for (uint32_t k = 0; k < p->worker_count && status == RL_OK; ++k) {
    rl_sim_worker_t* w = &p->workers[k];
    // The worker's accesses were logged: sorted into its sets once here.
    status = rl_sim_range_set_settle(&w->reads);
    if (status == RL_OK) status = rl_sim_range_set_settle(&w->writes);
    if (status != RL_OK) break;
    status = rl_sim_range_set_add_sorted(&p->run->reads, w->reads.items,
                                         w->reads.count);
    if (status == RL_OK) {
      status = rl_sim_range_set_add_sorted(&p->run->writes, w->writes.items,
                                           w->writes.count);
    }
  }
  for (uint32_t k = 0; k < p->worker_count; ++k) {
    rl_sim_worker_t* w = &p->workers[k];
    if (w->error != RL_OK && w->error_wg == limit && status == RL_OK) {
      status = w->error;
      *out_fault_address = w->fault_address;
    } else {
      rl_status_free(w->error);
    }
    w->error = RL_OK;
    w->finding_count = 0;
    rl_sim_range_set_clear(&w->reads);
    rl_sim_range_set_clear(&w->writes);
  }
  return status;
}

void rl_sim_parallel_pool_free(rl_sim_queue_t* queue) {
  rl_sim_parallel_t* p = queue->parallel;
  if (p == NULL) return;
  pthread_mutex_lock(&p->lock);
  p->quit = true;
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->lock);
  for (uint32_t k = 1; k <= p->thread_count; ++k) {
    pthread_join(p->workers[k].thread, NULL);
  }
  for (uint32_t k = 0; k < RL_SIM_THREADS_MAX; ++k) {
    rl_sim_worker_t* w = &p->workers[k];
    free(w->lds);
    free(w->findings);
    rl_sim_range_set_deinit(&w->reads);
    rl_sim_range_set_deinit(&w->writes);
  }
  pthread_mutex_destroy(&p->lock);
  pthread_cond_destroy(&p->wake);
  pthread_cond_destroy(&p->idle);
  free(p);
  queue->parallel = NULL;
}

// The queue's pool, made on its first parallel dispatch with the device's
// threads - 1 pool threads; a thread that cannot start leaves fewer (none:
// the dispatch runs on the CP thread alone, with the same results).
static rl_sim_parallel_t* rl_sim_parallel_pool(rl_sim_queue_t* queue) {
  if (queue->parallel != NULL) return queue->parallel;
  // Aligned as its type asks: each worker on host cache lines of its own.
  rl_sim_parallel_t* p = aligned_alloc(_Alignof(rl_sim_parallel_t), sizeof(*p));
  if (p == NULL) return NULL;
  memset(p, 0, sizeof(*p));
  if (pthread_mutex_init(&p->lock, NULL) != 0) {
    free(p);
    return NULL;
  }
  pthread_cond_init(&p->wake, NULL);
  pthread_cond_init(&p->idle, NULL);
  p->queue = queue;
  queue->parallel = p;
  for (uint32_t k = 0; k < RL_SIM_THREADS_MAX; ++k) {
    p->workers[k].parallel = p;
    p->workers[k].index = k;
  }
  uint32_t threads = queue->device->threads;
  if (threads > RL_SIM_THREADS_MAX) threads = RL_SIM_THREADS_MAX;
  for (uint32_t k = 1; k < threads; ++k) {
    rl_sim_worker_t* w = &p->workers[k];
    if (pthread_create(&w->thread, NULL, rl_sim_worker_main, w) != 0) break;
    p->thread_count = k;
  }
  return p;
}

rl_status_t rl_sim_parallel_run(rl_sim_queue_t* queue, rl_sim_run_t* run,
                                uint64_t* out_fault_address) {
  rl_sim_device_t* device = queue->device;
  rl_sim_parallel_t* p = rl_sim_parallel_pool(queue);
  if (p == NULL) return rl_status_out_of_memory();
  p->run = run;
  atomic_store(&p->limit, UINT64_MAX);
  atomic_store(&p->done, 0);
  atomic_store(&p->next_shard, 0);
  rl_sim_cache_shards(&device->cache, run->dispatch.dispatch_index,
                      RL_SIM_PARALLEL_SLOTS, &p->slots, &p->group, &p->half);
  p->shards = (p->slots + p->group - 1) / p->group;
  uint32_t threads = p->thread_count + 1;
  if (p->shards < threads) threads = p->shards;
  uint64_t rest = run->wg_total - 1;
  if (rest < threads) threads = (uint32_t)rest;
  const uint32_t lds = run->dispatch.group_segment_size;
  if (lds > p->lds_size) {
    for (uint32_t k = 0; k <= p->thread_count; ++k) {
      rl_sim_worker_t* w = &p->workers[k];
      uint8_t* grown = calloc(1, lds);
      if (grown == NULL) return rl_status_out_of_memory();
      free(w->lds);
      w->lds = grown;
      w->lds_used = false;
    }
    p->lds_size = lds;
  }
  // Workers 1.. on the pool's threads, worker 0 on this (CP) thread.
  pthread_mutex_lock(&p->lock);
  p->worker_count = threads;
  p->busy = p->thread_count;
  p->generation++;
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->lock);
  rl_sim_worker_work(&p->workers[0]);
  pthread_mutex_lock(&p->lock);
  while (p->busy != 0) pthread_cond_wait(&p->idle, &p->lock);
  pthread_mutex_unlock(&p->lock);
  rl_status_t status = rl_sim_parallel_merge(p, out_fault_address);
  run->wg_done = 1 + atomic_load(&p->done);
  p->run = NULL;
  return status;
}
