// capture/interposer/interposer_write.c — writing the capture out
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
#include "redline/capture_file.h"
#include "redline/offload_bundle.h"

// Finishes the funnel and writes the capture (atomically, by the output-file
// rules of rl_capture_file_write).
void rl_ip_write_capture_locked(rl_interposer_t* ip) {
  if (!ip->funnel || ip->written || !rl_ip_recording(ip)) return;
  if (ip->survey[0]) {  // nothing recorded: the item signatures only
    rl_ip_survey_write(ip);
    rl_funnel_destroy(ip->funnel);
    ip->funnel = NULL;
    return;
  }
  ip->written = true;
  for (uint32_t i = 0; i < ip->buffer_count; ++i) {
    // A texture object is no region: its descriptor holds the image's
    // address, which differs wherever a route places the image.
    if (ip->buffers[i].memory == RL_IP_MEMORY_TEXTURE) continue;
    char name[32];
    snprintf(name, sizeof(name), "buf%u", ip->buffers[i].index);
    uint32_t region = 0;
    rl_status_t status =
        rl_funnel_region(ip->funnel, name, ip->buffers[i].index, 0,
                         ip->buffers[i].size, RL_REGION_BYTES, &region);
    if (status) rl_ip_fail(status, "region");
  }
  // Every code object variable is state too: a region named after it.
  const rl_capture_t* recorded = rl_funnel_capture(ip->funnel);
  for (uint32_t b = 0; b < recorded->buffer_count; ++b) {
    const rl_capture_buffer_t* buffer = &recorded->buffers[b];
    if (!rl_capture_buffer_is_variable(buffer)) continue;
    uint32_t region = 0;
    rl_status_t status =
        rl_funnel_region(ip->funnel, buffer->name, b, 0, buffer->size,
                         RL_REGION_BYTES, &region);
    if (status) rl_ip_fail(status, "variable region");
  }
  // Launches fail asynchronously too (a fault found when the queue runs):
  // the runtime reports them at the next synchronisation, so the capture
  // asks for one before it is written.
  RL_IP_REAL(hipDeviceSynchronize);
  RL_IP_REAL(hipGetErrorName);
  hipError_t sync =
      real_hipDeviceSynchronize ? real_hipDeviceSynchronize() : hipSuccess;
  if (sync != hipSuccess) {
    rl_ip_note(ip, 0, "a forwarded launch failed (hipDeviceSynchronize: %s)",
               real_hipGetErrorName ? real_hipGetErrorName(sync) : "error");
  }
  // The capture declares its window: the whole recorded sequence is one
  // step of parameter "run" (admitted range [0, 1)), so `redline shadow
  // FILE` and `redline bench FILE` need no --windows.
  // A step capture declares its position instead (interposer_steps.c).
  uint32_t run_param = 0, window = 0;
  rl_status_t declared =
      ip->steps ? RL_OK
                : rl_funnel_param(ip->funnel, "run", 0, 1, 0, &run_param);
  if (!declared && !ip->steps) {
    declared = rl_funnel_window(ip->funnel, run_param, 0, 1, 1, &window);
  }
  if (declared) rl_ip_fail(declared, "declaring the window");
  rl_capture_t* capture = NULL;
  rl_status_t status = rl_funnel_finish(ip->funnel, &capture);
  // After the synchronisation above every forwarded launch has completed:
  // what the runtime observed becomes the effects of pointers without
  // access metadata (interposer_observe.c).
  rl_ip_observe_apply(ip, status ? NULL : capture);
  rl_ip_issued_attach(ip, status ? NULL : capture);
  if (!status) rl_ip_texture_descriptors(ip, capture);
  if (!status && capture->launch_count == 0 && !ip->reason[0]) {
    // Nothing to replay: a window past the program's last launch, or a
    // program whose launches never reached the interposer (linked against
    // a runtime it does not interpose). Said, and refused by replay.
    rl_ip_note(ip, 0, "no launch was recorded (window %s)",
               ip->window_open ? "open" : "never opened");
  }
  if (!status && (ip->bypassed || ip->reason[0])) {
    status = rl_capture_mark_incomplete(capture, ip->bypassed, ip->reason);
  }
  bool refused = false;
  if (!status && ip->steps) {
    status = rl_ip_steps_finish(ip, &capture);
    refused = status != RL_OK;
  }
  if (!status && ip->verify) status = rl_ip_steps_states(ip, capture);
  if (!status) status = rl_capture_file_write(capture, ip->out, NULL);
  if (refused) {  // nothing written: the steps are not one structure
    rl_ip_report(ip, "refused %s", rl_status_message(status));
    rl_ip_fail(status, "step capture refused (nothing written)");
  } else if (status) {
    rl_ip_report(ip, "failed %s", rl_status_message(status));
    rl_ip_fail(status, "writing the capture");
  } else {
    if (rl_capture_incomplete(capture)) {
      rl_ip_report(
          ip, "written %u incomplete %s", capture->launch_count,
          capture->incomplete_reason ? capture->incomplete_reason : "?");
    } else {
      rl_ip_report(ip, "written %u complete", capture->launch_count);
    }
    char what[160];
    if (ip->steps) {  // the window held K steps, the file holds step 0
      snprintf(what, sizeof(what), "step 0 of %u steps of equal structure",
               ip->steps);
    } else {
      snprintf(what, sizeof(what), "%u of them copies or fills", ip->copies);
    }
    fprintf(stderr,
            "redline_capture: %u launches recorded into %s (%s), %u "
            "pointer effects observed%s%s\n",
            capture->launch_count, ip->out, what, ip->observed_slots,
            rl_capture_incomplete(capture) ? "; INCOMPLETE: " : "",
            rl_capture_incomplete(capture) ? capture->incomplete_reason : "");
  }
  rl_capture_destroy(capture);
  rl_funnel_destroy(ip->funnel);
  ip->funnel = NULL;
  RL_IP_REAL(hipFree);
  RL_IP_REAL(hipHostFree);
  for (uint32_t i = 0; i < ip->buffer_count; ++i) {
    rl_ip_buffer_t* b = &ip->buffers[i];
    free(b->shadow);
    b->shadow = NULL;
    if (!b->freed || b->unregistered) continue;
    if (b->memory == RL_IP_MEMORY_PINNED) {
      if (real_hipHostFree) (void)real_hipHostFree(b->base);
    } else if (b->memory == RL_IP_MEMORY_ARRAY ||
               b->memory == RL_IP_MEMORY_TEXTURE) {
      rl_ip_texture_release(ip, b);
    } else if (real_hipFree) {
      (void)real_hipFree(b->base);
    }
  }
  for (uint32_t i = 0; i < ip->staging_count && real_hipFree; ++i) {
    (void)real_hipFree(ip->staging[i].base);
  }
  free(ip->staging);
  ip->staging = NULL;
  ip->staging_count = ip->staging_capacity = 0;
  for (uint32_t g = 0; g < ip->graph_count; ++g) {
    for (uint32_t n = 0; n < ip->graphs[g].node_count; ++n) {
      free(ip->graphs[g].nodes[n].kernarg);
    }
    free(ip->graphs[g].nodes);
  }
  free(ip->graphs);
  ip->graphs = NULL;
  ip->graph_count = ip->graph_capacity = 0;
  rl_code_object_destroy(ip->copy_parsed);
  ip->copy_parsed = NULL;
}

void rl_ip_write_capture(void) {
  rl_interposer_t* ip = rl_ip_get();
  pthread_mutex_lock(&ip->lock);
  rl_ip_write_capture_locked(ip);
  pthread_mutex_unlock(&ip->lock);
}
