// sim/hip_sim/hip_sim_context.c — HIP's context API over the one
// simulated device (docs/hip-runtime.md, "Contexts"). A context is a
// handle: every context, the primary one included, runs on device 0 and
// shares its memory, modules and streams, as HIP's own contexts do (a
// hipCtx_t of the real runtime names a device). Each thread has its own
// stack of current contexts; with an empty stack the current context is
// the primary one. The primary context counts its retains and keeps its
// flags; hipDevicePrimaryCtxSetFlags answers hipErrorContextAlreadyInUse
// while it is retained.
#include <stdint.h>

#include "sim/hip_sim/hip_sim_internal.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define RL_HIP_MAGIC_CONTEXT 0x43545854u
#define RL_HIP_CONTEXT_STACK 64u

struct ihipCtx_t {
  uint32_t magic;
  unsigned int flags;
};

static struct ihipCtx_t rl_primary = {RL_HIP_MAGIC_CONTEXT, 0};
static unsigned int rl_primary_retains;
// Created contexts still alive (hipCtxDestroy removes them); a handle is
// checked against this list before it is read.
static struct ihipCtx_t** rl_contexts;
static uint32_t rl_context_count;
static _Thread_local struct ihipCtx_t* rl_stack[RL_HIP_CONTEXT_STACK];
static _Thread_local uint32_t rl_depth;

// rl_hip.lock held.
static bool rl_context_live(hipCtx_t ctx) {
  if (ctx == &rl_primary) return true;
  for (uint32_t i = 0; i < rl_context_count; ++i) {
    if (rl_contexts[i] == ctx) return true;
  }
  return false;
}

RL_HIP_EXPORT hipError_t hipCtxCreate(hipCtx_t* ctx, unsigned int flags,
                                      hipDevice_t device) {
  if (!ctx) return hipErrorInvalidValue;
  if (device != 0) return hipErrorInvalidDevice;
  RL_HIP_ENTER();
  if (rl_depth == RL_HIP_CONTEXT_STACK) return rl_hip_leave(hipErrorOutOfMemory);
  struct ihipCtx_t* created = calloc(1, sizeof(*created));
  struct ihipCtx_t** grown =
      realloc(rl_contexts, (rl_context_count + 1) * sizeof(*grown));
  if (!created || !grown) {
    free(created);
    if (grown) rl_contexts = grown;
    return rl_hip_leave(hipErrorOutOfMemory);
  }
  rl_contexts = grown;
  created->magic = RL_HIP_MAGIC_CONTEXT;
  created->flags = flags;
  rl_contexts[rl_context_count++] = created;
  rl_stack[rl_depth++] = created;
  *ctx = created;
  return rl_hip_leave(hipSuccess);
}

// Waits for the device's work; removes |ctx| from the calling thread's
// stack (another thread's stack still naming it gets
// hipErrorInvalidContext from the calls that read it).
RL_HIP_EXPORT hipError_t hipCtxDestroy(hipCtx_t ctx) {
  RL_HIP_ENTER();
  if (!ctx || ctx == &rl_primary || !rl_context_live(ctx)) {
    return rl_hip_leave(hipErrorInvalidContext);
  }
  hipError_t waited = rl_hip_wait_all();
  uint32_t kept = 0;
  for (uint32_t i = 0; i < rl_depth; ++i) {
    if (rl_stack[i] != ctx) rl_stack[kept++] = rl_stack[i];
  }
  rl_depth = kept;
  for (uint32_t i = 0; i < rl_context_count; ++i) {
    if (rl_contexts[i] == ctx) rl_contexts[i] = rl_contexts[--rl_context_count];
  }
  ctx->magic = 0;
  free(ctx);
  return rl_hip_leave(waited);
}

RL_HIP_EXPORT hipError_t hipCtxPushCurrent(hipCtx_t ctx) {
  RL_HIP_ENTER();
  if (!ctx || !rl_context_live(ctx)) return rl_hip_leave(hipErrorInvalidContext);
  if (rl_depth == RL_HIP_CONTEXT_STACK) return rl_hip_leave(hipErrorOutOfMemory);
  rl_stack[rl_depth++] = ctx;
  return rl_hip_leave(hipSuccess);
}

// |ctx| may be NULL (the popped context is not reported).
RL_HIP_EXPORT hipError_t hipCtxPopCurrent(hipCtx_t* ctx) {
  RL_HIP_ENTER();
  if (rl_depth == 0) return rl_hip_leave(hipErrorInvalidContext);
  struct ihipCtx_t* top = rl_stack[--rl_depth];
  if (ctx) *ctx = top;
  return rl_hip_leave(hipSuccess);
}

// Replaces the top of the stack (pushes onto an empty one); NULL pops.
RL_HIP_EXPORT hipError_t hipCtxSetCurrent(hipCtx_t ctx) {
  RL_HIP_ENTER();
  if (!ctx) {
    if (rl_depth > 0) --rl_depth;
    return rl_hip_leave(hipSuccess);
  }
  if (!rl_context_live(ctx)) return rl_hip_leave(hipErrorInvalidContext);
  if (rl_depth == 0) ++rl_depth;
  rl_stack[rl_depth - 1] = ctx;
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipCtxGetCurrent(hipCtx_t* ctx) {
  if (!ctx) return hipErrorInvalidValue;
  RL_HIP_ENTER();
  *ctx = rl_depth > 0 ? rl_stack[rl_depth - 1] : &rl_primary;
  return rl_hip_leave(hipSuccess);
}

// The current context's device: always 0. A destroyed context left on
// this thread's stack by another thread is hipErrorInvalidContext.
RL_HIP_EXPORT hipError_t hipCtxGetDevice(hipDevice_t* device) {
  if (!device) return hipErrorInvalidValue;
  RL_HIP_ENTER();
  if (rl_depth > 0 && !rl_context_live(rl_stack[rl_depth - 1])) {
    return rl_hip_leave(hipErrorInvalidContext);
  }
  *device = 0;
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipCtxGetFlags(unsigned int* flags) {
  if (!flags) return hipErrorInvalidValue;
  RL_HIP_ENTER();
  struct ihipCtx_t* top = rl_depth > 0 ? rl_stack[rl_depth - 1] : &rl_primary;
  if (!rl_context_live(top)) return rl_hip_leave(hipErrorInvalidContext);
  *flags = top->flags;
  return rl_hip_leave(hipSuccess);
}

// The context's device is the device: hipDeviceSynchronize's wait and its
// refusal while a stream captures.
RL_HIP_EXPORT hipError_t hipCtxSynchronize(void) { return hipDeviceSynchronize(); }

RL_HIP_EXPORT hipError_t hipDevicePrimaryCtxRetain(hipCtx_t* ctx,
                                                   hipDevice_t device) {
  if (!ctx) return hipErrorInvalidValue;
  if (device != 0) return hipErrorInvalidDevice;
  RL_HIP_ENTER();
  ++rl_primary_retains;
  *ctx = &rl_primary;
  return rl_hip_leave(hipSuccess);
}

// Releasing a primary context nobody retained is hipErrorInvalidContext.
RL_HIP_EXPORT hipError_t hipDevicePrimaryCtxRelease(hipDevice_t device) {
  if (device != 0) return hipErrorInvalidDevice;
  RL_HIP_ENTER();
  if (rl_primary_retains == 0) return rl_hip_leave(hipErrorInvalidContext);
  --rl_primary_retains;
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipDevicePrimaryCtxGetState(hipDevice_t device,
                                                     unsigned int* flags,
                                                     int* active) {
  if (!flags || !active) return hipErrorInvalidValue;
  if (device != 0) return hipErrorInvalidDevice;
  RL_HIP_ENTER();
  *flags = rl_primary.flags;
  *active = rl_primary_retains > 0;
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipDevicePrimaryCtxSetFlags(hipDevice_t device,
                                                     unsigned int flags) {
  if (device != 0) return hipErrorInvalidDevice;
  RL_HIP_ENTER();
  if (rl_primary_retains > 0) return rl_hip_leave(hipErrorContextAlreadyInUse);
  rl_primary.flags = flags;
  return rl_hip_leave(hipSuccess);
}

// Waits for every stream and clears the flags; the retain count and the
// device's memory stay (as hipDeviceReset here: freeing allocations
// behind the program would turn later use into faults it did not write).
RL_HIP_EXPORT hipError_t hipDevicePrimaryCtxReset(hipDevice_t device) {
  if (device != 0) return hipErrorInvalidDevice;
  RL_HIP_ENTER();
  rl_primary.flags = 0;
  return rl_hip_leave(rl_hip_wait_all());
}
