// capture/interposer/interposer_window.c — the state object, setup, window
// control (capture/interposer/interposer_internal.h).
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/recording/capture_window_spec.h"
#include "capture/interposer/interposer_internal.h"
#include "capture/recording/step_split.h"
#include "base/array.h"
#include "base/number.h"
#include "base/output_file.h"
#include "base/run_owner.h"
#include "redline/capture_file.h"
#include "redline/offload_bundle.h"

static rl_interposer_t rl_ip_instance = {.lock = PTHREAD_MUTEX_INITIALIZER};

rl_interposer_t* rl_ip_get(void) { return &rl_ip_instance; }

void* rl_ip_real(rl_interposer_t* ip, const char* name) {
  const char* path = getenv("REDLINE_HIP_LIBRARY");
  if (path && path[0]) {
    if (!ip->library) ip->library = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    return ip->library ? dlsym(ip->library, name) : NULL;
  }
  return dlsym(RTLD_NEXT, name);
}

void rl_ip_note(rl_interposer_t* ip, uint32_t bypassed, const char* format,
                ...) {
  ip->bypassed += bypassed;
  if (!ip->reason[0]) {
    va_list args;
    va_start(args, format);
    vsnprintf(ip->reason, sizeof(ip->reason), format, args);
    va_end(args);
  }
}

// Which process records: base/run_owner.h.
__attribute__((constructor)) static void rl_ip_load_library(void) {
  rl_ip_get()->pid = rl_run_owner_at_load();
}

bool rl_ip_recording(const rl_interposer_t* ip) {
  return rl_run_owner_is_self(ip->pid);
}

void rl_ip_report(const rl_interposer_t* ip, const char* format, ...) {
  if (!ip->report[0] || !rl_ip_recording(ip)) return;
  char line[4096 + 512];
  va_list args;
  va_start(args, format);
  int length = vsnprintf(line, sizeof(line) - 1, format, args);
  va_end(args);
  if (length < 0) return;
  if ((size_t)length > sizeof(line) - 2) length = (int)sizeof(line) - 2;
  line[length++] = '\n';
  rl_status_t status = rl_output_file_write(ip->report, line, (size_t)length);
  if (status) rl_ip_fail(status, "REDLINE_CAPTURE_REPORT");
}

void rl_ip_fail(rl_status_t status, const char* what) {
  fprintf(stderr, "redline_capture: %s: %s\n", what, rl_status_message(status));
  rl_status_free(status);
}

// fork() while another thread is inside an interposed call would leave the
// child's copy of the lock held forever: the lock is taken around fork.
static void rl_ip_fork_prepare(void) { pthread_mutex_lock(&rl_ip_get()->lock); }
static void rl_ip_fork_release(void) {
  pthread_mutex_unlock(&rl_ip_get()->lock);
}

// Parses the window and creates the funnel on the first interposed call.
// A forked child of the program records nothing: it shares the parent's
// state up to the fork, and its capture would go to the parent's path
// (rl_ip_recording, docs/capture-interposer.md).
bool rl_ip_start(rl_interposer_t* ip) {
  if (!rl_ip_recording(ip)) return false;
  if (ip->started) return !ip->failed;
  ip->started = true;
  const char* out = getenv("REDLINE_CAPTURE_OUT");
  snprintf(ip->out, sizeof(ip->out), "%s",
           out && out[0] ? out : "redline_capture.rlc");
  const char* report = getenv("REDLINE_CAPTURE_REPORT");
  snprintf(ip->report, sizeof(ip->report), "%s", report ? report : "");
  const char* window = getenv("REDLINE_CAPTURE_WINDOW");
  rl_capture_window_spec_t spec;
  rl_status_t parsed = rl_capture_window_spec_parse(window, &spec);
  if (parsed) {
    ip->failed = true;
    rl_ip_fail(parsed, "REDLINE_CAPTURE_WINDOW (not capturing)");
    rl_ip_report(ip, "failed REDLINE_CAPTURE_WINDOW='%s' is not a window",
                 window);
    return false;
  }
  // The capture's launch budget: a program the user runs is trusted, so
  // the default is far above the 65,536 launches per step that guard
  // replays of capture files (redline/limits.h max_dispatches).
  ip->max_launches = RL_IP_DEFAULT_MAX_LAUNCHES;
  const char* budget = getenv("REDLINE_CAPTURE_MAX_LAUNCHES");
  if (budget && budget[0]) {
    rl_status_t status = rl_number_parse_size(budget, &ip->max_launches);
    if (status) {
      ip->failed = true;
      rl_ip_report(ip, "failed REDLINE_CAPTURE_MAX_LAUNCHES: %s",
                   rl_status_message(status));
      rl_ip_fail(status, "REDLINE_CAPTURE_MAX_LAUNCHES (not capturing)");
      return false;
    }
  }
  ip->marker = spec.marker;
  ip->items = spec.items;
  ip->marker_count = 1;
  snprintf(ip->marker_name, sizeof(ip->marker_name), "%s", spec.marker_name);
  ip->first = spec.first;
  ip->count = spec.count;
  if (!rl_ip_steps_setup(ip)) {
    ip->failed = true;
    return false;
  }
  ip->device = (rl_funnel_device_t){.self = ip,
                                    .load_code_object = rl_ip_load,
                                    .allocate = rl_ip_allocate,
                                    .write = rl_ip_write,
                                    .read = rl_ip_read,
                                    .launch = rl_ip_launch};
  const char* name = program_invocation_short_name;
  rl_status_t status = rl_funnel_create(name && name[0] ? name : "hip-app",
                                        &ip->device, &ip->funnel);
  if (status) {
    rl_ip_fail(status, "funnel");
    ip->failed = true;
    return false;
  }
  atexit(rl_ip_write_capture);
  pthread_atfork(rl_ip_fork_prepare, rl_ip_fork_release, rl_ip_fork_release);
  return true;
}

hipError_t rl_ip_unlock(rl_interposer_t* ip, hipError_t error) {
  if (ip->settle_pending) {  // a recorded write into a host buffer
    ip->settle_pending = false;
    if (error == hipSuccess) rl_ip_host_settle(ip);
  }
  pthread_mutex_unlock(&ip->lock);
  return error;
}

bool rl_ip_in_window(rl_interposer_t* ip) {
  return ip->funnel && ip->window_open && !ip->window_closed;
}

// Moves the window for one module launch of |f|; true when it is recorded.
static bool rl_ip_window_step(rl_interposer_t* ip, const rl_ip_function_t* f) {
  if (ip->window_closed) return false;
  if (ip->marker) {
    if (!f || strcmp(f->info->name, ip->marker_name) != 0) {
      return ip->window_open;
    }
    uint64_t hit = ip->launches_seen++;
    if (hit == ip->first) ip->window_open = true;
    if (hit == ip->first + ip->marker_count) ip->window_closed = true;
    return ip->window_open && !ip->window_closed;
  }
  uint64_t index = ip->launches_seen++;
  if (index == ip->first) ip->window_open = true;
  if (ip->count != UINT64_MAX && index >= ip->first + ip->count) {
    ip->window_closed = true;
  }
  return ip->window_open && !ip->window_closed;
}

// Steps the window for one item and writes the capture when that closes
// it; true when the item is recorded.
static bool rl_ip_window_item(rl_interposer_t* ip, const rl_ip_function_t* f) {
  bool closed_before = ip->window_closed;
  bool record = ip->funnel && rl_ip_window_step(ip, f);
  // Launches and copy-kernel launches the capture holds, against its
  // budget ($REDLINE_CAPTURE_MAX_LAUNCHES): past it, nothing more is
  // recorded and the capture says why.
  if (record && (uint64_t)ip->recorded + ip->copies >= ip->max_launches) {
    rl_ip_note(ip, 1,
               "more than %" PRIu64 " launches, the capture's budget "
               "(REDLINE_CAPTURE_MAX_LAUNCHES, redline run "
               "--capture-max-launches)",
               ip->max_launches);
    record = false;
  }
  if (!closed_before && ip->window_closed && !rl_ip_steps_hold(ip)) {
    rl_ip_write_capture_locked(ip);
  }
  return record;
}

bool rl_ip_window_launch(rl_interposer_t* ip, const rl_ip_function_t* f,
                         const uint32_t block[3], uint32_t lds) {
  rl_ip_survey_add(ip, rl_step_signature(f ? f->info->name : "(graph)",
                                         block, lds));
  rl_ip_steps_item(ip, f);
  return rl_ip_window_item(ip, f);
}

bool rl_ip_window_write(rl_interposer_t* ip, bool fill) {
  static const uint32_t block[3] = {256, 1, 1};  // rl_ip_record_builtin's
  rl_ip_survey_add(ip, rl_step_signature(fill ? "rl_capture_fill"
                                              : "rl_capture_copy",
                                         block, 0));
  rl_ip_steps_item(ip, NULL);
  if (!ip->items || ip->marker) return rl_ip_in_window(ip);
  return rl_ip_window_item(ip, NULL);
}
