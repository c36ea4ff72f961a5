// capture/interposer/interposer_window.c — the state object, setup, window
// control (capture/interposer/interposer_internal.h).
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/interposer/interposer_internal.h"
#include "redline/base/array.h"
#include "redline/base/number.h"
#include "redline/capture_file.h"
#include "redline/offload_bundle.h"

static rl_interposer_t rl_ip_instance = {.lock = PTHREAD_MUTEX_INITIALIZER,
                                         .freed_in_window = -1};

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

void rl_ip_fail(rl_status_t status, const char* what) {
  fprintf(stderr, "redline_capture: %s: %s\n", what, rl_status_message(status));
  rl_status_free(status);
}

// Parses the window and creates the funnel on the first interposed call.
// Parses one number of REDLINE_CAPTURE_WINDOW; false on junk or overflow.
static bool rl_ip_number(const char* text, uint64_t* out_value) {
  rl_status_t status = rl_number_parse_u64(text, out_value);
  bool ok = status == RL_OK;
  rl_status_free(status);
  return ok;
}

bool rl_ip_start(rl_interposer_t* ip) {
  if (ip->started) return !ip->failed;
  ip->started = true;
  const char* out = getenv("REDLINE_CAPTURE_OUT");
  snprintf(ip->out, sizeof(ip->out), "%s",
           out && out[0] ? out : "redline_capture.rlc");
  const char* window = getenv("REDLINE_CAPTURE_WINDOW");
  ip->first = 0;
  ip->count = UINT64_MAX;
  if (window && strncmp(window, "launches:", 9) == 0) {
    // FIRST[:COUNT|:all], each number by the one parser
    // (redline/base/number.h).
    char first[32] = "";
    const char* colon = strchr(window + 9, ':');
    size_t length = colon ? (size_t)(colon - window - 9) : strlen(window + 9);
    if (length >= sizeof(first)) length = 0;  // refused by the parser below
    memcpy(first, window + 9, length);
    first[length] = '\0';
    if (!rl_ip_number(first, &ip->first)) ip->failed = true;
    if (colon && strcmp(colon + 1, "all") != 0 &&
        !rl_ip_number(colon + 1, &ip->count)) {
      ip->failed = true;
    }
  } else if (window && strncmp(window, "marker:", 7) == 0) {
    const char* colon = strrchr(window + 7, ':');
    size_t length = colon ? (size_t)(colon - window - 7) : 0;
    if (!colon || length == 0 || length >= sizeof(ip->marker_name)) {
      ip->failed = true;
    } else {
      ip->marker = true;
      memcpy(ip->marker_name, window + 7, length);
      if (!rl_ip_number(colon + 1, &ip->first)) ip->failed = true;
    }
  } else if (window && window[0]) {
    ip->failed = true;
  }
  if (ip->failed) {
    fprintf(stderr,
            "redline_capture: REDLINE_CAPTURE_WINDOW='%s': expected "
            "launches:FIRST:COUNT or marker:NAME:N; not capturing\n",
            window);
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
  return true;
}

hipError_t rl_ip_unlock(rl_interposer_t* ip, hipError_t error) {
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
    if (hit == ip->first + 1) ip->window_closed = true;
    return ip->window_open && !ip->window_closed;
  }
  uint64_t index = ip->launches_seen++;
  if (index == ip->first) ip->window_open = true;
  if (ip->count != UINT64_MAX && index >= ip->first + ip->count) {
    ip->window_closed = true;
  }
  return ip->window_open && !ip->window_closed;
}

// Steps the window for a launch of |f| and writes the capture when that
// closes it; true when the launch is recorded.
bool rl_ip_window_launch(rl_interposer_t* ip, const rl_ip_function_t* f) {
  bool closed_before = ip->window_closed;
  bool record = ip->funnel && rl_ip_window_step(ip, f);
  if (!closed_before && ip->window_closed) rl_ip_write_capture_locked(ip);
  return record;
}
