// capture/interposer/interposer_forward.c — the funnel device and launch
// forwarding (capture/interposer/interposer_internal.h).
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/recording/hip_ext_abi.h"
#include "capture/interposer/interposer_internal.h"
#include "base/array.h"
#include "base/number.h"
#include "redline/capture_file.h"
#include "redline/offload_bundle.h"

//===----------------------------------------------------------------------===//
// The funnel's device: hands back what the runtime already returned and
// forwards launches with the funnel's exact kernarg bytes.
//===----------------------------------------------------------------------===//

rl_status_t rl_ip_load(void* self, const void* bytes, size_t size,
                       uint64_t* out_handle) {
  rl_interposer_t* ip = self;
  (void)bytes, (void)size;
  *out_handle = ip->pending_handle;
  return RL_OK;
}

rl_status_t rl_ip_allocate(void* self, uint64_t size, uint64_t alignment,
                           uint64_t* out_address) {
  rl_interposer_t* ip = self;
  (void)size, (void)alignment;
  *out_address = ip->pending_address;
  return RL_OK;
}

rl_status_t rl_ip_write(void* self, uint64_t address, const void* data,
                        uint64_t size) {
  rl_interposer_t* ip = self;
  if (ip->adopting) return RL_OK;  // host memory keeps the program's bytes
  RL_IP_REAL(hipMemcpy);
  hipError_t error = real_hipMemcpy((void*)(uintptr_t)address, data, size,
                                    hipMemcpyHostToDevice);
  return error ? RL_STATUS(RL_STATUS_UNAVAILABLE, "hipMemcpy: error %d",
                           (int)error)
               : RL_OK;
}

rl_status_t rl_ip_read(void* self, uint64_t address, void* data,
                       uint64_t size) {
  rl_interposer_t* ip = self;
  if (rl_ip_host_read(ip, address, data, size)) return RL_OK;
  RL_IP_REAL(hipMemcpy);
  hipError_t error = real_hipMemcpy(data, (const void*)(uintptr_t)address, size,
                                    hipMemcpyDeviceToHost);
  return error ? RL_STATUS(RL_STATUS_UNAVAILABLE, "hipMemcpy: error %d",
                           (int)error)
               : RL_OK;
}

// HIP 6's module form of a cooperative launch (Debian's HIP 5.2 headers
// do not declare it; its library does not export it, and then the call is
// hipErrorNotSupported).
hipError_t hipModuleLaunchCooperativeKernel(
    hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
    unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
    unsigned int blockDimZ, unsigned int sharedMemBytes, hipStream_t stream,
    void** kernelParams);

// One pointer per explicit argument into the funnel's kernarg at the
// metadata offsets (the kernelParams form) in |params|.
static void rl_ip_kernarg_params(const rl_code_object_kernel_t* info,
                                 const rl_funnel_dispatch_t* dispatch,
                                 void* params[64]) {
  uint32_t count = 0;
  for (uint32_t a = 0; a < info->arg_count && count < 64; ++a) {
    if (info->args[a].kind == RL_ARG_KIND_HIDDEN) continue;
    params[count++] = (void*)(dispatch->kernarg + info->args[a].offset);
  }
}

// Forwards a cooperative module launch with the funnel's kernarg.
static hipError_t rl_ip_launch_module_cooperative(
    rl_interposer_t* ip, const rl_funnel_dispatch_t* dispatch) {
  RL_IP_REAL(hipModuleLaunchCooperativeKernel);
  if (!real_hipModuleLaunchCooperativeKernel) return hipErrorNotSupported;
  void* params[64];
  rl_ip_kernarg_params(ip->pending_info, dispatch, params);
  return real_hipModuleLaunchCooperativeKernel(
      ip->pending_function, dispatch->grid[0], dispatch->grid[1],
      dispatch->grid[2], dispatch->block[0], dispatch->block[1],
      dispatch->block[2], dispatch->dynamic_lds, ip->pending_stream, params);
}

// Forwards a host-stub launch: hipLaunchKernel takes one pointer per
// explicit argument, here into the funnel's kernarg at the metadata offsets.
static hipError_t rl_ip_launch_host(rl_interposer_t* ip,
                                    const rl_funnel_dispatch_t* dispatch) {
  RL_IP_REAL(hipLaunchKernel);
  if (!real_hipLaunchKernel) return hipErrorNotSupported;
  void* params[64];
  rl_ip_kernarg_params(ip->pending_info, dispatch, params);
  const dim3 grid = {dispatch->grid[0], dispatch->grid[1], dispatch->grid[2]};
  const dim3 block = {dispatch->block[0], dispatch->block[1],
                      dispatch->block[2]};
  if (ip->pending_cooperative) {
    RL_IP_REAL(hipLaunchCooperativeKernel);
    if (!real_hipLaunchCooperativeKernel) return hipErrorNotSupported;
    return real_hipLaunchCooperativeKernel(
        ip->pending_host, grid, block, params, dispatch->dynamic_lds,
        ip->pending_stream);
  }
  return real_hipLaunchKernel(ip->pending_host, grid, block, params,
                              dispatch->dynamic_lds, ip->pending_stream);
}

rl_status_t rl_ip_launch(void* self, const rl_funnel_dispatch_t* dispatch) {
  rl_interposer_t* ip = self;
  RL_IP_REAL(hipModuleLaunchKernel);
  size_t size = dispatch->kernarg_size;
  void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, (void*)dispatch->kernarg,
                   HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END};
  ip->launched = true;
  if (ip->record_only) {  // the program's own call does the work
    ip->launch_result = hipSuccess;
    return RL_OK;
  }
  if (ip->pending_host) {
    ip->launch_result = rl_ip_launch_host(ip, dispatch);
  } else if (ip->pending_cooperative) {
    ip->launch_result = rl_ip_launch_module_cooperative(ip, dispatch);
  } else {
    ip->launch_result = real_hipModuleLaunchKernel(
        ip->pending_function, dispatch->grid[0], dispatch->grid[1],
        dispatch->grid[2], dispatch->block[0], dispatch->block[1],
        dispatch->block[2], dispatch->dynamic_lds, ip->pending_stream, NULL,
        extra);
  }
  return ip->launch_result
             ? RL_STATUS(RL_STATUS_UNAVAILABLE, "%s: error %d",
                         ip->pending_cooperative
                             ? (ip->pending_host
                                    ? "hipLaunchCooperativeKernel"
                                    : "hipModuleLaunchCooperativeKernel")
                         : ip->pending_host ? "hipLaunchKernel"
                                            : "hipModuleLaunchKernel",
                         (int)ip->launch_result)
             : RL_OK;
}

// Records one launch of |f| with typed |args|; |record_only| when the
// runtime runs it some other way (a graph node), else the funnel forwards
// it with its exact kernarg bytes. Returns the runtime's result of the
// forwarded launch; *|out_recorded| says whether the funnel took it.
hipError_t rl_ip_record_launch(rl_interposer_t* ip, const rl_ip_function_t* f,
                               hipFunction_t function, const uint32_t grid[3],
                               const uint32_t block[3], uint32_t lds,
                               hipStream_t stream, const rl_funnel_arg_t* args,
                               uint32_t arg_count, bool record_only,
                               bool* out_recorded) {
  *out_recorded = false;
  rl_ip_host_uploads(ip);  // before the pending_* state: they launch too
  ip->pending_function = function;
  ip->pending_host = f->host;
  ip->pending_info = f->info;
  ip->pending_stream = stream;
  ip->launched = false;
  ip->launch_result = hipSuccess;
  ip->record_only = record_only;
  rl_ip_record_variables(ip);
  if (!record_only) rl_ip_observe_start(ip);
  const rl_funnel_launch_options_t options = {
      .cooperative = ip->pending_cooperative};
  rl_status_t status = rl_funnel_launch(ip->funnel, f->kernel, grid, block, lds,
                                        args, arg_count, &options, NULL);
  ip->record_only = false;
  if (!status) {
    ++ip->recorded;
    *out_recorded = true;
    rl_ip_issued_keep(ip, rl_funnel_capture(ip->funnel)->launch_count - 1);
    if (!record_only && ip->launch_result == hipSuccess) {
      rl_ip_observe_forwarded(
          ip, rl_funnel_capture(ip->funnel)->launch_count - 1);
    }
    if (!record_only && !ip->launch_result) rl_ip_host_settle(ip);
    return ip->launch_result;
  }
  if (ip->launched && !record_only) {
    // The runtime refused it: the program sees that, and the capture
    // cannot stand for the program's run.
    rl_ip_note(ip, 0, "the runtime failed the launch of %s (%s)", f->info->name,
               rl_status_message(status));
    rl_status_free(status);
    *out_recorded = true;  // forwarded once already
    return ip->launch_result;
  }
  char what[160];
  snprintf(what, sizeof(what), "launch of %s refused by the funnel",
           f->info->name);
  rl_ip_fail(status, what);
  rl_ip_note(ip, 1, "%s", what);
  return hipSuccess;
}

// Forwards one launch unrecorded, cooperatively when
// ip->pending_cooperative says so.
static hipError_t rl_ip_forward_launch(rl_interposer_t* ip,
                                       hipFunction_t function,
                                       const void* host,
                                       const uint32_t grid[3],
                                       const uint32_t block[3], uint32_t lds,
                                       hipStream_t stream, void** params,
                                       void** extra) {
  if (host) {
    const dim3 g3 = {grid[0], grid[1], grid[2]};
    const dim3 b3 = {block[0], block[1], block[2]};
    if (ip->pending_cooperative) {
      RL_IP_REAL(hipLaunchCooperativeKernel);
      if (!real_hipLaunchCooperativeKernel) return hipErrorNotSupported;
      return real_hipLaunchCooperativeKernel(host, g3, b3, params, lds,
                                             stream);
    }
    RL_IP_REAL(hipLaunchKernel);
    return real_hipLaunchKernel(host, g3, b3, params, lds, stream);
  }
  if (ip->pending_cooperative) {
    RL_IP_REAL(hipModuleLaunchCooperativeKernel);
    if (!real_hipModuleLaunchCooperativeKernel) return hipErrorNotSupported;
    return real_hipModuleLaunchCooperativeKernel(
        function, grid[0], grid[1], grid[2], block[0], block[1], block[2],
        lds, stream, params);
  }
  RL_IP_REAL(hipModuleLaunchKernel);
  return real_hipModuleLaunchKernel(function, grid[0], grid[1], grid[2],
                                    block[0], block[1], block[2], lds, stream,
                                    params, extra);
}

// Records and issues one launch of the module function |function|, or
// (|host| set) of the registered host stub |host|; lock held.
static hipError_t rl_ip_module_launch(rl_interposer_t* ip,
                                      hipFunction_t function, const void* host,
                                      const uint32_t grid[3],
                                      const uint32_t block[3], uint32_t lds,
                                      hipStream_t stream, void** params,
                                      void** extra) {
  RL_IP_REAL(hipModuleLaunchKernel);
  RL_IP_REAL(hipLaunchKernel);
  if (host ? !real_hipLaunchKernel : !real_hipModuleLaunchKernel) {
    return hipErrorNotSupported;
  }
  rl_ip_function_t* f = rl_ip_function_find(ip, function, host);
  rl_ip_graph_t* g = ip->funnel ? rl_ip_graph_capturing(ip, stream) : NULL;
  bool record = false;
  if (g) {  // a node of the graph: recorded when the graph is launched
    if (!f) {
      char why[1024];
      rl_ip_unseen_describe(ip, function, host, why, sizeof(why));
      rl_ip_graph_break(g, why);
    }
    rl_ip_graph_kernel(ip, g, f, grid, block, lds, params, extra);
  } else {
    record = rl_ip_window_launch(ip, f, block, lds);
  }
  if (record && !f) {
    rl_ip_note_unseen(ip, function, host);
    record = false;
  }
  rl_funnel_arg_t args[64];
  uint32_t arg_count = 0;
  size_t buffer_size = 0;
  const uint8_t* buffer = rl_ip_extra_buffer(extra, &buffer_size);
  char why[512];
  if (record && !rl_ip_type_args(ip, f->info, params, buffer, buffer_size, args,
                                 &arg_count, why, sizeof(why))) {
    rl_ip_note(ip, 1, "%s", why);
    record = false;
  }
  if (record) {
    rl_ip_issued_take(ip, f->info, params, buffer, buffer_size);
    bool forwarded = false;
    hipError_t result =
        rl_ip_record_launch(ip, f, function, grid, block, lds, stream, args,
                            arg_count, false, &forwarded);
    if (forwarded) return result;
  }
  hipError_t result =
      rl_ip_forward_launch(ip, function, host, grid, block, lds, stream,
                           params, extra);
  if (g && result != hipSuccess) {
    // The runtime did not add the node the graph model now holds.
    char failed[96];
    snprintf(failed, sizeof(failed),
             "a launch on the capturing stream failed (error %d)",
             (int)result);
    rl_ip_graph_break(g, failed);
  }
  return result;
}

RL_IP_EXPORT hipError_t hipLaunchKernel(const void* function, dim3 grid,
                                        dim3 block, void** args, size_t shared,
                                        hipStream_t stream) {
  RL_IP_ENTER();
  if (!rl_ip_on || !args) {
    RL_IP_REAL(hipLaunchKernel);
    if (!real_hipLaunchKernel) return rl_ip_leave(hipErrorNotSupported);
    return rl_ip_leave(
        real_hipLaunchKernel(function, grid, block, args, shared, stream));
  }
  const uint32_t g[3] = {grid.x, grid.y, grid.z};
  const uint32_t b[3] = {block.x, block.y, block.z};
  return rl_ip_leave(rl_ip_module_launch(ip, NULL, function, g, b,
                                         (uint32_t)shared, stream, args, NULL));
}

// A cooperative launch |api| forwarded unrecorded (no arguments): on a
// capturing stream its node's arguments are unknown, so the graph's
// launches are not recorded. |on|: the caller's rl_ip_on.
static hipError_t rl_ip_cooperative_unrecorded(rl_interposer_t* ip, bool on,
                                               rl_ip_graph_t* capturing,
                                               const char* api,
                                               hipError_t result) {
  if (capturing && result == hipSuccess) {
    char reason[160];
    snprintf(reason, sizeof(reason),
             "%s without arguments on a capturing stream is not recorded "
             "(a cooperative kernel node)", api);
    rl_ip_graph_break(capturing, reason);
  }
  if (on && result == hipSuccess && rl_ip_in_window(ip)) {
    rl_ip_note(ip, 1, "%s without arguments is not recorded", api);
  }
  return rl_ip_leave(result);
}

// A cooperative launch recorded (through rl_ip_module_launch, marked
// cooperative) and forwarded; on a capturing stream, a cooperative kernel
// node of the graph (rl_ip_graph_kernel), recorded at each hipGraphLaunch.
static hipError_t rl_ip_cooperative_launch(rl_interposer_t* ip,
                                           hipFunction_t function,
                                           const void* host,
                                           const uint32_t grid[3],
                                           const uint32_t block[3],
                                           uint32_t lds, hipStream_t stream,
                                           void** args) {
  ip->pending_cooperative = true;
  hipError_t result = rl_ip_module_launch(ip, function, host, grid, block, lds,
                                          stream, args, NULL);
  ip->pending_cooperative = false;
  return rl_ip_leave(result);
}

// hipLaunchCooperativeKernel: recorded like hipLaunchKernel, the launch
// marked cooperative (the capture's COOPERATIVE section: a replay keeps
// all its work-groups resident, docs/capture-format.md) and forwarded with
// hipLaunchCooperativeKernel, so the runtime's own refusals (a grid larger
// than can be resident) reach the program unchanged.
RL_IP_EXPORT hipError_t hipLaunchCooperativeKernel(const void* f, dim3 grid,
                                                   dim3 block, void** args,
                                                   unsigned int lds,
                                                   hipStream_t stream) {
  RL_IP_ENTER();
  RL_IP_REAL(hipLaunchCooperativeKernel);
  if (!real_hipLaunchCooperativeKernel) {
    return rl_ip_leave(hipErrorNotSupported);
  }
  if (!rl_ip_on || !args) {
    rl_ip_graph_t* capturing =
        rl_ip_on && ip->funnel ? rl_ip_graph_capturing(ip, stream) : NULL;
    return rl_ip_cooperative_unrecorded(
        ip, rl_ip_on, capturing, "hipLaunchCooperativeKernel",
        real_hipLaunchCooperativeKernel(f, grid, block, args, lds, stream));
  }
  const uint32_t g[3] = {grid.x, grid.y, grid.z};
  const uint32_t b[3] = {block.x, block.y, block.z};
  return rl_ip_cooperative_launch(ip, NULL, f, g, b, lds, stream, args);
}

// hipModuleLaunchCooperativeKernel: recorded like hipModuleLaunchKernel's
// kernelParams form and marked cooperative, as hipLaunchCooperativeKernel
// above; forwarded with hipModuleLaunchCooperativeKernel.
RL_IP_EXPORT hipError_t hipModuleLaunchCooperativeKernel(
    hipFunction_t f, unsigned int gx, unsigned int gy, unsigned int gz,
    unsigned int bx, unsigned int by, unsigned int bz, unsigned int lds,
    hipStream_t stream, void** args) {
  RL_IP_ENTER();
  RL_IP_REAL(hipModuleLaunchCooperativeKernel);
  if (!real_hipModuleLaunchCooperativeKernel) {
    return rl_ip_leave(hipErrorNotSupported);
  }
  if (!rl_ip_on || !args) {
    rl_ip_graph_t* g =
        rl_ip_on && ip->funnel ? rl_ip_graph_capturing(ip, stream) : NULL;
    return rl_ip_cooperative_unrecorded(
        ip, rl_ip_on, g, "hipModuleLaunchCooperativeKernel",
        real_hipModuleLaunchCooperativeKernel(f, gx, gy, gz, bx, by, bz, lds,
                                              stream, args));
  }
  const uint32_t grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
  return rl_ip_cooperative_launch(ip, f, NULL, grid, block, lds, stream, args);
}

RL_IP_EXPORT hipError_t hipModuleLaunchKernel(
    hipFunction_t f, unsigned int gx, unsigned int gy, unsigned int gz,
    unsigned int bx, unsigned int by, unsigned int bz, unsigned int lds,
    hipStream_t stream, void** kernelParams, void** extra) {
  RL_IP_ENTER();
  if (!rl_ip_on) {
    RL_IP_REAL(hipModuleLaunchKernel);
    if (!real_hipModuleLaunchKernel) return rl_ip_leave(hipErrorNotSupported);
    return rl_ip_leave(real_hipModuleLaunchKernel(
        f, gx, gy, gz, bx, by, bz, lds, stream, kernelParams, extra));
  }
  const uint32_t grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
  return rl_ip_leave(rl_ip_module_launch(ip, f, NULL, grid, block, lds, stream,
                                         kernelParams, extra));
}

// hipExtModuleLaunchKernel (declared in capture/recording/hip_ext_abi.h): global
// sizes in work-items.
RL_IP_EXPORT hipError_t
hipExtModuleLaunchKernel(hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz,
                         uint32_t lx, uint32_t ly, uint32_t lz, size_t lds,
                         hipStream_t stream, void** kernelParams, void** extra,
                         hipEvent_t start, hipEvent_t stop, uint32_t flags) {
  typedef hipError_t ext_fn(hipFunction_t, uint32_t, uint32_t, uint32_t,
                            uint32_t, uint32_t, uint32_t, size_t, hipStream_t,
                            void**, void**, hipEvent_t, hipEvent_t, uint32_t);
  RL_IP_ENTER();
  bool whole = lx && ly && lz && gx % lx == 0 && gy % ly == 0 && gz % lz == 0;
  if (rl_ip_on && whole && !start && !stop && flags == 0) {
    const uint32_t grid[3] = {gx / lx, gy / ly, gz / lz};
    const uint32_t block[3] = {lx, ly, lz};
    return rl_ip_leave(rl_ip_module_launch(
        ip, f, NULL, grid, block, (uint32_t)lds, stream, kernelParams, extra));
  }
  if (rl_ip_on && ip->window_open && !ip->window_closed) {
    rl_ip_note(ip, 1,
               "hipExtModuleLaunchKernel with a partial work-group, "
               "events or flags is not recorded");
  }
  ext_fn* real = (ext_fn*)rl_ip_real(ip, "hipExtModuleLaunchKernel");
  if (!real) return rl_ip_leave(hipErrorNotSupported);
  return rl_ip_leave(real(f, gx, gy, gz, lx, ly, lz, lds, stream, kernelParams,
                          extra, start, stop, flags));
}

// The mangled C++ names of HIP 5's hip_ext.h, forwarding to the above.
RL_HIP_EXT_ABI_FORWARDERS(RL_IP_EXPORT)
