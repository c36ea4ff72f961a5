// capture/interposer/interposer_graph.c — stream capture and graphs
// (capture/interposer/interposer_internal.h).
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/interposer/interposer_internal.h"
#include "base/array.h"
#include "base/number.h"
#include "base/test_fault.h"
#include "redline/capture_file.h"
#include "redline/offload_bundle.h"

//===----------------------------------------------------------------------===//
// Graphs captured from streams: the nodes are kept at capture time and
// recorded, in capture order, each time an executable graph made from them
// is launched.
//===----------------------------------------------------------------------===//

// The graph |stream| is capturing into, or NULL.
rl_ip_graph_t* rl_ip_graph_capturing(rl_interposer_t* ip, hipStream_t stream) {
  for (uint32_t i = 0; i < ip->graph_count; ++i) {
    if (ip->graphs[i].capturing && ip->graphs[i].stream == stream) {
      return &ip->graphs[i];
    }
  }
  return NULL;
}

static rl_ip_node_t* rl_ip_graph_node(rl_ip_graph_t* g,
                                      rl_ip_node_kind_t kind) {
  if (g->broken[0]) return NULL;
  rl_status_t status =
      RL_ARRAY_RESERVE(&g->nodes, &g->node_capacity, g->node_count + 1);
  if (status) {
    rl_status_free(status);
    snprintf(g->broken, sizeof(g->broken), "out of memory");
    return NULL;
  }
  rl_ip_node_t* n = &g->nodes[g->node_count++];
  *n = (rl_ip_node_t){.kind = kind};
  return n;
}

// Marks |g| unrecordable with |reason| (the first one kept).
void rl_ip_graph_break(rl_ip_graph_t* g, const char* reason) {
  if (!g->broken[0]) snprintf(g->broken, sizeof(g->broken), "%s", reason);
}

// A copy into the graph |g| is capturing: a node when it writes device
// memory.
void rl_ip_graph_copy(rl_interposer_t* ip, rl_ip_graph_t* g, void* dst,
                      const void* src, size_t size, hipMemcpyKind kind) {
  if (kind == hipMemcpyDeviceToHost || kind == hipMemcpyHostToHost) return;
  if (kind == hipMemcpyDefault) {
    kind = rl_ip_buffer_at(ip, (uint64_t)(uintptr_t)src)
               ? hipMemcpyDeviceToDevice
               : hipMemcpyHostToDevice;
  }
  rl_ip_node_t* n = rl_ip_graph_node(g, RL_IP_NODE_COPY);
  if (!n) return;
  n->dst = (uint64_t)(uintptr_t)dst;
  n->src = (uint64_t)(uintptr_t)src;
  n->size = size;
  n->src_host = kind == hipMemcpyHostToDevice;
}

void rl_ip_graph_fill(rl_ip_graph_t* g, void* dst, uint32_t pattern,
                      uint32_t width, uint64_t size) {
  rl_ip_node_t* n = rl_ip_graph_node(g, RL_IP_NODE_FILL);
  if (!n) return;
  n->dst = (uint64_t)(uintptr_t)dst;
  n->pattern = pattern;
  n->width = width;
  n->size = size;
}

//===----------------------------------------------------------------------===//
// Stream capture and graph launches
//===----------------------------------------------------------------------===//

RL_IP_EXPORT hipError_t hipStreamBeginCapture(hipStream_t stream,
                                              hipStreamCaptureMode mode) {
  RL_IP_ENTER();
  RL_IP_REAL(hipStreamBeginCapture);
  if (!real_hipStreamBeginCapture) return rl_ip_leave(hipErrorNotSupported);
  hipError_t error = real_hipStreamBeginCapture(stream, mode);
  if (error || !rl_ip_on) return rl_ip_leave(error);
  rl_status_t status =
      RL_ARRAY_RESERVE(&ip->graphs, &ip->graph_capacity, ip->graph_count + 1);
  if (status) {
    rl_ip_fail(status, "hipStreamBeginCapture");
    return rl_ip_leave(error);
  }
  ip->graphs[ip->graph_count++] =
      (rl_ip_graph_t){.stream = stream, .capturing = true};
  return rl_ip_leave(error);
}

RL_IP_EXPORT hipError_t hipStreamEndCapture(hipStream_t stream,
                                            hipGraph_t* graph) {
  RL_IP_ENTER();
  RL_IP_REAL(hipStreamEndCapture);
  if (!real_hipStreamEndCapture) return rl_ip_leave(hipErrorNotSupported);
  hipError_t error = real_hipStreamEndCapture(stream, graph);
  rl_ip_graph_t* g = rl_ip_on ? rl_ip_graph_capturing(ip, stream) : NULL;
  if (g) {
    g->capturing = false;
    g->graph = error || !graph ? NULL : *graph;
  }
  return rl_ip_leave(error);
}

// The captured graph whose hipGraph_t is |graph|, or NULL.
static rl_ip_graph_t* rl_ip_graph_of(rl_interposer_t* ip, hipGraph_t graph) {
  for (uint32_t i = 0; graph && i < ip->graph_count; ++i) {
    if (ip->graphs[i].graph == graph) return &ip->graphs[i];
  }
  return NULL;
}

// The captured graph |exec| was instantiated from, or NULL.
static rl_ip_graph_t* rl_ip_graph_exec(rl_interposer_t* ip,
                                       hipGraphExec_t exec) {
  for (uint32_t i = 0; exec && i < ip->graph_count; ++i) {
    for (uint32_t e = 0; e < ip->graphs[i].exec_count; ++e) {
      if (ip->graphs[i].execs[e] == exec) return &ip->graphs[i];
    }
  }
  return NULL;
}

static void rl_ip_graph_instantiated(rl_interposer_t* ip, hipGraph_t graph,
                                     hipGraphExec_t exec) {
  rl_ip_graph_t* g = rl_ip_graph_of(ip, graph);
  if (!g) return;
  if (g->exec_count == 16) {
    rl_ip_graph_break(g, "more than 16 executable graphs of one graph");
    return;
  }
  g->execs[g->exec_count++] = exec;
}

RL_IP_EXPORT hipError_t hipGraphInstantiate(hipGraphExec_t* exec,
                                            hipGraph_t graph,
                                            hipGraphNode_t* error_node,
                                            char* log, size_t log_size) {
  RL_IP_ENTER();
  RL_IP_REAL(hipGraphInstantiate);
  if (!real_hipGraphInstantiate) return rl_ip_leave(hipErrorNotSupported);
  hipError_t error =
      real_hipGraphInstantiate(exec, graph, error_node, log, log_size);
  if (!error && rl_ip_on && exec) rl_ip_graph_instantiated(ip, graph, *exec);
  return rl_ip_leave(error);
}

RL_IP_EXPORT hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t* exec,
                                                     hipGraph_t graph,
                                                     unsigned long long flags) {
  RL_IP_ENTER();
  RL_IP_REAL(hipGraphInstantiateWithFlags);
  if (!real_hipGraphInstantiateWithFlags) {
    return rl_ip_leave(hipErrorNotSupported);
  }
  hipError_t error = real_hipGraphInstantiateWithFlags(exec, graph, flags);
  if (!error && rl_ip_on && exec) rl_ip_graph_instantiated(ip, graph, *exec);
  return rl_ip_leave(error);
}

// Changing an executable graph makes its recorded nodes stale.
RL_IP_EXPORT hipError_t
hipGraphExecKernelNodeSetParams(hipGraphExec_t exec, hipGraphNode_t node,
                                const hipKernelNodeParams* params) {
  RL_IP_ENTER();
  RL_IP_REAL(hipGraphExecKernelNodeSetParams);
  if (!real_hipGraphExecKernelNodeSetParams) {
    return rl_ip_leave(hipErrorNotSupported);
  }
  rl_ip_graph_t* g = rl_ip_on ? rl_ip_graph_exec(ip, exec) : NULL;
  if (g) rl_ip_graph_break(g, "a kernel node changed after instantiation");
  return rl_ip_leave(real_hipGraphExecKernelNodeSetParams(exec, node, params));
}

RL_IP_EXPORT hipError_t hipGraphExecUpdate(hipGraphExec_t exec,
                                           hipGraph_t graph,
                                           hipGraphNode_t* error_node,
                                           hipGraphExecUpdateResult* result) {
  RL_IP_ENTER();
  RL_IP_REAL(hipGraphExecUpdate);
  if (!real_hipGraphExecUpdate) return rl_ip_leave(hipErrorNotSupported);
  rl_ip_graph_t* g = rl_ip_on ? rl_ip_graph_exec(ip, exec) : NULL;
  if (g) rl_ip_graph_break(g, "the executable graph was updated");
  return rl_ip_leave(real_hipGraphExecUpdate(exec, graph, error_node, result));
}

// A kernel launch into the graph |g| is capturing: a node holding the
// kernarg image of its explicit arguments, cooperative when the launch is
// (ip->pending_cooperative: HIP's runtime makes it a kernel node launched
// cooperatively, ROCm's capturehipLaunchCooperativeKernel; each
// hipGraphLaunch records it as a cooperative launch).
void rl_ip_graph_kernel(rl_interposer_t* ip, rl_ip_graph_t* g,
                        const rl_ip_function_t* f, const uint32_t grid[3],
                        const uint32_t block[3], uint32_t lds, void** params,
                        void** extra) {
  if (!f) {
    rl_ip_graph_break(g, "a kernel the interposer did not see loaded");
    return;
  }
  const rl_code_object_kernel_t* info = f->info;
  uint8_t* image = calloc(1, info->kernarg_size + 1u);
  size_t buffer_size = 0;
  const uint8_t* buffer = rl_ip_extra_buffer(extra, &buffer_size);
  bool ok = image && (params || buffer);
  uint32_t explicit_index = 0;
  for (uint32_t a = 0; ok && a < info->arg_count; ++a) {
    const rl_kernel_arg_t* meta = &info->args[a];
    if (meta->kind == RL_ARG_KIND_HIDDEN) continue;
    if (params) {
      memcpy(image + meta->offset, params[explicit_index++], meta->size);
    } else if (meta->offset + meta->size <= buffer_size) {
      memcpy(image + meta->offset, buffer + meta->offset, meta->size);
    } else {
      ok = false;
    }
  }
  rl_ip_node_t* n = ok ? rl_ip_graph_node(g, RL_IP_NODE_KERNEL) : NULL;
  if (!n) {
    free(image);
    rl_ip_graph_break(g, "a kernel node's arguments are not readable");
    return;
  }
  n->function = (uint32_t)(f - ip->functions);
  memcpy(n->grid, grid, sizeof(n->grid));
  memcpy(n->block, block, sizeof(n->block));
  n->lds = lds;
  n->kernarg = image;
  n->cooperative = ip->pending_cooperative;
}

RL_IP_EXPORT hipError_t hipGraphLaunch(hipGraphExec_t exec,
                                       hipStream_t stream) {
  RL_IP_ENTER();
  RL_IP_REAL(hipGraphLaunch);
  if (!real_hipGraphLaunch) return rl_ip_leave(hipErrorNotSupported);
  rl_ip_graph_t* g = rl_ip_on ? rl_ip_graph_exec(ip, exec) : NULL;
  if (rl_ip_on && (!g || g->broken[0])) {
    // Its kernel nodes are unknown: count the launch as one step.
    static const uint32_t none[3] = {0, 0, 0};
    if (rl_ip_window_launch(ip, NULL, none, 0)) {
      rl_ip_note(ip, 1, "hipGraphLaunch is not recorded: %s",
                 g ? g->broken : "a graph not captured from a stream");
    }
  }
  // The capture launch of each kernel node, for observed effects
  // (interposer_observe.c); UINT32_MAX: not recorded.
  uint32_t* launches = g && !g->broken[0] && g->node_count
                           ? malloc(g->node_count * sizeof(*launches))
                           : NULL;
  uint32_t kernels = 0;
  if (launches && ip->funnel && !ip->window_closed) rl_ip_observe_start(ip);
  for (uint32_t i = 0; g && !g->broken[0] && i < g->node_count; ++i) {
    const rl_ip_node_t* n = &g->nodes[i];
    if (n->kind == RL_IP_NODE_COPY) {
      if (rl_ip_in_window(ip)) {
        rl_ip_record_copy(ip, "hipGraphLaunch (memcpy node)", n->dst,
                          n->src_host ? 0 : n->src,
                          n->src_host ? (const void*)(uintptr_t)n->src : NULL,
                          n->size);
      }
      continue;
    }
    if (n->kind == RL_IP_NODE_FILL) {
      if (rl_ip_in_window(ip)) {
        rl_ip_record_fill(ip, "hipGraphLaunch (memset node)", n->dst,
                          n->pattern, n->width, n->size);
      }
      continue;
    }
    const rl_ip_function_t* f = &ip->functions[n->function];
    uint32_t* slot = launches ? &launches[kernels] : NULL;
    ++kernels;
    if (slot) *slot = UINT32_MAX;
    if (!rl_ip_window_launch(ip, f, n->block, n->lds)) continue;
    rl_funnel_arg_t args[64];
    uint32_t arg_count = 0;
    bool recorded = false;
    char why[512];
    if (!rl_ip_type_args(ip, f->info, NULL, n->kernarg, f->info->kernarg_size,
                         args, &arg_count, why, sizeof(why))) {
      rl_ip_note(ip, 1, "graph node %u: %s", i, why);
      continue;
    }
    rl_ip_issued_take(ip, f->info, NULL, n->kernarg, f->info->kernarg_size);
    // Recorded as the node runs (the fault: as a plain launch).
    ip->pending_cooperative =
        n->cooperative && !rl_test_fault("graph-coop-off", 0);
    (void)rl_ip_record_launch(ip, f, f->function, n->grid, n->block, n->lds,
                              stream, args, arg_count, true, &recorded);
    ip->pending_cooperative = false;
    if (recorded && slot && ip->funnel) {
      *slot = rl_funnel_capture(ip->funnel)->launch_count - 1;
    }
  }
  uint64_t mark = rl_ip_observe_mark(ip);
  hipError_t result = real_hipGraphLaunch(exec, stream);
  if (result == hipSuccess) rl_ip_observe_graph(ip, mark, launches, kernels);
  free(launches);
  return rl_ip_leave(result);
}
