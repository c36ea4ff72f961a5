// tests/bench/isa_bench.c — throughput of the `isa` executor
// (sim/isa/) on the vecchain kernels: wave-instructions retired per
// second of wall time, command-processor overhead included, on one
// simulated gfx1100 queue (one CP thread, so one core).
//
// Usage: isa_bench [kernels_dir] [elements] [repetitions]
// Defaults: RL_KERNELS_DIR, 1048576 elements, 5 repetitions. Each repetition
// launches vc_scale, vc_axpy_pos (element-wise, 64-lane blocks), vc_add and
// vc_partial_sum (chunks of 4096: strided loads, an LDS tree and barriers).
// Not a test: it prints numbers (tools/ style) and exits 0 on success.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "redline/device/device_funnel.h"
#include "redline/funnel.h"
#include "sim/isa/isa_executor.h"
#include "sim/sim.h"

static double rl_bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int rl_bench_check(rl_status_t status, const char* what) {
  if (status == RL_OK) return 0;
  fprintf(stderr, "isa_bench: %s: %s\n", what, rl_status_message(status));
  rl_status_free(status);
  return 1;
}

static void* rl_bench_read_file(const char* path, size_t* out_size) {
  FILE* file = fopen(path, "rb");
  if (file == NULL) return NULL;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  rewind(file);
  void* bytes = malloc((size_t)size);
  if (bytes && fread(bytes, 1, (size_t)size, file) != (size_t)size) {
    free(bytes);
    bytes = NULL;
  }
  fclose(file);
  *out_size = (size_t)size;
  return bytes;
}

typedef struct rl_bench_s {
  rl_funnel_t* funnel;
  uint32_t code_object;
} rl_bench_t;

static int rl_bench_launch(rl_bench_t* bench, const char* name,
                           uint32_t groups, const rl_funnel_arg_t* args,
                           uint32_t count) {
  uint32_t kernel = 0;
  if (rl_bench_check(rl_funnel_kernel(bench->funnel, bench->code_object, name,
                                      &kernel), name)) {
    return 1;
  }
  const uint32_t grid[3] = {groups, 1, 1}, block[3] = {64, 1, 1};
  return rl_bench_check(rl_funnel_launch(bench->funnel, kernel, grid, block,
                                         0, args, count, NULL, NULL),
                        name);
}

static int rl_bench_run(rl_bench_t* bench, uint32_t n, uint32_t reps,
                        const uint64_t* address) {
  const uint32_t chunk = 4096, groups = n / 64;
  for (uint32_t r = 0; r < reps; ++r) {
    rl_funnel_arg_t scale[] = {
        rl_funnel_arg_pointer(address[0]), rl_funnel_arg_pointer(address[1]),
        rl_funnel_arg_f32(0.5f), rl_funnel_arg_u32(n)};
    rl_funnel_arg_t axpy[] = {
        rl_funnel_arg_pointer(address[0]), rl_funnel_arg_pointer(address[1]),
        rl_funnel_arg_u32(r + 1), rl_funnel_arg_u32(n)};
    rl_funnel_arg_t add[] = {
        rl_funnel_arg_pointer(address[0]), rl_funnel_arg_pointer(address[1]),
        rl_funnel_arg_pointer(address[2]), rl_funnel_arg_u32(n)};
    rl_funnel_arg_t sum[] = {
        rl_funnel_arg_pointer(address[2]), rl_funnel_arg_pointer(address[3]),
        rl_funnel_arg_u32(chunk), rl_funnel_arg_u32(n)};
    if (rl_bench_launch(bench, "vc_scale", groups, scale, 4) ||
        rl_bench_launch(bench, "vc_axpy_pos", groups, axpy, 4) ||
        rl_bench_launch(bench, "vc_add", groups, add, 4) ||
        rl_bench_launch(bench, "vc_partial_sum", n / chunk, sum, 4)) {
      return 1;
    }
  }
  return 0;
}

int main(int argc, char** argv) {
  const char* dir = argc > 1 ? argv[1] : RL_KERNELS_DIR;
  uint32_t n = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 0) : 1u << 20;
  uint32_t reps = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 0) : 5;
  n = (n + 4095) / 4096 * 4096;
  char path[1024];
  snprintf(path, sizeof(path), "%s/vecchain-gfx1100.co", dir);
  size_t size = 0;
  void* bytes = rl_bench_read_file(path, &size);
  if (bytes == NULL) {
    fprintf(stderr, "isa_bench: cannot read %s\n", path);
    return 1;
  }
  rl_sim_options_t options = {.processor = "gfx1100",
                              .executor = rl_isa_executor()};
  rl_device_t* device = NULL;
  rl_funnel_device_t funnel_device = {0};
  rl_bench_t bench = {0};
  int failed = rl_bench_check(rl_sim_device_create(&options, &device), "device") ||
               rl_bench_check(rl_device_funnel_create(device, &funnel_device), "adapter") ||
               rl_bench_check(rl_funnel_create("isa_bench", &funnel_device, &bench.funnel), "funnel") ||
               rl_bench_check(rl_funnel_load_code_object(bench.funnel, bytes, size, &bench.code_object), "load");
  uint64_t address[4] = {0};
  float* init = calloc(n, sizeof(float));
  for (uint32_t i = 0; i < n && init; ++i) init[i] = (float)(i % 1000) * 0.001f;
  for (uint32_t b = 0; b < 4 && !failed; ++b) {
    uint32_t buffer = 0;
    char name[16];
    snprintf(name, sizeof(name), "b%u", b);
    failed = rl_bench_check(rl_funnel_buffer(bench.funnel, name, (uint64_t)n * 4, 256,
                                             RL_BUFFER_ROLE_SCRATCH, false, &buffer,
                                             &address[b]), "buffer") ||
             rl_bench_check(rl_funnel_upload(bench.funnel, buffer, 0, init, (uint64_t)n * 4),
                            "upload");
  }
  if (!failed) failed = rl_bench_run(&bench, n, 1, address);  // warm-up
  uint64_t before = rl_isa_executor_instructions();
  double start = rl_bench_now();
  if (!failed) failed = rl_bench_run(&bench, n, reps, address);
  float probe = 0;
  if (!failed) failed = rl_bench_check(rl_funnel_read(bench.funnel, 3, 0, &probe, 4), "read");
  double seconds = rl_bench_now() - start;
  uint64_t retired = rl_isa_executor_instructions() - before;
  if (!failed) {
    printf("isa_bench: %u elements x %u repetitions (4 launches each) on %s\n",
           n, reps, path);
    printf("isa_bench: %llu wave-instructions in %.3f s = %.1f million "
           "wave-instructions/s (one CP thread)\n",
           (unsigned long long)retired, seconds, (double)retired / seconds / 1e6);
    printf("isa_bench: %.1f million work-items/s over the element-wise "
           "launches and the sums\n",
           (double)n * 4 * reps / seconds / 1e6);
  }
  if (bench.funnel) rl_funnel_destroy(bench.funnel);
  rl_funnel_device_destroy(&funnel_device);
  if (device) device->vtable->destroy(device);
  rl_isa_executor_clear_cache();
  free(init);
  free(bytes);
  return failed;
}
