// sim/hip_sim/hip_sim_copy.c — the copy rules: what each pointer of a
// copy or memset is, when the source is read and when the call returns
// (hip_sim.h "Copies"). The rules are the CUDA Runtime API's "API
// synchronization behavior", which HIP follows
// (https://docs.nvidia.com/cuda/cuda-runtime-api/api-sync-behavior.html):
//   - an asynchronous copy from pageable host memory to device memory reads
//     its source before the call returns (the runtime stages it);
//   - a copy from device memory to pageable host memory has completed when
//     the call returns, asynchronous or not;
//   - a copy from host memory to host memory is synchronous;
//   - the other asynchronous copies and memsets (device, pinned and
//     registered memory) run in stream order after the call returns.
// Pointers are resolved when the operation is queued, so the worker runs a
// copy from addresses alone.
#include "sim/hip_sim/hip_sim_internal.h"

typedef enum rl_hip_memory_class_e {
  RL_HIP_MEMORY_PAGEABLE = 0,    // plain host memory
  RL_HIP_MEMORY_PINNED = 1,      // host-visible: hipHostMalloc, managed
  RL_HIP_MEMORY_DEVICE = 2,      // hipMalloc, code object variables
  RL_HIP_MEMORY_REGISTERED = 3,  // host memory after hipHostRegister
} rl_hip_memory_class_t;

// Resolves |pointer| for |size| bytes into its class and the address the
// worker uses (the device address of device and pinned memory, the pointer
// itself for pageable memory). False with an error recorded: a range that
// starts in an allocation and runs past it, or device memory required
// (|must_be_device|) and not found.
static bool rl_hip_copy_resolve(const void* pointer, uint64_t size,
                                bool must_be_device, const char* call,
                                rl_hip_memory_class_t* out_class,
                                uint64_t* out_address) {
  uint64_t value = (uint64_t)(uintptr_t)pointer;
  rl_hip_allocation_t* a = rl_hip_find(value);
  *out_class = RL_HIP_MEMORY_PAGEABLE;
  *out_address = value;
  if (!a && value >= RL_SIM_VA_BASE && value < RL_SIM_VA_END &&
      size <= RL_SIM_VA_END - value) {
    // Device memory the program did not allocate: a loaded code object's
    // variables (the simulator bounds-checks the access).
    *out_class = RL_HIP_MEMORY_DEVICE;
    return true;
  }
  if (!a) {
    if (!must_be_device) {
      if (rl_hip_registered(value, size)) *out_class = RL_HIP_MEMORY_REGISTERED;
      return true;
    }
  } else {
    uint64_t device = rl_hip_device_address(pointer);
    if (size <= a->size - (device - a->address)) {
      *out_class = a->host ? RL_HIP_MEMORY_PINNED : RL_HIP_MEMORY_DEVICE;
      *out_address = device;
      return true;
    }
  }
  rl_hip_error("%s: device range [0x%llx, +%llu) is outside every live "
               "allocation", call, (unsigned long long)value,
               (unsigned long long)size);
  return false;
}

// Resolves both sides of |op| into its address fields.
static hipError_t rl_hip_copy_classify(rl_hip_op_t* op,
                                       rl_hip_memory_class_t* out_dst,
                                       rl_hip_memory_class_t* out_src) {
  *out_src = RL_HIP_MEMORY_PAGEABLE;
  if (op->kind == RL_HIP_OP_SET) {
    if (!rl_hip_copy_resolve(op->dst, op->size, true, "hipMemset", out_dst,
                             &op->dst_address)) {
      return hipErrorInvalidValue;
    }
    op->dst_device = true;
    return hipSuccess;
  }
  hipMemcpyKind kind = (hipMemcpyKind)op->value;
  bool need_dst =
      kind == hipMemcpyHostToDevice || kind == hipMemcpyDeviceToDevice;
  bool need_src =
      kind == hipMemcpyDeviceToHost || kind == hipMemcpyDeviceToDevice;
  if (!rl_hip_copy_resolve(op->dst, op->size, need_dst, "hipMemcpy", out_dst,
                           &op->dst_address) ||
      !rl_hip_copy_resolve(op->src, op->size, need_src, "hipMemcpy", out_src,
                           &op->src_address)) {
    return hipErrorInvalidValue;
  }
  // The worker reaches pinned memory through its device address, pageable
  // and registered memory through the host pointer.
  op->dst_device =
      *out_dst == RL_HIP_MEMORY_PINNED || *out_dst == RL_HIP_MEMORY_DEVICE;
  op->src_device =
      *out_src == RL_HIP_MEMORY_PINNED || *out_src == RL_HIP_MEMORY_DEVICE;
  return hipSuccess;
}

hipError_t rl_hip_copy_check(const rl_hip_op_t* op) {
  rl_hip_op_t copy = *op;
  rl_hip_memory_class_t dst, src;
  return rl_hip_copy_classify(&copy, &dst, &src);
}

hipError_t rl_hip_copy_prepare(rl_hip_op_t* op, bool sync, bool* out_wait) {
  *out_wait = sync;
  rl_hip_memory_class_t dst, src;
  hipError_t error = rl_hip_copy_classify(op, &dst, &src);
  if (error || op->kind == RL_HIP_OP_SET) return error;
  bool dst_host = dst != RL_HIP_MEMORY_DEVICE;
  bool src_host = src != RL_HIP_MEMORY_DEVICE;
  if ((dst_host && src_host) || dst == RL_HIP_MEMORY_PAGEABLE) {
    *out_wait = true;  // host to host, or into pageable memory
  }
  if (src == RL_HIP_MEMORY_PAGEABLE && !*out_wait) {
    op->staged = malloc(op->size);  // read the source now
    if (!op->staged) return hipErrorOutOfMemory;
    memcpy(op->staged, op->src, op->size);
  }
  return hipSuccess;
}

hipError_t rl_hip_copy_run(const rl_hip_op_t* op, char* message,
                           size_t message_size) {
  const rl_device_vtable_t* vt = rl_hip.sim->vtable;
  rl_status_t status = RL_OK;
  void* dst = (void*)(uintptr_t)op->dst_address;
  const void* src =
      op->staged ? op->staged : (const void*)(uintptr_t)op->src_address;
  if (op->kind == RL_HIP_OP_SET) {
    // One pattern chunk written over and over: the host holds 1 MiB
    // whatever the size (a multiple of the value size, so the pattern
    // stays in phase).
    const size_t chunk = op->size < (1u << 20) ? op->size : (1u << 20);
    uint8_t* bytes = malloc(chunk ? chunk : 1);
    if (!bytes) return hipErrorOutOfMemory;
    for (size_t i = 0; i < chunk; i += op->value_size) {
      memcpy(bytes + i, &op->value, op->value_size);
    }
    for (size_t done = 0; !status && done < op->size; done += chunk) {
      const size_t n = op->size - done < chunk ? op->size - done : chunk;
      status = vt->write(rl_hip.sim, op->dst_address + done, bytes, n);
    }
    free(bytes);
  } else if (op->dst_device && op->src_device) {
    void* bounce = malloc(op->size);
    if (!bounce) return hipErrorOutOfMemory;
    status = vt->read(rl_hip.sim, op->src_address, bounce, op->size);
    if (!status) status = vt->write(rl_hip.sim, op->dst_address, bounce,
                                    op->size);
    free(bounce);
  } else if (op->dst_device) {
    status = vt->write(rl_hip.sim, op->dst_address, src, op->size);
  } else if (op->src_device) {
    status = vt->read(rl_hip.sim, op->src_address, dst, op->size);
  } else {
    memmove(dst, src, op->size);
  }
  if (!status) return hipSuccess;
  snprintf(message, message_size, "%s: %s",
           op->kind == RL_HIP_OP_SET ? "hipMemset" : "hipMemcpy",
           rl_status_message(status));
  rl_status_free(status);
  return hipErrorInvalidValue;
}
