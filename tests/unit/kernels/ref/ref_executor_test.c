// Tests of the reference executor (kernels/ref/ref_executor.c and
// vecchain_ref.c) on the simulated GPU: every vecchain kernel runs end to
// end from an AQL packet on known inputs and is compared bit for bit with
// expected values computed here in plain C; the refusals of begin() and a
// VM fault from a kernel are checked as well.
//
// Packets are published inline (bytes 4..63, then a release store of the
// header word, then the doorbell), as aql/aql_ring.h describes, so this test
// depends only on the device interface.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "tests/support/test_support.h"

#include "aql/aql_packet.h"
#include "kernels/ref/ref_executor.h"
#include "redline/code_object.h"
#include "sim/sim.h"

#define RL_TEST_CODE_OBJECT RL_KERNELS_DIR "/vecchain-gfx1100.co"
#define RL_TEST_TIMEOUT_NS 10000000000ull   // 10 s: a healthy run
#define RL_TEST_FAULT_WAIT_NS 200000000ull  // 200 ms: a faulted queue
#define RL_TEST_BUFFER_BYTES 65536u
#define RL_TEST_SENTINEL 0x7fc0dead  // a quiet NaN no kernel produces

typedef struct rl_test_s {
  void* bytes;
  size_t size;
  rl_code_object_t* code_object;
  rl_device_t* device;
  rl_device_code_object_t loaded;
  rl_device_queue_t queue;
  rl_device_allocation_t signal;
  rl_device_allocation_t buffers[4];
} rl_test_t;


static int rl_test_setup(void** state) {
  rl_test_t* test = calloc(1, sizeof(*test));
  assert_non_null(test);
  test->bytes = rl_test_read_file(RL_TEST_CODE_OBJECT, &test->size);
  assert_null(rl_code_object_parse(test->bytes, test->size,
                                   &test->code_object));
  rl_sim_options_t options = {.processor = "gfx1100",
                              .hazards = RL_SIM_HAZARDS_SEQUENTIAL,
                              .executor = rl_ref_executor()};
  assert_null(rl_sim_device_create(&options, &test->device));
  const rl_device_vtable_t* vt = test->device->vtable;
  assert_null(vt->load_code_object(test->device, test->bytes, test->size,
                                   test->code_object, &test->loaded));
  assert_null(vt->queue_create(test->device, 64, &test->queue));
  assert_null(vt->signal_create(test->device, 0, &test->signal));
  for (int b = 0; b < 4; ++b) {
    assert_null(vt->allocate(test->device, RL_TEST_BUFFER_BYTES, 256,
                             RL_MEMORY_KIND_DEVICE, &test->buffers[b]));
  }
  *state = test;
  return 0;
}

// Ends with the queue-drain check, then releases everything.
static int rl_test_teardown(void** state) {
  rl_test_t* test = *state;
  const rl_device_vtable_t* vt = test->device->vtable;
  for (int b = 0; b < 4; ++b) {
    assert_null(vt->free(test->device, test->buffers[b].address));
  }
  assert_null(vt->signal_destroy(test->device, test->signal.address));
  if (test->queue.ring) {
    rl_device_fault_t fault = {0};
    vt->queue_fault(test->device, &test->queue, &fault);
    if (!fault.faulted) assert_true(vt->queue_idle(test->device, &test->queue));
    assert_null(vt->queue_destroy(test->device, &test->queue));
  }
  assert_null(vt->unload_code_object(test->device, &test->loaded));
  vt->destroy(test->device);
  rl_code_object_destroy(test->code_object);
  free(test->bytes);
  free(test);
  return 0;
}

// One dispatch: kernel, 1-D geometry and the explicit argument values in
// metadata order (pointers and 32-bit scalars), packed at the metadata's
// offsets.
typedef struct rl_test_arg_s {
  uint32_t size;  // 4 or 8
  uint64_t bits;
} rl_test_arg_t;

static rl_test_arg_t rl_test_ptr(uint64_t address) {
  return (rl_test_arg_t){8, address};
}
static rl_test_arg_t rl_test_u32(uint32_t value) {
  return (rl_test_arg_t){4, value};
}
static rl_test_arg_t rl_test_f32(float value) {
  uint32_t bits = 0;
  memcpy(&bits, &value, 4);
  return (rl_test_arg_t){4, bits};
}

// Builds the kernarg of |kernel| in fresh kernarg memory.
static uint64_t rl_test_kernarg(rl_test_t* test,
                                const rl_code_object_kernel_t* kernel,
                                const rl_test_arg_t* args, uint32_t count) {
  uint8_t bytes[256] = {0};
  assert_true(kernel->kernarg_size <= sizeof(bytes));
  uint32_t explicit_index = 0;
  for (uint32_t a = 0; a < kernel->arg_count; ++a) {
    const rl_kernel_arg_t* arg = &kernel->args[a];
    if (arg->kind == RL_ARG_KIND_HIDDEN) continue;
    assert_true(explicit_index < count);
    assert_int_equal(arg->size, args[explicit_index].size);
    memcpy(bytes + arg->offset, &args[explicit_index].bits, arg->size);
    ++explicit_index;
  }
  assert_int_equal(explicit_index, count);
  rl_device_allocation_t kernarg = {0};
  assert_null(test->device->vtable->allocate(
      test->device, kernel->kernarg_size ? kernel->kernarg_size : 16, 64,
      RL_MEMORY_KIND_KERNARG, &kernarg));
  assert_null(test->device->vtable->write(test->device, kernarg.address, bytes,
                                          kernel->kernarg_size));
  return kernarg.address;
}

// Publishes one kernel-dispatch packet inline and waits up to |timeout_ns|
// for its completion signal. Returns true when it completed.
static bool rl_test_dispatch(rl_test_t* test, const char* name,
                             uint32_t groups, uint32_t block,
                             const rl_test_arg_t* args, uint32_t count,
                             uint64_t timeout_ns) {
  const rl_code_object_kernel_t* kernel =
      rl_code_object_find_kernel(test->code_object, name);
  assert_non_null(kernel);
  const rl_device_vtable_t* vt = test->device->vtable;
  vt->signal_store(test->device, test->signal.address, 1);
  rl_aql_dispatch_packet_t packet = {
      .setup = 1,
      .workgroup_size_x = (uint16_t)block,
      .workgroup_size_y = 1,
      .workgroup_size_z = 1,
      .grid_size_x = groups * block,
      .grid_size_y = 1,
      .grid_size_z = 1,
      .group_segment_size = kernel->group_segment_size,
      .kernel_object = test->loaded.load_base + kernel->descriptor_address,
      .kernarg_address = rl_test_kernarg(test, kernel, args, count),
      .completion_signal = test->signal.address};
  packet.header = rl_aql_header(RL_AQL_PACKET_TYPE_KERNEL_DISPATCH, 1,
                                RL_AQL_FENCE_SCOPE_SYSTEM,
                                RL_AQL_FENCE_SCOPE_SYSTEM);
  // The ring holds 64 packets and each test waits for its packet, so the
  // slot is free; claim the id, then body, header (release), doorbell.
  uint64_t id = __atomic_load_n(test->queue.write_index, __ATOMIC_RELAXED);
  assert_true(id - __atomic_load_n(test->queue.read_index, __ATOMIC_ACQUIRE) <
              test->queue.packet_count);
  __atomic_store_n(test->queue.write_index, id + 1, __ATOMIC_RELEASE);
  uint8_t* slot = (uint8_t*)test->queue.ring +
                  (id & (test->queue.packet_count - 1)) * RL_AQL_PACKET_SIZE;
  memcpy(slot + 4, (const uint8_t*)&packet + 4, RL_AQL_PACKET_SIZE - 4);
  uint32_t header_word = (uint32_t)packet.header | ((uint32_t)packet.setup << 16);
  __atomic_store_n((uint32_t*)slot, header_word, __ATOMIC_RELEASE);
  vt->queue_doorbell(test->device, &test->queue, id);
  int64_t value = 0;
  return vt->signal_wait_lt(test->device, test->signal.address, 1, timeout_ns,
                            &value);
}

static void rl_test_run(rl_test_t* test, const char* name, uint32_t groups,
                        const rl_test_arg_t* args, uint32_t count) {
  if (!rl_test_dispatch(test, name, groups, 64, args, count,
                        RL_TEST_TIMEOUT_NS)) {
    rl_device_fault_t fault = {0};
    test->device->vtable->queue_fault(test->device, &test->queue, &fault);
    fail_msg("%s did not complete: %s", name,
             fault.faulted ? fault.message : "no fault reported");
  }
}

static void rl_test_write(rl_test_t* test, int buffer, const void* data,
                          uint64_t size) {
  assert_null(test->device->vtable->write(
      test->device, test->buffers[buffer].address, data, size));
}

static void rl_test_read(rl_test_t* test, int buffer, void* data,
                         uint64_t size) {
  assert_null(test->device->vtable->read(
      test->device, test->buffers[buffer].address, data, size));
}

static uint64_t rl_test_address(const rl_test_t* test, int buffer) {
  return test->buffers[buffer].address;
}

// Fills every buffer with the sentinel so untouched elements are visible.
static void rl_test_poison(rl_test_t* test) {
  static uint32_t words[RL_TEST_BUFFER_BYTES / 4];
  for (uint32_t i = 0; i < RL_TEST_BUFFER_BYTES / 4; ++i) {
    words[i] = RL_TEST_SENTINEL;
  }
  for (int b = 0; b < 4; ++b) rl_test_write(test, b, words, sizeof(words));
}

// splitmix64 for deterministic inputs.
static uint64_t rl_test_next(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Floats with full random mantissas over |span| binades from 2^-27 (and
// a few denormals), so rounding differences show.
static void rl_test_random_floats_span(uint64_t seed, float* out,
                                       uint32_t count, bool positive,
                                       uint32_t span) {
  uint64_t state = seed;
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t r = rl_test_next(&state);
    uint32_t mantissa = (uint32_t)r & 0x7fffffu;
    uint32_t exponent = 100u + (uint32_t)((r >> 23) % span);
    if (i % 97 == 5) exponent = 0;  // a denormal
    uint32_t sign = positive ? 0u : (uint32_t)((r >> 40) & 1u) << 31;
    uint32_t bits = sign | (exponent << 23) | mantissa;
    memcpy(&out[i], &bits, 4);
  }
}

static void rl_test_random_floats(uint64_t seed, float* out, uint32_t count,
                                  bool positive) {
  rl_test_random_floats_span(seed, out, count, positive, 60);
}

static uint32_t rl_test_bits(float value) {
  uint32_t bits = 0;
  memcpy(&bits, &value, 4);
  return bits;
}

// Compares |count| words bit for bit.
static void rl_test_expect_words(const void* got, const void* want,
                                 uint32_t count, const char* what) {
  const uint32_t* g = got;
  const uint32_t* w = want;
  for (uint32_t i = 0; i < count; ++i) {
    if (g[i] != w[i]) {
      fail_msg("%s[%u]: got 0x%08x, expected 0x%08x", what, i, g[i], w[i]);
    }
  }
}

enum { RL_TEST_N = 150, RL_TEST_GROUPS = 4 };  // 256 work-items for 150

static void ref_vc_fill_stores_argument_bits_unchanged_including_snan(
    void** state) {
  rl_test_t* test = *state;
  rl_test_poison(test);
  rl_test_arg_t args[] = {rl_test_ptr(rl_test_address(test, 0)),
                          rl_test_f32(-3.25f), rl_test_u32(RL_TEST_N)};
  rl_test_run(test, "vc_fill", RL_TEST_GROUPS, args, 3);
  // A signalling-NaN pattern: the kernel stores the argument's bits
  // without arithmetic, so not even the quiet bit may change.
  uint32_t snan = 0x7fa12345;
  args[0] = rl_test_ptr(rl_test_address(test, 1));
  args[1] = (rl_test_arg_t){4, snan};
  rl_test_run(test, "vc_fill", RL_TEST_GROUPS, args, 3);
  uint32_t got[2][RL_TEST_N + 64];
  uint32_t want[2][RL_TEST_N + 64];
  for (uint32_t i = 0; i < RL_TEST_N + 64; ++i) {
    want[0][i] = i < RL_TEST_N ? rl_test_bits(-3.25f) : RL_TEST_SENTINEL;
    want[1][i] = i < RL_TEST_N ? snan : RL_TEST_SENTINEL;
  }
  rl_test_read(test, 0, got[0], sizeof(got[0]));
  rl_test_read(test, 1, got[1], sizeof(got[1]));
  rl_test_expect_words(got[0], want[0], RL_TEST_N + 64, "fill");
  rl_test_expect_words(got[1], want[1], RL_TEST_N + 64, "fill snan");
}

static void ref_vc_scale_matches_host_product_bit_for_bit(void** state) {
  rl_test_t* test = *state;
  rl_test_poison(test);
  float in[RL_TEST_N];
  rl_test_random_floats(1, in, RL_TEST_N, false);
  rl_test_write(test, 0, in, sizeof(in));
  const float s = 0.3f;
  rl_test_arg_t args[] = {rl_test_ptr(rl_test_address(test, 0)),
                          rl_test_ptr(rl_test_address(test, 1)),
                          rl_test_f32(s), rl_test_u32(RL_TEST_N)};
  rl_test_run(test, "vc_scale", RL_TEST_GROUPS, args, 4);
  float got[RL_TEST_N + 64];
  float want[RL_TEST_N + 64];
  for (uint32_t i = 0; i < RL_TEST_N + 64; ++i) {
    uint32_t sentinel = RL_TEST_SENTINEL;
    if (i < RL_TEST_N) want[i] = in[i] * s;
    else memcpy(&want[i], &sentinel, 4);
  }
  // Denormals are kept, not flushed: element 5 is one, and so is its
  // product.
  assert_true(fpclassify(want[5]) == FP_SUBNORMAL);
  rl_test_read(test, 1, got, sizeof(got));
  rl_test_expect_words(got, want, RL_TEST_N + 64, "scale");
}

static void ref_vc_add_matches_host_sum_bit_for_bit(void** state) {
  rl_test_t* test = *state;
  rl_test_poison(test);
  float a[RL_TEST_N], b[RL_TEST_N];
  rl_test_random_floats(2, a, RL_TEST_N, false);
  rl_test_random_floats(3, b, RL_TEST_N, false);
  rl_test_write(test, 0, a, sizeof(a));
  rl_test_write(test, 1, b, sizeof(b));
  rl_test_arg_t args[] = {rl_test_ptr(rl_test_address(test, 0)),
                          rl_test_ptr(rl_test_address(test, 1)),
                          rl_test_ptr(rl_test_address(test, 2)),
                          rl_test_u32(RL_TEST_N)};
  rl_test_run(test, "vc_add", RL_TEST_GROUPS, args, 4);
  float got[RL_TEST_N + 64], want[RL_TEST_N + 64];
  for (uint32_t i = 0; i < RL_TEST_N + 64; ++i) {
    uint32_t sentinel = RL_TEST_SENTINEL;
    if (i < RL_TEST_N) want[i] = a[i] + b[i];
    else memcpy(&want[i], &sentinel, 4);
  }
  rl_test_read(test, 2, got, sizeof(got));
  rl_test_expect_words(got, want, RL_TEST_N + 64, "add");
}

// y[i] += x[i] * (float)pos with one rounding (the ISA's v_fmac_f32). The
// negative control shows the inputs tell fma from multiply-then-add (when
// the product is inexact), so a reference that rounded twice would fail.
// x and y span few binades so products and addends overlap.
static void rl_test_axpy(rl_test_t* test, uint32_t pos, bool inexact) {
  rl_test_poison(test);
  float x[RL_TEST_N], y[RL_TEST_N];
  rl_test_random_floats_span(4 + pos, x, RL_TEST_N, false, 4);
  rl_test_random_floats_span(5 + pos, y, RL_TEST_N, false, 4);
  rl_test_write(test, 0, x, sizeof(x));
  rl_test_write(test, 1, y, sizeof(y));
  rl_test_arg_t args[] = {rl_test_ptr(rl_test_address(test, 0)),
                          rl_test_ptr(rl_test_address(test, 1)),
                          rl_test_u32(pos), rl_test_u32(RL_TEST_N)};
  rl_test_run(test, "vc_axpy_pos", RL_TEST_GROUPS, args, 4);
  float got[RL_TEST_N + 64], want[RL_TEST_N + 64];
  uint32_t fused_differs = 0;
  for (uint32_t i = 0; i < RL_TEST_N + 64; ++i) {
    uint32_t sentinel = RL_TEST_SENTINEL;
    if (i >= RL_TEST_N) {
      memcpy(&want[i], &sentinel, 4);
      continue;
    }
    want[i] = fmaf(x[i], (float)pos, y[i]);
    volatile float product = x[i] * (float)pos;
    if (rl_test_bits(product + y[i]) != rl_test_bits(want[i])) {
      ++fused_differs;
    }
  }
  if (inexact) assert_true(fused_differs > 0);
  rl_test_read(test, 1, got, sizeof(got));
  rl_test_expect_words(got, want, RL_TEST_N + 64, "axpy_pos");
}

static void ref_vc_axpy_pos_fuses_and_rounds_pos_like_cvt_f32_u32(
    void** state) {
  rl_test_t* test = *state;
  rl_test_axpy(test, 3, true);
  rl_test_axpy(test, 7, true);
  // 2^24 + 1 is not a binary32: (float)pos rounds to 2^24 (v_cvt_f32_u32),
  // and the product by a power of two is exact.
  assert_true((float)16777217u == 16777216.0f);
  rl_test_axpy(test, 16777217u, false);
}

// The expected partial sum of one group, written independently of the
// reference: 64 lane sums in ascending strided order, then the pairwise
// tree lanes[l] = lanes[l] + lanes[l + stride] for stride 32 down to 1.
static float rl_test_tree_sum(const float* in, uint32_t begin, uint32_t end) {
  float lanes[64];
  for (uint32_t lane = 0; lane < 64; ++lane) {
    lanes[lane] = 0.0f;
    for (uint32_t i = begin + lane; i < end; i += 64) lanes[lane] += in[i];
  }
  for (uint32_t stride = 32; stride >= 1; stride /= 2) {
    for (uint32_t lane = 0; lane < stride; ++lane) {
      lanes[lane] = lanes[lane] + lanes[lane + stride];
    }
  }
  return lanes[0];
}

static void rl_test_partial_sum(rl_test_t* test, uint32_t count,
                                uint32_t chunk, uint32_t groups,
                                bool expect_order_matters) {
  rl_test_poison(test);
  static float in[4096];
  assert_true(count <= 4096);
  rl_test_random_floats(6 + chunk, in, count, true);
  rl_test_write(test, 0, in, count * 4);
  rl_test_arg_t args[] = {rl_test_ptr(rl_test_address(test, 0)),
                          rl_test_ptr(rl_test_address(test, 1)),
                          rl_test_u32(chunk), rl_test_u32(count)};
  rl_test_run(test, "vc_partial_sum", groups, args, 4);
  float got[64];
  assert_true(groups < 64);
  rl_test_read(test, 1, got, sizeof(got));
  uint32_t order_matters = 0;
  for (uint32_t g = 0; g < groups; ++g) {
    uint32_t begin = g * chunk;
    uint32_t end = begin + chunk < count ? begin + chunk : count;
    float want = rl_test_tree_sum(in, begin, end);
    double exact = 0.0;
    float sequential = 0.0f;
    for (uint32_t i = begin; i < end; ++i) {
      exact += in[i];
      sequential += in[i];
    }
    if (begin >= count) assert_true(want == 0.0f && !signbit(want));
    assert_true(fabs((double)want - exact) <= 1e-5 * fabs(exact));
    if (sequential != want) ++order_matters;
    rl_test_expect_words(&got[g], &want, 1, "partials");
  }
  uint32_t sentinel = RL_TEST_SENTINEL;
  rl_test_expect_words(&got[groups], &sentinel, 1, "partials past the grid");
  if (expect_order_matters) assert_true(order_matters > 0);
}

static void ref_vc_partial_sum_matches_tree_order_over_full_and_partial_chunks(
    void** state) {
  rl_test_t* test = *state;
  // 1000 = 3 * 300 + 100: three full chunks of up to 5 elements a lane, a
  // partial last chunk, and a fifth group that starts past n (sum +0.0f).
  rl_test_partial_sum(test, 1000, 300, 5, true);
  // The workload's shape: chunk 64, context pos + 1 = 8 (one group, lanes
  // 8..63 contribute +0.0f), and a longer context over several groups.
  rl_test_partial_sum(test, 8, 64, 1, false);
  rl_test_partial_sum(test, 4000, 64, 63, false);
}

static void ref_vc_merge_sums_partials_and_merge_of_nothing_is_zero(
    void** state) {
  rl_test_t* test = *state;
  rl_test_poison(test);
  float partials[7];
  rl_test_random_floats(7, partials, 7, false);
  rl_test_write(test, 0, partials, sizeof(partials));
  rl_test_arg_t args[] = {rl_test_ptr(rl_test_address(test, 0)),
                          rl_test_ptr(rl_test_address(test, 1)),
                          rl_test_u32(7)};
  // Two groups: only work-item 0 of group 0 writes, so out[1] stays.
  rl_test_run(test, "vc_merge", 2, args, 3);
  float want[2] = {0.0f, 0.0f};
  for (int i = 0; i < 7; ++i) want[0] += partials[i];
  uint32_t sentinel = RL_TEST_SENTINEL;
  memcpy(&want[1], &sentinel, 4);
  float got[2];
  rl_test_read(test, 1, got, sizeof(got));
  rl_test_expect_words(got, want, 2, "merge");
  // count 0: the empty sum is +0.0f.
  args[2] = rl_test_u32(0);
  rl_test_run(test, "vc_merge", 1, args, 3);
  rl_test_read(test, 1, got, sizeof(got));
  want[0] = 0.0f;
  rl_test_expect_words(got, want, 1, "merge of nothing");
}

static void ref_vc_copy_u32_copies_nan_and_denormal_bits_unchanged(
    void** state) {
  rl_test_t* test = *state;
  rl_test_poison(test);
  uint32_t in[64];
  uint64_t seed = 8;
  for (int i = 0; i < 64; ++i) in[i] = (uint32_t)rl_test_next(&seed);
  in[0] = 0x7f800001;  // signalling NaN
  in[1] = 0xffffffff;  // NaN with every payload bit
  in[2] = 0x00000001;  // smallest denormal
  in[3] = 0x80000000;  // -0.0f
  rl_test_write(test, 0, in, sizeof(in));
  rl_test_arg_t args[] = {rl_test_ptr(rl_test_address(test, 0)),
                          rl_test_ptr(rl_test_address(test, 1)),
                          rl_test_u32(64)};
  rl_test_run(test, "vc_copy_u32", 2, args, 3);
  uint32_t got[128], want[128];
  for (int i = 0; i < 128; ++i) want[i] = i < 64 ? in[i] : RL_TEST_SENTINEL;
  rl_test_read(test, 1, got, sizeof(got));
  rl_test_expect_words(got, want, 128, "copy_u32");
}

// A dispatch of a copy of |name|'s metadata as the command processor would
// describe it (64x1x1 blocks over |groups| groups); |kernel| receives the
// copy so a test can alter it.
static rl_sim_dispatch_t rl_test_sim_dispatch(rl_test_t* test,
                                              const char* name,
                                              uint32_t groups,
                                              rl_code_object_kernel_t* kernel,
                                              rl_kernel_arg_t* args) {
  const rl_code_object_kernel_t* found =
      rl_code_object_find_kernel(test->code_object, name);
  assert_non_null(found);
  assert_true(found->arg_count <= 8);
  *kernel = *found;
  memcpy(args, found->args, found->arg_count * sizeof(*args));
  kernel->args = args;
  return (rl_sim_dispatch_t){
      .kernel = kernel,
      .dimensions = 1,
      .workgroup_size = {64, 1, 1},
      .grid_size = {groups * 64, 1, 1},
      .workgroup_count = {groups, 1, 1},
      .group_segment_size = found->group_segment_size};
}

// begin() must refuse with |code| and a message containing |fragment|, and
// leave no state.
static void rl_test_expect_refusal(const rl_sim_dispatch_t* dispatch,
                                   rl_status_code_t code,
                                   const char* fragment) {
  const rl_sim_executor_t* executor = rl_ref_executor();
  void* state = (void*)1;
  rl_status_t status = executor->begin(executor->self, dispatch, &state);
  assert_null(state);
  assert_int_equal(rl_status_code(status), code);
  if (!strstr(rl_status_message(status), fragment)) {
    fail_msg("message \"%s\" lacks \"%s\"", rl_status_message(status),
             fragment);
  }
  rl_status_free(status);
}

static void ref_begin_refuses_malformed_dispatches(void** state) {
  rl_test_t* test = *state;
  const rl_sim_executor_t* executor = rl_ref_executor();
  assert_string_equal(executor->name, "ref");
  rl_code_object_kernel_t kernel;
  rl_kernel_arg_t args[8];
  // Negative control: the unaltered dispatch is accepted.
  rl_sim_dispatch_t dispatch =
      rl_test_sim_dispatch(test, "vc_partial_sum", 2, &kernel, args);
  void* ref_state = NULL;
  assert_null(executor->begin(executor->self, &dispatch, &ref_state));
  assert_non_null(ref_state);
  executor->end(executor->self, ref_state);

  kernel.name = "vc_nope";
  rl_test_expect_refusal(&dispatch, RL_STATUS_UNSUPPORTED,
                         "no reference implementation for kernel vc_nope");
  dispatch = rl_test_sim_dispatch(test, "vc_fill", 2, &kernel, args);
  dispatch.workgroup_size[0] = 32;
  rl_test_expect_refusal(&dispatch, RL_STATUS_UNSUPPORTED,
                         "work-group size 32x1x1, the reference assumes "
                         "64x1x1");
  dispatch = rl_test_sim_dispatch(test, "vc_fill", 2, &kernel, args);
  dispatch.workgroup_size[1] = 2;
  rl_test_expect_refusal(&dispatch, RL_STATUS_UNSUPPORTED, "64x2x1");
  dispatch = rl_test_sim_dispatch(test, "vc_scale", 2, &kernel, args);
  args[2].size = 8;
  rl_test_expect_refusal(&dispatch, RL_STATUS_UNSUPPORTED, "argument 2");
  dispatch = rl_test_sim_dispatch(test, "vc_scale", 2, &kernel, args);
  kernel.arg_count = 3;
  rl_test_expect_refusal(&dispatch, RL_STATUS_UNSUPPORTED,
                         "3 explicit arguments");
  dispatch = rl_test_sim_dispatch(test, "vc_add", 2, &kernel, args);
  kernel.descriptor_info.float_denorm_mode_32 = 0;
  rl_test_expect_refusal(&dispatch, RL_STATUS_UNSUPPORTED,
                         "FLOAT_DENORM_MODE_32 0");
  dispatch = rl_test_sim_dispatch(test, "vc_partial_sum", 2, &kernel, args);
  dispatch.group_segment_size = 128;
  rl_test_expect_refusal(&dispatch, RL_STATUS_UNSUPPORTED,
                         "group segment of 128 bytes");
  dispatch = rl_test_sim_dispatch(test, "vc_partial_sum", 2, &kernel, args);
  dispatch.grid_size[0] = 100;
  rl_test_expect_refusal(&dispatch, RL_STATUS_UNSUPPORTED,
                         "whole work-groups");
}

// Waits for |test|'s queue to report a fault and returns it.
static rl_device_fault_t rl_test_expect_fault(rl_test_t* test) {
  rl_device_fault_t fault = {0};
  for (int poll = 0; poll < 1000 && !fault.faulted; ++poll) {
    test->device->vtable->queue_fault(test->device, &test->queue, &fault);
    if (!fault.faulted) {
      struct timespec pause = {0, 10000000};  // 10 ms, 10 s in all
      nanosleep(&pause, NULL);
    }
  }
  assert_true(fault.faulted);
  int64_t value = 0;
  assert_false(test->device->vtable->signal_wait_lt(
      test->device, test->signal.address, 1, 0, &value));
  assert_int_equal(value, 1);
  return fault;
}

// The command processor turns begin()'s refusal into a queue fault whose
// message names the reason.
static void test_wrong_block_size_faults(void** state) {
  rl_test_t* test = *state;
  rl_test_arg_t args[] = {rl_test_ptr(rl_test_address(test, 0)),
                          rl_test_f32(1.0f), rl_test_u32(64)};
  assert_false(rl_test_dispatch(test, "vc_fill", 2, 32, args, 3,
                                RL_TEST_FAULT_WAIT_NS));
  rl_device_fault_t fault = rl_test_expect_fault(test);
  if (!strstr(fault.message, "work-group size 32x1x1")) {
    fail_msg("fault message \"%s\"", fault.message);
  }
}

// A pointer past the end of its buffer: the element stores before it
// land, the first one outside faults with its address.
static void test_out_of_bounds_pointer_faults(void** state) {
  rl_test_t* test = *state;
  rl_test_poison(test);
  const uint64_t end = rl_test_address(test, 0) + RL_TEST_BUFFER_BYTES;
  rl_test_arg_t args[] = {rl_test_ptr(end - 10 * 4), rl_test_f32(2.0f),
                          rl_test_u32(64)};
  assert_false(rl_test_dispatch(test, "vc_fill", 1, 64, args, 3,
                                RL_TEST_FAULT_WAIT_NS));
  rl_device_fault_t fault = rl_test_expect_fault(test);
  assert_int_equal(fault.address, end);
  if (!strstr(fault.message, "VM fault")) {
    fail_msg("fault message \"%s\"", fault.message);
  }
  float tail[10];
  assert_null(test->device->vtable->read(test->device, end - sizeof(tail),
                                         tail, sizeof(tail)));
  for (int i = 0; i < 10; ++i) assert_true(tail[i] == 2.0f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(
          ref_vc_fill_stores_argument_bits_unchanged_including_snan,
          rl_test_setup, rl_test_teardown),
      cmocka_unit_test_setup_teardown(
          ref_vc_scale_matches_host_product_bit_for_bit, rl_test_setup,
          rl_test_teardown),
      cmocka_unit_test_setup_teardown(ref_vc_add_matches_host_sum_bit_for_bit,
                                      rl_test_setup, rl_test_teardown),
      cmocka_unit_test_setup_teardown(
          ref_vc_axpy_pos_fuses_and_rounds_pos_like_cvt_f32_u32, rl_test_setup,
          rl_test_teardown),
      cmocka_unit_test_setup_teardown(
          ref_vc_partial_sum_matches_tree_order_over_full_and_partial_chunks,
          rl_test_setup, rl_test_teardown),
      cmocka_unit_test_setup_teardown(
          ref_vc_merge_sums_partials_and_merge_of_nothing_is_zero,
          rl_test_setup, rl_test_teardown),
      cmocka_unit_test_setup_teardown(
          ref_vc_copy_u32_copies_nan_and_denormal_bits_unchanged, rl_test_setup,
          rl_test_teardown),
      cmocka_unit_test_setup_teardown(ref_begin_refuses_malformed_dispatches,
                                      rl_test_setup, rl_test_teardown),
      cmocka_unit_test_setup_teardown(test_wrong_block_size_faults,
                                      rl_test_setup, rl_test_teardown),
      cmocka_unit_test_setup_teardown(test_out_of_bounds_pointer_faults,
                                      rl_test_setup, rl_test_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
