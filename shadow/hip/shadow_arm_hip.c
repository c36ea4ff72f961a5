// The HIP arms (shadow/shadow.h, shadow/hip/shadow_hip.h): hip and
// hipgraph, the capture's launches issued through the HIP runtime
// (redline/backends/hip_loader.h) instead of a redline device. Both share
// one state: the capture's code objects
// loaded with hipModuleLoadData, one hipMalloc per capture buffer filled
// from its initial contents (a code object variable buffer is the variable
// in the arm's module, hipModuleGetGlobal, filled the same way), one stream, and a kernarg slab holding every
// launch's bytes of the current step (rl_launch_bind at the window's values
// with the HIP allocations as buffer addresses).
//
//   hip       each launch by hipModuleLaunchKernel (`extra` form) on the
//             stream, then one hipStreamSynchronize.
//   hipgraph  the first step's launches recorded by stream capture
//             (hipStreamBeginCapture ... hipStreamEndCapture), instantiated
//             once and run with hipGraphLaunch, then hipStreamSynchronize.
//             A graph bakes its kernargs in; as engines do, later steps
//             update in place only the kernel nodes whose kernargs or grid
//             differ from what the executable graph holds
//             (hipGraphExecKernelNodeSetParams on the captured graph's
//             nodes, hipGraphGetNodes) and launch the same executable
//             graph. The launch list of a capture never changes, so the
//             topology does not either: the arm re-captures only when the
//             captured graph's node count differs from the launch count.
//             Its replay count is the number of graph launches (one per
//             window); its proof counts instantiations and node updates.
//
// No redline device is opened: the arm's memory lives in HIP. The library
// is the one $REDLINE_HIP_LIBRARY names, else the loader's defaults; when
// it cannot be loaded, has no device, or drives another processor than the
// capture's, the arm is not available (RL_STATUS_UNAVAILABLE). Buffers the
// capture pins to their address (keep_address) cannot be placed through
// hipMalloc and make the arm unavailable too.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/bind/launch_bind.h"
#include "base/test_fault.h"
#include "redline/backends/hip_loader.h"
#include "redline/backends/hip_wait.h"
#include "shadow/hip/shadow_hip.h"
#include "shadow/shadow_arm.h"

// Bytes written per hipMemcpy when zero-filling a buffer.
#define RL_SHADOW_HIP_ZERO_CHUNK 65536u

typedef struct rl_shadow_hip_s {
  rl_shadow_arm_t arm;  // first: the arm is the object
  rl_hip_api_t api;
  hipStream_t stream;
  bool hung;  // a bounded wait expired: nothing the stream uses is freed
  char processor[64];     // the HIP device's gcnArchName
  hipModule_t* modules;   // per capture code object
  uint32_t module_count;
  hipFunction_t* functions;  // per capture kernel
  void** bases;           // hipMalloc results per capture buffer
  uint64_t* addresses;    // aligned device addresses per capture buffer
  uint32_t buffer_count;  // buffers allocated so far
  uint8_t* kernargs;      // the step's kernargs, launch l at offsets[l]
  uint64_t* offsets;
  uint64_t kernarg_bytes;
  uint32_t* grids;        // the step's grids, 3 per launch
  // hipgraph: the captured graph and its kernel nodes (in launch order),
  // the instantiated graph and the kernargs and grids it holds.
  hipGraph_t graph;
  hipGraphNode_t* nodes;
  hipGraphExec_t exec;
  uint64_t node_updates;
  uint64_t updated_windows;  // windows that updated at least one node
  uint8_t* exec_kernargs;
  uint32_t* exec_grids;
  uint64_t instantiations;
  uint64_t graph_launches;
  uint64_t launches_issued;
} rl_shadow_hip_t;

//===----------------------------------------------------------------------===//
// Steps
//===----------------------------------------------------------------------===//

// Binds every launch of the step into the slab and grids.
static rl_status_t rl_shadow_hip_bind(rl_shadow_hip_t* hip,
                                      const int64_t* values) {
  const rl_capture_t* capture = hip->arm.capture;
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    RL_RETURN_IF_ERROR(rl_launch_bind(capture, l, values, hip->addresses,
                                      hip->kernargs + hip->offsets[l],
                                      &hip->grids[3 * l]));
  }
  return RL_OK;
}

// Enqueues every launch of the step on the stream (`extra` form).
static rl_status_t rl_shadow_hip_enqueue(rl_shadow_hip_t* hip) {
  const rl_capture_t* capture = hip->arm.capture;
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    const rl_capture_launch_t* launch = &capture->launches[l];
    const uint32_t* grid = &hip->grids[3 * l];
    size_t size = launch->kernarg_size;
    void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER,
                     hip->kernargs + hip->offsets[l],
                     HIP_LAUNCH_PARAM_BUFFER_SIZE, &size,
                     HIP_LAUNCH_PARAM_END};
    RL_RETURN_IF_ERROR(rl_status_annotate(
        RL_HIP_CALL(&hip->api, hipModuleLaunchKernel,
                    hip->functions[launch->kernel], grid[0], grid[1], grid[2],
                    launch->block[0], launch->block[1], launch->block[2],
                    launch->dynamic_lds, hip->stream, NULL, extra),
        "launch %u (%s)", l, capture->kernels[launch->kernel].name));
  }
  return RL_OK;
}

// The bounded wait for the step just enqueued (redline/backends/hip_wait.h).
// When it expires the stream may still run the step, so the arm is marked
// hung: destroy then frees nothing the stream can reach.
static rl_status_t rl_shadow_hip_wait(rl_shadow_hip_t* hip) {
  rl_status_t status = rl_hip_stream_wait(&hip->api, hip->stream,
                                          hip->arm.limits.wait_timeout_ns);
  if (rl_status_is(status, RL_STATUS_QUARANTINED)) hip->hung = true;
  return status;
}

static void rl_shadow_hip_graph_release(rl_shadow_hip_t* hip) {
  if (hip->exec) (void)hip->api.fn.hipGraphExecDestroy(hip->exec);
  if (hip->graph) (void)hip->api.fn.hipGraphDestroy(hip->graph);
  hip->exec = NULL;
  hip->graph = NULL;
}

// The captured graph's nodes into |nodes| (one per launch, in launch
// order: a capture on one stream chains them); false when the node count
// is not the launch count (the topology changed: re-capture).
static rl_status_t rl_shadow_hip_graph_nodes(rl_shadow_hip_t* hip,
                                             bool* out_match) {
  size_t count = 0;
  RL_RETURN_IF_ERROR(
      RL_HIP_CALL(&hip->api, hipGraphGetNodes, hip->graph, NULL, &count));
  uint32_t launches = hip->arm.capture->launch_count;
  *out_match = count == launches;
  if (!*out_match) return RL_OK;
  return RL_HIP_CALL(&hip->api, hipGraphGetNodes, hip->graph, hip->nodes,
                     &count);
}

// Records the step by stream capture and instantiates it, keeping the
// captured graph for its node handles. A failed launch still ends the
// capture, so the stream is usable afterwards.
static rl_status_t rl_shadow_hip_graph_build(rl_shadow_hip_t* hip) {
  rl_shadow_hip_graph_release(hip);
  RL_RETURN_IF_ERROR(RL_HIP_CALL(&hip->api, hipStreamBeginCapture, hip->stream,
                                 hipStreamCaptureModeGlobal));
  rl_status_t status = rl_shadow_hip_enqueue(hip);
  status = rl_status_join(status, RL_HIP_CALL(&hip->api, hipStreamEndCapture,
                                              hip->stream, &hip->graph));
  bool match = false;
  if (!status) status = rl_shadow_hip_graph_nodes(hip, &match);
  if (!status && !match) {
    status = RL_STATUS(RL_STATUS_UNAVAILABLE,
                       "the captured graph's nodes are not one per launch");
  }
  if (!status) {
    status = RL_HIP_CALL(&hip->api, hipGraphInstantiate, &hip->exec,
                         hip->graph, NULL, NULL, 0);
  }
  if (status) return rl_status_annotate(status, "capturing the step's graph");
  uint32_t launches = hip->arm.capture->launch_count;
  memcpy(hip->exec_kernargs, hip->kernargs, hip->kernarg_bytes);
  memcpy(hip->exec_grids, hip->grids, 12ull * launches);
  ++hip->instantiations;
  return RL_OK;
}

// Updates the kernel node of every launch whose kernarg or grid differs
// from the executable graph's (hipGraphExecKernelNodeSetParams).
static rl_status_t rl_shadow_hip_graph_update(rl_shadow_hip_t* hip) {
  const rl_capture_t* capture = hip->arm.capture;
  bool updated = false;
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    const rl_capture_launch_t* launch = &capture->launches[l];
    uint8_t* bytes = hip->kernargs + hip->offsets[l];
    uint8_t* held = hip->exec_kernargs + hip->offsets[l];
    const uint32_t* grid = &hip->grids[3 * l];
    if (memcmp(held, bytes, launch->kernarg_size) == 0 &&
        memcmp(&hip->exec_grids[3 * l], grid, 12) == 0) {
      continue;
    }
    size_t size = launch->kernarg_size;
    void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, bytes,
                     HIP_LAUNCH_PARAM_BUFFER_SIZE, &size,
                     HIP_LAUNCH_PARAM_END};
    const hipKernelNodeParams params = {
        .blockDim = {launch->block[0], launch->block[1], launch->block[2]},
        .extra = extra,
        .func = hip->functions[launch->kernel],
        .gridDim = {grid[0], grid[1], grid[2]},
        .sharedMemBytes = launch->dynamic_lds,
    };
    RL_RETURN_IF_ERROR(rl_status_annotate(
        RL_HIP_CALL(&hip->api, hipGraphExecKernelNodeSetParams, hip->exec,
                    hip->nodes[l], &params),
        "updating the graph node of launch %u (%s)", l,
        capture->kernels[launch->kernel].name));
    memcpy(held, bytes, launch->kernarg_size);
    memcpy(&hip->exec_grids[3 * l], grid, 12);
    ++hip->node_updates;
    updated = true;
  }
  hip->updated_windows += updated;
  return RL_OK;
}

// hipgraph's issue: the executable graph built on the first step (or
// rebuilt, under the graph-rebuild fault) and updated on the others, then
// launched once.
static rl_status_t rl_shadow_hip_graph_issue(rl_shadow_hip_t* hip) {
  if (!hip->exec || rl_test_fault("graph-rebuild", 0)) {
    RL_RETURN_IF_ERROR(rl_shadow_hip_graph_build(hip));
  } else {
    RL_RETURN_IF_ERROR(rl_shadow_hip_graph_update(hip));
  }
  RL_RETURN_IF_ERROR(
      RL_HIP_CALL(&hip->api, hipGraphLaunch, hip->exec, hip->stream));
  ++hip->graph_launches;
  return RL_OK;
}

// One step of either kind: bind the values, issue the launches (one by one
// for hip, through the executable graph for hipgraph), wait for the stream.
static rl_status_t rl_shadow_hip_step(rl_shadow_arm_t* arm,
                                      const int64_t* values) {
  rl_shadow_hip_t* hip = (rl_shadow_hip_t*)arm;
  RL_RETURN_IF_ERROR(rl_shadow_hip_bind(hip, values));
  RL_RETURN_IF_ERROR(arm->kind == RL_SHADOW_ARM_HIPGRAPH
                         ? rl_shadow_hip_graph_issue(hip)
                         : rl_shadow_hip_enqueue(hip));
  RL_RETURN_IF_ERROR(rl_shadow_hip_wait(hip));
  hip->launches_issued += arm->capture->launch_count;
  return RL_OK;
}

//===----------------------------------------------------------------------===//
// Memory, proof, destroy
//===----------------------------------------------------------------------===//

static rl_status_t rl_shadow_hip_read_region(rl_shadow_arm_t* arm,
                                             uint32_t region, void* out_data,
                                             uint64_t size) {
  rl_shadow_hip_t* hip = (rl_shadow_hip_t*)arm;
  const rl_capture_region_t* r = &arm->capture->regions[region];
  if (size != r->size) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "region %s is %llu bytes, %llu requested", r->name,
                     (unsigned long long)r->size, (unsigned long long)size);
  }
  if (size == 0) return RL_OK;
  uint64_t address = hip->addresses[r->buffer] + r->offset;
  return RL_HIP_CALL(&hip->api, hipMemcpy, out_data,
                     (const void*)(uintptr_t)address, (size_t)size,
                     hipMemcpyDeviceToHost);
}

static rl_status_t rl_shadow_hip_buffer_address(const rl_shadow_arm_t* arm,
                                                uint32_t buffer,
                                                uint64_t* out_address) {
  const rl_shadow_hip_t* hip = (const rl_shadow_hip_t*)arm;
  *out_address = hip->addresses[buffer];
  return RL_OK;
}

// The negative control through HIP: read, XOR 0xFF, write back.
static rl_status_t rl_shadow_hip_flip_byte(rl_shadow_arm_t* arm,
                                           uint64_t address) {
  rl_shadow_hip_t* hip = (rl_shadow_hip_t*)arm;
  void* device = (void*)(uintptr_t)address;
  uint8_t byte = 0;
  RL_RETURN_IF_ERROR(RL_HIP_CALL(&hip->api, hipMemcpy, &byte, device, 1,
                                 hipMemcpyDeviceToHost));
  byte ^= 0xFFu;
  return RL_HIP_CALL(&hip->api, hipMemcpy, device, &byte, 1,
                     hipMemcpyHostToDevice);
}

static void rl_shadow_hip_proof(const rl_shadow_arm_t* arm,
                                rl_shadow_proof_t* out_proof) {
  const rl_shadow_hip_t* hip = (const rl_shadow_hip_t*)arm;
  uint32_t launches = arm->capture->launch_count;
  bool graph = arm->kind == RL_SHADOW_ARM_HIPGRAPH;
  memset(out_proof, 0, sizeof(*out_proof));
  out_proof->route = rl_shadow_arm_kind_name(arm->kind);
  snprintf(out_proof->device, sizeof(out_proof->device), "hip");
  snprintf(out_proof->target, sizeof(out_proof->target),
           "amdgcn-amd-amdhsa--%s", hip->processor);
  out_proof->state = graph ? "graph" : "direct";
  if (graph) {
    snprintf(out_proof->fallback_reason, sizeof(out_proof->fallback_reason),
             "%llu instantiation%s, %llu node updates over %llu windows "
             "(%llu updated)",
             (unsigned long long)hip->instantiations,
             hip->instantiations == 1 ? "" : "s",
             (unsigned long long)hip->node_updates,
             (unsigned long long)arm->steps,
             (unsigned long long)hip->updated_windows);
  }
  out_proof->replay_count = graph ? hip->graph_launches : 0;
  out_proof->instantiations = hip->instantiations;
  out_proof->node_updates = hip->node_updates;
  out_proof->steps = arm->steps;
  out_proof->launches_issued = hip->launches_issued;
  out_proof->dispatches = launches;
  out_proof->packets = launches;
  out_proof->waits = 1;  // one hipStreamSynchronize per step
  out_proof->stream_bytes = hip->kernarg_bytes;
}

static bool rl_shadow_hip_last_host_ns(const rl_shadow_arm_t* arm,
                                       uint64_t* out_ns) {
  (void)arm;
  *out_ns = 0;
  return false;
}

static void rl_shadow_hip_destroy(rl_shadow_arm_t* arm) {
  rl_shadow_hip_t* hip = (rl_shadow_hip_t*)arm;
  if (hip->hung) {
    // A step outlived its bounded wait: its kernels may still read and
    // write the arm's buffers, so those, the modules and the stream are
    // leaked on purpose (HIP offers no way to stop a stream).
    hip->module_count = hip->buffer_count = 0;
    hip->stream = NULL;
    hip->exec = NULL;
    hip->graph = NULL;
  }
  if (hip->stream) (void)hip->api.fn.hipStreamSynchronize(hip->stream);
  rl_shadow_hip_graph_release(hip);
  free(hip->nodes);
  for (uint32_t b = 0; b < hip->buffer_count; ++b) {
    if (hip->bases[b]) (void)hip->api.fn.hipFree(hip->bases[b]);
  }
  for (uint32_t c = 0; c < hip->module_count; ++c) {
    (void)hip->api.fn.hipModuleUnload(hip->modules[c]);
  }
  if (hip->stream) (void)hip->api.fn.hipStreamDestroy(hip->stream);
  // The runtime stays loaded (see hip_funnel.c: HIP cannot be unloaded
  // mid-process).
  free(hip->modules);
  free(hip->functions);
  free(hip->bases);
  free(hip->addresses);
  free(hip->kernargs);
  free(hip->offsets);
  free(hip->grids);
  free(hip->exec_kernargs);
  free(hip->exec_grids);
  free(hip);
}

static const rl_shadow_arm_vtable_t rl_shadow_hip_vtable = {
    .step = rl_shadow_hip_step,
    .read_region = rl_shadow_hip_read_region,
    .buffer_address = rl_shadow_hip_buffer_address,
    .flip_byte = rl_shadow_hip_flip_byte,
    .proof = rl_shadow_hip_proof,
    .last_host_ns = rl_shadow_hip_last_host_ns,
    .destroy = rl_shadow_hip_destroy,
};

//===----------------------------------------------------------------------===//
// Setup
//===----------------------------------------------------------------------===//

// Opens HIP, checks that its device runs the capture's processor and
// creates the stream. Every failure here is RL_STATUS_UNAVAILABLE.
static rl_status_t rl_shadow_hip_open(rl_shadow_hip_t* hip) {
  // The HIP runtime over the simulator (sim/hip_sim/hip_sim.h) runs
  // kernels with the executor this run asked for, on the capture's
  // processor, unless the environment already chose; a real libamdhip64
  // ignores the variables.
  const char* executor = hip->arm.device_options.executor;
  setenv("REDLINE_HIP_EXECUTOR", executor ? executor : "ref", 0);
  // The capture's typed target: the processor the HIP device must run and,
  // unless the run names one, the one the simulator should be.
  const char* target = hip->arm.capture->target;
  const rl_target_t* wanted = &hip->arm.capture->typed_target;
  if (!wanted->processor[0]) {
    return RL_STATUS(RL_STATUS_UNAVAILABLE,
                     "the capture has no code object, so no processor");
  }
  const char* processor = hip->arm.device_options.processor;
  setenv("REDLINE_HIP_PROCESSOR", processor ? processor : wanted->processor, 0);
  RL_RETURN_IF_ERROR(rl_hip_api_open(&hip->api, NULL));
  RL_RETURN_IF_ERROR(RL_HIP_CALL(&hip->api, hipInit, 0));
  hipDeviceProp_t props;
  memset(&props, 0, sizeof(props));
  RL_RETURN_IF_ERROR(
      RL_HIP_CALL(&hip->api, hipGetDeviceProperties, &props, 0));
  size_t length = strcspn(props.gcnArchName, ":");
  if (length >= sizeof(hip->processor)) length = sizeof(hip->processor) - 1;
  memcpy(hip->processor, props.gcnArchName, length);
  hip->processor[length] = '\0';
  if (strcmp(wanted->processor, hip->processor) != 0) {
    return RL_STATUS(RL_STATUS_UNAVAILABLE,
                     "the HIP device is %s, the capture targets %s",
                     hip->processor, target);
  }
  return RL_HIP_CALL(&hip->api, hipStreamCreate, &hip->stream);
}

// Writes |buffer|'s initial contents (zeros when it has none) at |address|.
static rl_status_t rl_shadow_hip_fill(rl_shadow_hip_t* hip,
                                      const rl_capture_buffer_t* buffer,
                                      uint64_t address, const uint8_t* zeros) {
  for (uint64_t done = 0; done < buffer->size;
       done += RL_SHADOW_HIP_ZERO_CHUNK) {
    uint64_t length = buffer->size - done < RL_SHADOW_HIP_ZERO_CHUNK
                          ? buffer->size - done
                          : RL_SHADOW_HIP_ZERO_CHUNK;
    const uint8_t* source = buffer->initial ? buffer->initial + done : zeros;
    RL_RETURN_IF_ERROR(RL_HIP_CALL(&hip->api, hipMemcpy,
                                   (void*)(uintptr_t)(address + done), source,
                                   (size_t)length, hipMemcpyHostToDevice));
  }
  return RL_OK;
}

// Allocates buffer |index| with hipMalloc and fills it from the capture; a
// code object variable waits for the modules (rl_shadow_hip_variables).
static rl_status_t rl_shadow_hip_buffer(rl_shadow_hip_t* hip, uint32_t index,
                                        const uint8_t* zeros) {
  const rl_capture_buffer_t* buffer = &hip->arm.capture->buffers[index];
  if (rl_capture_buffer_is_variable(buffer)) {
    hip->buffer_count = index + 1;  // bases[index] stays NULL: not freed
    return RL_OK;
  }
  if (buffer->keep_address) {
    return RL_STATUS(RL_STATUS_UNAVAILABLE,
                     "buffer %s must keep its capture address, which "
                     "hipMalloc cannot place", buffer->name);
  }
  uint64_t alignment = buffer->alignment > 256 ? buffer->alignment : 0;
  uint64_t bytes = buffer->size + alignment;
  RL_RETURN_IF_ERROR(RL_HIP_CALL(&hip->api, hipMalloc, &hip->bases[index],
                                 (size_t)(bytes ? bytes : 1)));
  hip->buffer_count = index + 1;
  uint64_t address = (uint64_t)(uintptr_t)hip->bases[index];
  if (alignment) address = (address + alignment - 1) & ~(alignment - 1);
  hip->addresses[index] = address;
  return rl_shadow_hip_fill(hip, buffer, address, zeros);
}

// Binds code object variable |index| to the variable in this arm's module
// (hipModuleGetGlobal) and fills it from the capture.
static rl_status_t rl_shadow_hip_variable(rl_shadow_hip_t* hip, uint32_t index,
                                          const uint8_t* zeros) {
  const rl_capture_buffer_t* buffer = &hip->arm.capture->buffers[index];
  const rl_code_object_variable_t* variable = rl_code_object_find_variable(
      hip->arm.capture->code_objects[buffer->code_object].parsed,
      buffer->symbol);
  hipDeviceptr_t pointer = NULL;
  size_t size = 0;
  RL_RETURN_IF_ERROR(RL_HIP_CALL(&hip->api, hipModuleGetGlobal, &pointer,
                                 &size, hip->modules[buffer->code_object],
                                 buffer->symbol));
  if (!variable || size != variable->size) {
    return RL_STATUS(RL_STATUS_MISMATCH,
                     "hipModuleGetGlobal(%s) gives %zu bytes, the code object "
                     "says %llu",
                     buffer->symbol, size,
                     (unsigned long long)(variable ? variable->size : 0));
  }
  uint64_t address = (uint64_t)(uintptr_t)pointer + buffer->symbol_offset;
  hip->addresses[index] = address;
  return rl_shadow_hip_fill(hip, buffer, address, zeros);
}

static rl_status_t rl_shadow_hip_buffers(rl_shadow_hip_t* hip) {
  uint8_t* zeros = calloc(RL_SHADOW_HIP_ZERO_CHUNK, 1);
  if (!zeros) return rl_status_out_of_memory();
  rl_status_t status = RL_OK;
  for (uint32_t b = 0; !status && b < hip->arm.capture->buffer_count; ++b) {
    status = rl_status_annotate(rl_shadow_hip_buffer(hip, b, zeros),
                                "buffer %s", hip->arm.capture->buffers[b].name);
  }
  free(zeros);
  return status;
}

// Loads the code objects and resolves every kernel by name.
static rl_status_t rl_shadow_hip_modules(rl_shadow_hip_t* hip) {
  const rl_capture_t* capture = hip->arm.capture;
  for (uint32_t c = 0; c < capture->code_object_count; ++c) {
    RL_RETURN_IF_ERROR(rl_status_annotate(
        RL_HIP_CALL(&hip->api, hipModuleLoadData, &hip->modules[c],
                    capture->code_objects[c].bytes),
        "loading code object %u", c));
    hip->module_count = c + 1;
  }
  for (uint32_t k = 0; k < capture->kernel_count; ++k) {
    const rl_capture_kernel_t* kernel = &capture->kernels[k];
    RL_RETURN_IF_ERROR(RL_HIP_CALL(&hip->api, hipModuleGetFunction,
                                   &hip->functions[k],
                                   hip->modules[kernel->code_object],
                                   kernel->name));
  }
  return RL_OK;
}

// Writes every descriptor binding's address fields for where this arm's
// hipMalloc placed its image (capture.h rl_capture_descriptor_t).
static rl_status_t rl_shadow_hip_descriptors(rl_shadow_hip_t* hip) {
  const rl_capture_t* capture = hip->arm.capture;
  for (uint32_t i = 0; i < capture->descriptor_count; ++i) {
    const rl_capture_descriptor_t* d = &capture->descriptors[i];
    uint8_t bytes[8];
    rl_status_t status =
        rl_descriptor_patch(capture, i, hip->addresses[d->image], bytes);
    if (!status) {
      status = RL_HIP_CALL(&hip->api, hipMemcpy,
                           (void*)(uintptr_t)(hip->addresses[d->buffer] +
                                              d->offset),
                           bytes, sizeof(bytes), hipMemcpyHostToDevice);
    }
    if (status) {
      return rl_status_annotate(status, "descriptor %u in buffer %s", i,
                                capture->buffers[d->buffer].name);
    }
  }
  return RL_OK;
}

static rl_status_t rl_shadow_hip_variables(rl_shadow_hip_t* hip) {
  uint8_t* zeros = calloc(RL_SHADOW_HIP_ZERO_CHUNK, 1);
  if (!zeros) return rl_status_out_of_memory();
  rl_status_t status = RL_OK;
  const rl_capture_t* capture = hip->arm.capture;
  for (uint32_t b = 0; !status && b < capture->buffer_count; ++b) {
    if (!rl_capture_buffer_is_variable(&capture->buffers[b])) continue;
    status = rl_status_annotate(rl_shadow_hip_variable(hip, b, zeros),
                                "buffer %s (variable %s)",
                                capture->buffers[b].name,
                                capture->buffers[b].symbol);
  }
  free(zeros);
  return status;
}

static rl_status_t rl_shadow_hip_setup(rl_shadow_hip_t* hip) {
  const rl_capture_t* capture = hip->arm.capture;
  uint32_t launches = capture->launch_count;
  hip->modules = calloc(capture->code_object_count + 1u, sizeof(hipModule_t));
  hip->functions = calloc(capture->kernel_count + 1u, sizeof(hipFunction_t));
  hip->bases = calloc(capture->buffer_count + 1u, sizeof(void*));
  hip->addresses = calloc(capture->buffer_count + 1u, sizeof(uint64_t));
  hip->offsets = calloc(launches + 1u, sizeof(uint64_t));
  hip->grids = calloc(3u * launches + 3u, sizeof(uint32_t));
  hip->exec_grids = calloc(3u * launches + 3u, sizeof(uint32_t));
  hip->nodes = calloc(launches + 1u, sizeof(hipGraphNode_t));
  if (!hip->modules || !hip->functions || !hip->bases || !hip->addresses ||
      !hip->offsets || !hip->grids || !hip->exec_grids || !hip->nodes) {
    return rl_status_out_of_memory();
  }
  for (uint32_t l = 0; l < launches; ++l) {
    hip->offsets[l] = hip->kernarg_bytes;
    // 16-byte slices: the kernarg alignment HIP itself guarantees.
    hip->kernarg_bytes += (capture->launches[l].kernarg_size + 15u) & ~15u;
  }
  hip->kernargs = calloc(hip->kernarg_bytes + 1u, 1);
  hip->exec_kernargs = calloc(hip->kernarg_bytes + 1u, 1);
  if (!hip->kernargs || !hip->exec_kernargs) return rl_status_out_of_memory();
  RL_RETURN_IF_ERROR(rl_shadow_hip_open(hip));
  RL_RETURN_IF_ERROR(rl_shadow_hip_buffers(hip));
  RL_RETURN_IF_ERROR(rl_shadow_hip_modules(hip));
  RL_RETURN_IF_ERROR(rl_shadow_hip_variables(hip));
  return rl_shadow_hip_descriptors(hip);
}

rl_status_t rl_shadow_hip_arm_create(rl_shadow_arm_t* common,
                                     rl_shadow_arm_t** out_arm) {
  rl_shadow_hip_t* hip = calloc(1, sizeof(*hip));
  if (!hip) return rl_status_out_of_memory();
  hip->arm = *common;
  hip->arm.vtable = &rl_shadow_hip_vtable;
  rl_status_t status = rl_shadow_hip_setup(hip);
  if (status) {
    rl_shadow_hip_destroy(&hip->arm);  // safe on a partial setup
    return rl_status_annotate(status, "HIP arm %s",
                              rl_shadow_arm_kind_name(common->kind));
  }
  *out_arm = &hip->arm;
  return RL_OK;
}
