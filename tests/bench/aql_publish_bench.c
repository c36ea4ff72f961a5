// aql_publish_bench — host cost of publishing AQL packets through the ring
// protocol (aql/aql_ring.h) to an in-memory queue whose consumer thread only
// resets headers and advances the read id (tests/unit/aql/aql_fake_queue.h).
//
//   aql_publish_bench [packets]      (default 10,000,000 per row)
//
// Cases (each run in two modes):
//   publish          reserve B slots, copy bytes 4..63 of each packet,
//                    release-store each header, one doorbell per batch of B,
//                    with one field patched per batch: the route-aql hot
//                    path without binding updates;
//   vecchain replay  rl_aql_program_apply on the lowered vecchain program
//                    (pos walks 1..4095, so 4 sites change per replay) and
//                    the publication of its 8 packets with one doorbell;
//   apply only       the apply step alone.
// Modes:
//   live      a 256-packet ring drained concurrently by the consumer thread:
//             includes waiting for ring space and the cache-line traffic
//             with the consumer, so it depends on the consumer's speed and
//             on what else runs on the machine;
//   isolated  a 65536-packet ring; the consumer is stalled (sleeping) while
//             a window of up to 65536 packets is published and timed, then
//             drains it untimed: the producer's own cost.
// Times are CLOCK_MONOTONIC on the producer thread, in ns per packet and
// per batch (replay).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aql/aql_lower.h"
#include "aql/aql_patch.h"
#include "tests/unit/aql/aql_program_apply.h"
#include "redline/device/device_ring.h"
#include "tests/unit/aql/aql_fake_queue.h"
#include "kernels/workloads/workload.h"
#include "redline/hazard.h"

#define RL_BENCH_RING 256u
#define RL_BENCH_TIMEOUT_NS 1000000000ull

#define RL_BENCH_RING_ISOLATED 65536u

typedef struct rl_bench_row_s {
  const char* name;
  const char* mode;
  uint32_t batch;
  uint64_t packets;
  uint64_t ns;
} rl_bench_row_t;

static void rl_bench_check(rl_status_t status, const char* what) {
  if (!status) return;
  fprintf(stderr, "aql_publish_bench: %s: %s\n", what,
          rl_status_message(status));
  exit(1);
}

// One step of a case: publishes (or applies) one batch; *|last| is the id
// of the last packet published.
typedef void (*rl_bench_step_fn)(void* context, uint64_t step,
                                 uint64_t* last);

// Runs |steps| steps of |batch| packets each and returns the timed ns. In
// isolated mode (|fake| with a large ring) only windows that fit the ring
// are timed, with the consumer stalled; it drains between windows.
static uint64_t rl_bench_run(rl_fake_queue_t* fake, bool isolated,
                             uint64_t steps, uint32_t batch,
                             rl_bench_step_fn step, void* context) {
  uint64_t window = isolated ? fake->queue.packet_count / batch : steps;
  uint64_t ns = 0, last = UINT64_MAX;
  for (uint64_t i = 0; i < steps;) {
    uint64_t n = steps - i < window ? steps - i : window;
    if (isolated) rl_fake_queue_stall(fake, true);
    uint64_t start = rl_fake_queue_now_ns();
    for (uint64_t k = 0; k < n; ++k) step(context, i + k, &last);
    ns += rl_fake_queue_now_ns() - start;
    if (isolated) rl_fake_queue_stall(fake, false);
    if (last != UINT64_MAX) {
      rl_fake_queue_wait_read(fake, last + 1, 10 * RL_BENCH_TIMEOUT_NS);
    }
    i += n;
  }
  return ns;
}

typedef struct rl_bench_publish_s {
  rl_aql_ring_t* ring;
  uint32_t batch;
  rl_aql_dispatch_packet_t packets[64];
} rl_bench_publish_t;

static void rl_bench_publish_step(void* context, uint64_t step,
                                  uint64_t* last) {
  rl_bench_publish_t* publish = context;
  publish->packets[0].grid_size_x = (uint32_t)step;  // a per-batch patch
  rl_bench_check(rl_aql_ring_submit(publish->ring, publish->packets,
                                    publish->batch, RL_BENCH_TIMEOUT_NS,
                                    last),
                 "submit");
}

static rl_bench_row_t rl_bench_publish(rl_fake_queue_t* fake,
                                       rl_aql_ring_t* ring, bool isolated,
                                       uint32_t batch, uint64_t total) {
  rl_bench_publish_t publish = {.ring = ring, .batch = batch};
  for (uint32_t i = 0; i < batch; ++i) {
    publish.packets[i].header = rl_aql_header(
        RL_AQL_PACKET_TYPE_KERNEL_DISPATCH, 1, RL_AQL_FENCE_SCOPE_AGENT,
        RL_AQL_FENCE_SCOPE_AGENT);
    publish.packets[i].setup = 3;
  }
  uint64_t steps = total / batch;
  uint64_t ns = rl_bench_run(fake, isolated, steps, batch,
                             rl_bench_publish_step, &publish);
  return (rl_bench_row_t){"publish", isolated ? "isolated" : "live", batch,
                          steps * batch, ns};
}

static void* rl_bench_read_file(const char* path, size_t* out_size) {
  FILE* file = fopen(path, "rb");
  if (!file) {
    fprintf(stderr, "aql_publish_bench: cannot open %s\n", path);
    exit(1);
  }
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  rewind(file);
  void* bytes = malloc((size_t)size);
  if (!bytes || fread(bytes, 1, (size_t)size, file) != (size_t)size) exit(1);
  fclose(file);
  *out_size = (size_t)size;
  return bytes;
}

static rl_capture_t* rl_bench_record(void) {
  size_t size = 0;
  void* bytes =
      rl_bench_read_file(RL_KERNELS_DIR "/vecchain-gfx1100.co", &size);
  rl_workload_options_t options = {.code_object = bytes,
                                   .code_object_size = size, .seed = 1};
  rl_funnel_device_t device;
  rl_funnel_t* funnel = NULL;
  rl_capture_t* capture = NULL;
  rl_bench_check(rl_funnel_null_device_create(&device), "null device");
  rl_bench_check(rl_funnel_create("vecchain", &device, &funnel), "funnel");
  rl_bench_check(rl_workload_find("vecchain")->record(funnel, &options),
                 "record");
  rl_bench_check(rl_funnel_finish(funnel, &capture), "finish");
  rl_funnel_destroy(funnel);
  rl_funnel_device_destroy(&device);
  free(bytes);
  return capture;
}

typedef struct rl_bench_program_s {
  rl_capture_t* capture;
  rl_hazard_plan_t* plan;
  uint64_t* buffers;
  uint64_t* kernels;
  rl_aql_program_t* program;
  uint8_t* kernarg_host;
} rl_bench_program_t;

static void rl_bench_program_init(rl_bench_program_t* b) {
  b->capture = rl_bench_record();
  rl_bench_check(rl_hazard_plan_create(b->capture, &b->plan), "plan");
  b->buffers = calloc(b->capture->buffer_count, sizeof(uint64_t));
  b->kernels = calloc(b->capture->kernel_count, sizeof(uint64_t));
  for (uint32_t i = 0; i < b->capture->buffer_count; ++i) {
    b->buffers[i] = 0x900000000000ull + i * 0x100000ull;
  }
  for (uint32_t i = 0; i < b->capture->kernel_count; ++i) {
    b->kernels[i] = 0xa00000000000ull + i * 0x40ull;
  }
  int64_t pos = b->capture->params[0].capture_value;
  rl_aql_lower_inputs_t inputs = {
      .capture = b->capture, .plan = b->plan, .buffer_addresses = b->buffers,
      .kernel_objects = b->kernels, .kernarg_address = 0xb00000000000ull,
      .completion_signal = 0xc00000000000ull, .param_values = &pos};
  rl_bench_check(rl_aql_lower(&inputs, &b->program), "lower");
  rl_bench_check(rl_aql_program_check(b->program, &inputs), "census");
  b->kernarg_host = malloc(b->program->kernarg_size);
  memcpy(b->kernarg_host, b->program->kernarg, b->program->kernarg_size);
}

static void rl_bench_program_deinit(rl_bench_program_t* b) {
  rl_aql_program_destroy(b->program);
  rl_hazard_plan_destroy(b->plan);
  rl_capture_destroy(b->capture);
  free(b->buffers);
  free(b->kernels);
  free(b->kernarg_host);
}

typedef struct rl_bench_replay_s {
  rl_bench_program_t* program;
  rl_aql_ring_t* ring;  // NULL: apply only
} rl_bench_replay_t;

// One replay: apply at the step's pos, then (with a ring) publish every
// packet with one doorbell.
static void rl_bench_replay_step(void* context, uint64_t step,
                                 uint64_t* last) {
  rl_bench_replay_t* replay = context;
  rl_bench_program_t* b = replay->program;
  int64_t pos = 1 + (int64_t)(step % 4095);
  uint32_t changed = 0;
  rl_bench_check(rl_aql_program_apply(b->program, b->capture, &pos, 1,
                                      b->buffers, b->kernarg_host, &changed),
                 "apply");
  if (!replay->ring) return;
  rl_bench_check(rl_aql_ring_submit(replay->ring, b->program->packets,
                                    b->program->packet_count,
                                    RL_BENCH_TIMEOUT_NS, last),
                 "submit");
}

static rl_bench_row_t rl_bench_vecchain(rl_fake_queue_t* fake,
                                        rl_aql_ring_t* ring, bool isolated,
                                        rl_bench_program_t* b,
                                        uint64_t total) {
  rl_bench_replay_t replay = {.program = b, .ring = ring};
  uint32_t count = b->program->packet_count;
  uint64_t steps = total / count;
  uint64_t ns = rl_bench_run(fake, isolated && ring, steps, count,
                             rl_bench_replay_step, &replay);
  return (rl_bench_row_t){ring ? "vecchain replay" : "apply only",
                          ring ? (isolated ? "isolated" : "live") : "-",
                          count, steps * count, ns};
}

static void rl_bench_print(const rl_bench_row_t* row) {
  double per_packet = (double)row->ns / (double)row->packets;
  printf("%-16s %-9s %6u %12llu %10.1f %10.1f\n", row->name, row->mode,
         row->batch, (unsigned long long)row->packets, per_packet,
         per_packet * row->batch);
}

int main(int argc, char** argv) {
  uint64_t total = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000ull;
  if (total < 64) total = 64;
  rl_fake_queue_t* fakes[2] = {rl_fake_queue_create(RL_BENCH_RING, 0),
                               rl_fake_queue_create(RL_BENCH_RING_ISOLATED, 0)};
  rl_aql_ring_t rings[2];
  for (uint32_t m = 0; m < 2; ++m) {
    rl_device_aql_ring_init(&rings[m], &fakes[m]->device, &fakes[m]->queue);
    rl_fake_queue_start(fakes[m], NULL, NULL);
  }
  rl_bench_program_t program = {0};
  rl_bench_program_init(&program);

  printf("%-16s %-9s %6s %12s %10s %10s\n", "case", "mode", "batch",
         "packets", "ns/packet", "ns/batch");
  static const uint32_t batches[] = {1, 8, 64};
  for (uint32_t m = 0; m < 2; ++m) {
    for (uint32_t i = 0; i < 3; ++i) {
      rl_bench_row_t row =
          rl_bench_publish(fakes[m], &rings[m], m == 1, batches[i], total);
      rl_bench_print(&row);
    }
    rl_bench_row_t row =
        rl_bench_vecchain(fakes[m], &rings[m], m == 1, &program, total);
    rl_bench_print(&row);
  }
  rl_bench_row_t row = rl_bench_vecchain(fakes[0], NULL, false, &program,
                                         total);
  rl_bench_print(&row);
  printf("rings of %u (live) and %u (isolated) packets; %llu + %llu "
         "doorbells\n",
         RL_BENCH_RING, RL_BENCH_RING_ISOLATED,
         (unsigned long long)fakes[0]->doorbell_count,
         (unsigned long long)fakes[1]->doorbell_count);

  rl_bench_program_deinit(&program);
  rl_fake_queue_destroy(fakes[0]);
  rl_fake_queue_destroy(fakes[1]);
  return 0;
}
