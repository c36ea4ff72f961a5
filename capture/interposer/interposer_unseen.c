// capture/interposer/interposer_unseen.c — why a kernel was not recorded
// (capture/interposer/interposer_internal.h).
//
// A code object or kernel the interposer cannot record (no entry for the
// device's processor, a code object it cannot parse, a name not in the
// metadata, a table full) is forwarded untouched; its launches later mark
// the window incomplete. The reason is kept here, keyed by the runtime's
// handle, so the INCOMPLETE note names the real cause instead of "not
// seen loaded".
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "capture/interposer/interposer_internal.h"

void rl_ip_unseen(rl_interposer_t* ip, hipModule_t module,
                  hipFunction_t function, const void* host,
                  const char* format, ...) {
  rl_ip_unseen_t* u = NULL;
  for (uint32_t i = 0; i < ip->unseen_count && !u; ++i) {
    rl_ip_unseen_t* c = &ip->unseen[i];
    if (c->module == module && c->function == function && c->host == host) {
      u = c;
    }
  }
  if (!u && ip->unseen_count == RL_IP_MAX_UNSEEN) return;
  if (!u) u = &ip->unseen[ip->unseen_count++];
  *u = (rl_ip_unseen_t){.module = module, .function = function, .host = host};
  va_list args;
  va_start(args, format);
  vsnprintf(u->why, sizeof(u->why), format, args);
  va_end(args);
}

const char* rl_ip_unseen_why(const rl_interposer_t* ip, hipModule_t module,
                             hipFunction_t function, const void* host) {
  for (uint32_t i = 0; i < ip->unseen_count; ++i) {
    const rl_ip_unseen_t* c = &ip->unseen[i];
    if (c->module == module && c->function == function && c->host == host) {
      return c->why;
    }
  }
  return NULL;
}

void rl_ip_unseen_describe(const rl_interposer_t* ip, hipFunction_t function,
                           const void* host, char* out, size_t capacity) {
  const char* why = host ? rl_ip_unseen_why(ip, NULL, NULL, host)
                         : rl_ip_unseen_why(ip, NULL, function, NULL);
  if (why) {
    snprintf(out, capacity, "a kernel the interposer did not record: %s", why);
  } else if (host) {
    snprintf(out, capacity,
             "host stub %p, never registered (__hipRegisterFunction) while "
             "the interposer was loaded",
             host);
  } else {
    snprintf(out, capacity,
             "function %p, not obtained from hipModuleGetFunction while the "
             "interposer was loaded",
             (void*)function);
  }
}

void rl_ip_note_unseen(rl_interposer_t* ip, hipFunction_t function,
                       const void* host) {
  char why[sizeof(ip->unseen[0].why) + 128];
  rl_ip_unseen_describe(ip, function, host, why, sizeof(why));
  rl_ip_note(ip, 1, "a launch of %s", why);
}
