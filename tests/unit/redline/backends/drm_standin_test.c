// The libdrm_amdgpu stand-in's own checks (tests/standins/drm/
// standin_drm_hooks.h): a correct submission of a NOP IB completes and
// records nothing (the negative control); each misuse is committed on
// purpose and must fail with -EINVAL and be recorded. The stand-in is
// loaded through redline's own drm_loader.h, exactly as the drm device
// loads it.
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <dlfcn.h>

#include "redline/backends/drm_loader.h"
#include "tests/standins/drm/standin_drm_hooks.h"

typedef struct rl_bo_s {
  amdgpu_bo_handle bo;
  amdgpu_va_handle va;
  uint64_t address;
  uint32_t* cpu;
} rl_bo_t;

typedef struct rl_drm_test_s {
  rl_drm_api_t api;
  rl_standin_drm_error_count_fn error_count;
  rl_standin_drm_error_fn error;
  rl_standin_drm_clear_errors_fn clear_errors;
  char node[64];
  int fd;
  amdgpu_device_handle dev;
  amdgpu_context_handle ctx;
  rl_bo_t ib;
  rl_bo_t data;
} rl_drm_test_t;

static rl_drm_test_t rl_t;

static void* rl_hook(const char* name) {
  void* symbol = dlsym(rl_t.api.amdgpu.handle, name);
  assert_non_null(symbol);
  return symbol;
}

static void rl_bo_make(rl_bo_t* out) {
  const rl_drm_functions_t* fn = &rl_t.api.fn;
  struct amdgpu_bo_alloc_request request = {
      .alloc_size = 4096, .phys_alignment = 4096,
      .preferred_heap = AMDGPU_GEM_DOMAIN_GTT,
      .flags = AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED};
  assert_int_equal(fn->amdgpu_bo_alloc(rl_t.dev, &request, &out->bo), 0);
  assert_int_equal(fn->amdgpu_va_range_alloc(rl_t.dev,
                                             amdgpu_gpu_va_range_general, 4096,
                                             4096, 0, &out->address, &out->va,
                                             0), 0);
  assert_int_equal(fn->amdgpu_bo_va_op(out->bo, 0, 4096, out->address, 0,
                                       AMDGPU_VA_OP_MAP), 0);
  void* cpu = NULL;
  assert_int_equal(fn->amdgpu_bo_cpu_map(out->bo, &cpu), 0);
  assert_non_null(cpu);
  // The host view is not the GPU VA (the stand-in keeps them apart).
  assert_true((uint64_t)(uintptr_t)cpu != out->address);
  out->cpu = cpu;
}

static void rl_bo_drop(rl_bo_t* bo) {
  const rl_drm_functions_t* fn = &rl_t.api.fn;
  assert_int_equal(fn->amdgpu_bo_cpu_unmap(bo->bo), 0);
  assert_int_equal(fn->amdgpu_bo_va_op(bo->bo, 0, 4096, bo->address, 0,
                                       AMDGPU_VA_OP_UNMAP), 0);
  assert_int_equal(fn->amdgpu_va_range_free(bo->va), 0);
  assert_int_equal(fn->amdgpu_bo_free(bo->bo), 0);
}

static int rl_setup(void** state) {
  (void)state;
  memset(&rl_t, 0, sizeof(rl_t));
  rl_status_t status = rl_drm_api_open(&rl_t.api, RL_STANDIN_DRM_LIBRARY);
  if (status) fprintf(stderr, "%s\n", rl_status_message(status));
  assert_null(status);
  rl_t.error_count = (rl_standin_drm_error_count_fn)rl_hook(
      "rl_standin_drm_error_count");
  rl_t.error = (rl_standin_drm_error_fn)rl_hook("rl_standin_drm_error");
  rl_t.clear_errors = (rl_standin_drm_clear_errors_fn)rl_hook(
      "rl_standin_drm_clear_errors");
  snprintf(rl_t.node, sizeof(rl_t.node), "/tmp/rl_drm_node.XXXXXX");
  rl_t.fd = mkstemp(rl_t.node);
  assert_true(rl_t.fd >= 0);
  uint32_t major = 0, minor = 0;
  assert_int_equal(rl_t.api.fn.amdgpu_device_initialize(rl_t.fd, &major,
                                                        &minor, &rl_t.dev), 0);
  assert_int_equal(rl_t.api.fn.amdgpu_cs_ctx_create(rl_t.dev, &rl_t.ctx), 0);
  rl_bo_make(&rl_t.ib);
  rl_bo_make(&rl_t.data);
  // A 16-dword NOP IB (libdrm basic_tests.c compute NOP): PACKET3(NOP, 14).
  rl_t.ib.cpu[0] = 0xC0001000u | (14u << 16);
  memset(rl_t.ib.cpu + 1, 0, 15 * 4);
  rl_t.clear_errors();
  return 0;
}

static int rl_teardown(void** state) {
  (void)state;
  rl_bo_drop(&rl_t.ib);
  rl_bo_drop(&rl_t.data);
  assert_int_equal(rl_t.error_count(), 0);
  assert_int_equal(rl_t.api.fn.amdgpu_device_deinitialize(rl_t.dev), 0);
  close(rl_t.fd);
  unlink(rl_t.node);
  rl_drm_api_close(&rl_t.api);
  return 0;
}

// Submits the NOP IB with a list of |count| |bos|; returns the result.
static int rl_submit(amdgpu_context_handle ctx, amdgpu_bo_handle* bos,
                     uint32_t count, uint64_t* out_seq) {
  const rl_drm_functions_t* fn = &rl_t.api.fn;
  amdgpu_bo_list_handle list = NULL;
  assert_int_equal(fn->amdgpu_bo_list_create(rl_t.dev, count, bos, NULL,
                                             &list), 0);
  struct amdgpu_cs_ib_info ib = {.ib_mc_address = rl_t.ib.address, .size = 16};
  struct amdgpu_cs_request request = {.ip_type = AMDGPU_HW_IP_COMPUTE,
                                      .resources = list, .number_of_ibs = 1,
                                      .ibs = &ib};
  int rc = fn->amdgpu_cs_submit(ctx, 0, &request, 1);
  if (out_seq) *out_seq = request.seq_no;
  assert_int_equal(fn->amdgpu_bo_list_destroy(list), 0);
  return rc;
}

static int rl_wait(amdgpu_context_handle ctx, uint64_t seq,
                   uint32_t* out_expired) {
  struct amdgpu_cs_fence fence = {.context = ctx,
                                  .ip_type = AMDGPU_HW_IP_COMPUTE,
                                  .fence = seq};
  return rl_t.api.fn.amdgpu_cs_query_fence_status(&fence, 1000000000ull, 0,
                                                  out_expired);
}

static void rl_expect_error(const char* needle) {
  assert_int_equal(rl_t.error_count(), 1);
  if (!strstr(rl_t.error(0), needle)) {
    fprintf(stderr, "error '%s' lacks '%s'\n", rl_t.error(0), needle);
    fail();
  }
  rl_t.clear_errors();
}

// The negative control: a correct submission completes, nothing recorded.
static void rl_correct_submission(void** state) {
  (void)state;
  amdgpu_bo_handle bos[] = {rl_t.ib.bo, rl_t.data.bo};
  uint64_t seq = 0;
  assert_int_equal(rl_submit(rl_t.ctx, bos, 2, &seq), 0);
  assert_true(seq > 0);
  uint32_t expired = 0;
  assert_int_equal(rl_wait(rl_t.ctx, seq, &expired), 0);
  assert_int_equal(expired, 1);
  // Waiting again on a signalled fence is fine.
  assert_int_equal(rl_wait(rl_t.ctx, seq, &expired), 0);
  assert_int_equal(expired, 1);
  assert_int_equal(rl_t.error_count(), 0);
}

static void rl_ib_not_in_list(void** state) {
  (void)state;
  amdgpu_bo_handle bos[] = {rl_t.data.bo};
  assert_int_equal(rl_submit(rl_t.ctx, bos, 1, NULL), -EINVAL);
  rl_expect_error("is not inside a BO of the submission's list");
}

static void rl_destroyed_context(void** state) {
  (void)state;
  amdgpu_context_handle ctx = NULL;
  assert_int_equal(rl_t.api.fn.amdgpu_cs_ctx_create(rl_t.dev, &ctx), 0);
  amdgpu_bo_handle bos[] = {rl_t.ib.bo};
  uint64_t seq = 0;
  assert_int_equal(rl_submit(ctx, bos, 1, &seq), 0);
  uint32_t expired = 0;
  assert_int_equal(rl_wait(ctx, seq, &expired), 0);
  assert_int_equal(rl_t.api.fn.amdgpu_cs_ctx_free(ctx), 0);
  assert_int_equal(rl_t.error_count(), 0);
  assert_int_equal(rl_submit(ctx, bos, 1, NULL), -EINVAL);
  rl_expect_error("is not live (destroyed?)");
  assert_int_equal(rl_wait(ctx, seq, &expired), -EINVAL);
  rl_expect_error("is not live");
}

static void rl_unknown_fence(void** state) {
  (void)state;
  uint32_t expired = 7;
  assert_int_equal(rl_wait(rl_t.ctx, 999, &expired), -EINVAL);
  assert_int_equal(expired, 0);
  rl_expect_error("fence 999 was never submitted");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rl_correct_submission),
      cmocka_unit_test(rl_ib_not_in_list),
      cmocka_unit_test(rl_destroyed_context),
      cmocka_unit_test(rl_unknown_fence),
  };
  return cmocka_run_group_tests(tests, rl_setup, rl_teardown);
}
