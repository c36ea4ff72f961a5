// The eager arm (shadow/shadow.h): the reference. Each launch is bound with
// rl_launch_bind() at the window's values and the arm's buffer addresses,
// then issued on its own (one packet, doorbell, wait), like the original
// program issued it.
#include <stdlib.h>

#include "shadow/shadow_arm.h"
#include "shadow/shadow_direct.h"

typedef struct rl_shadow_eager_s {
  rl_shadow_arm_t arm;  // first: the arm is the object
  rl_shadow_direct_t direct;
} rl_shadow_eager_t;

static rl_status_t rl_shadow_eager_step(rl_shadow_arm_t* arm,
                                        const int64_t* values) {
  rl_shadow_eager_t* eager = (rl_shadow_eager_t*)arm;
  return rl_shadow_direct_step(&eager->direct, values);
}

static rl_status_t rl_shadow_eager_read_region(rl_shadow_arm_t* arm,
                                               uint32_t region, void* out_data,
                                               uint64_t size) {
  rl_shadow_eager_t* eager = (rl_shadow_eager_t*)arm;
  return rl_shadow_direct_read_region(&eager->direct, region, out_data, size);
}

static rl_status_t rl_shadow_eager_buffer_address(const rl_shadow_arm_t* arm,
                                                  uint32_t buffer,
                                                  uint64_t* out_address) {
  const rl_shadow_eager_t* eager = (const rl_shadow_eager_t*)arm;
  *out_address = eager->direct.addresses[buffer];
  return RL_OK;
}

static void rl_shadow_eager_proof(const rl_shadow_arm_t* arm,
                                  rl_shadow_proof_t* out_proof) {
  const rl_shadow_eager_t* eager = (const rl_shadow_eager_t*)arm;
  rl_shadow_direct_proof(&eager->direct, arm->kind, arm->steps, out_proof);
}

static bool rl_shadow_eager_last_host_ns(const rl_shadow_arm_t* arm,
                                         uint64_t* out_ns) {
  (void)arm;
  *out_ns = 0;
  return false;
}

static void rl_shadow_eager_destroy(rl_shadow_arm_t* arm) {
  rl_shadow_eager_t* eager = (rl_shadow_eager_t*)arm;
  rl_shadow_direct_deinit(&eager->direct);
  free(eager);
}

static const rl_shadow_arm_vtable_t rl_shadow_eager_vtable = {
    .step = rl_shadow_eager_step,
    .read_region = rl_shadow_eager_read_region,
    .buffer_address = rl_shadow_eager_buffer_address,
    .proof = rl_shadow_eager_proof,
    .last_host_ns = rl_shadow_eager_last_host_ns,
    .destroy = rl_shadow_eager_destroy,
};

rl_status_t rl_shadow_arm_eager_create(rl_shadow_arm_t* common,
                                       rl_shadow_arm_t** out_arm) {
  rl_shadow_eager_t* eager = calloc(1, sizeof(*eager));
  if (!eager) return rl_status_out_of_memory();
  eager->arm = *common;
  eager->arm.vtable = &rl_shadow_eager_vtable;
  rl_status_t status =
      rl_shadow_direct_init(&eager->direct, common->device, common->capture,
                            common->limits.wait_timeout_ns);
  if (status) {
    free(eager);
    return status;
  }
  *out_arm = &eager->arm;
  return RL_OK;
}
