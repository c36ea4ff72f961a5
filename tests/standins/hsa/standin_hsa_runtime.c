// tests/standins/hsa/standin_hsa_runtime.c — runtime lifetime, system and
// agent queries, ISAs, status strings, the misuse record and the test
// hooks of the ROCr stand-in (standin_hsa.h).
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/ref/ref_executor.h"
#include "sim/sim.h"
#include "tests/standins/hsa/standin_hsa.h"

rl_standin_t rl_standin = {.lock = PTHREAD_MUTEX_INITIALIZER};

//===----------------------------------------------------------------------===//
// Misuse record and hooks
//===----------------------------------------------------------------------===//

#define RL_STANDIN_ERRORS_KEPT 64u
static pthread_mutex_t rl_standin_record_lock = PTHREAD_MUTEX_INITIALIZER;
static char rl_standin_errors[RL_STANDIN_ERRORS_KEPT][256];
static uint32_t rl_standin_error_total;
static uint32_t rl_standin_busy_frees;
static char rl_standin_fault[512];

void rl_standin_error(const char* format, ...) {
  pthread_mutex_lock(&rl_standin_record_lock);
  if (rl_standin_error_total < RL_STANDIN_ERRORS_KEPT) {
    va_list args;
    va_start(args, format);
    vsnprintf(rl_standin_errors[rl_standin_error_total], 256, format, args);
    va_end(args);
  }
  ++rl_standin_error_total;
  pthread_mutex_unlock(&rl_standin_record_lock);
}

void rl_standin_note_busy_free(void) {
  pthread_mutex_lock(&rl_standin_record_lock);
  ++rl_standin_busy_frees;
  pthread_mutex_unlock(&rl_standin_record_lock);
}

void rl_standin_set_fault(const char* message) {
  pthread_mutex_lock(&rl_standin_record_lock);
  snprintf(rl_standin_fault, sizeof(rl_standin_fault), "%s", message);
  pthread_mutex_unlock(&rl_standin_record_lock);
}

RL_STANDIN_EXPORT uint32_t rl_standin_hsa_error_count(void) {
  pthread_mutex_lock(&rl_standin_record_lock);
  uint32_t count = rl_standin_error_total;
  pthread_mutex_unlock(&rl_standin_record_lock);
  return count;
}

RL_STANDIN_EXPORT const char* rl_standin_hsa_error(uint32_t index) {
  return index < RL_STANDIN_ERRORS_KEPT && index < rl_standin_error_total
             ? rl_standin_errors[index] : "";
}

RL_STANDIN_EXPORT void rl_standin_hsa_clear_errors(void) {
  pthread_mutex_lock(&rl_standin_record_lock);
  rl_standin_error_total = 0;
  rl_standin_busy_frees = 0;
  rl_standin_fault[0] = '\0';
  pthread_mutex_unlock(&rl_standin_record_lock);
}

RL_STANDIN_EXPORT uint32_t rl_standin_hsa_frees_while_busy(void) {
  return rl_standin_busy_frees;
}

// Allocations still live at the last hsa_shut_down (0 before any).
static uint32_t rl_standin_live_at_shutdown;

RL_STANDIN_EXPORT uint32_t rl_standin_hsa_live_at_shutdown(void) {
  return rl_standin_live_at_shutdown;
}

RL_STANDIN_EXPORT const char* rl_standin_hsa_last_fault(void) {
  return rl_standin_fault;
}

// REDLINE_STANDIN_REPORT: the record, written when the process exits.
__attribute__((destructor)) static void rl_standin_write_report(void) {
  const char* path = getenv("REDLINE_STANDIN_REPORT");
  if (!path || !path[0]) return;
  FILE* file = fopen(path, "w");
  if (!file) return;
  fprintf(file, "errors %u\nfrees_while_busy %u\nlive_at_shutdown %u\n"
          "fault %s\n", rl_standin_error_total, rl_standin_busy_frees,
          rl_standin_live_at_shutdown, rl_standin_fault);
  for (uint32_t i = 0; i < rl_standin_error_total && i < RL_STANDIN_ERRORS_KEPT;
       ++i) {
    fprintf(file, "error: %s\n", rl_standin_errors[i]);
  }
  fclose(file);
}

bool rl_standin_env_flag(const char* name) {
  const char* value = getenv(name);
  return value && value[0] && strcmp(value, "0") != 0;
}

bool rl_standin_live(void) { return rl_standin.refcount > 0; }

//===----------------------------------------------------------------------===//
// Lifetime
//===----------------------------------------------------------------------===//

// Reads the configured ISA and creates the simulated GPU behind it.
static hsa_status_t rl_standin_start(void) {
  const char* isa = getenv("REDLINE_STANDIN_ISA");
  if (!isa || !isa[0]) isa = "amdgcn-amd-amdhsa--gfx1100";
  snprintf(rl_standin.isa, sizeof(rl_standin.isa), "%s", isa);
  const char* dash = strrchr(isa, '-');
  snprintf(rl_standin.processor, sizeof(rl_standin.processor), "%s",
           dash ? dash + 1 : isa);
  const char* sim_processor = rl_standin.processor;
  if (strcmp(sim_processor, "gfx1100") && strcmp(sim_processor, "gfx1151") &&
      strcmp(sim_processor, "gfx1201")) {
    sim_processor = "gfx1100";
  }
  const rl_sim_options_t options = {.processor = sim_processor,
                                    .executor = rl_ref_executor()};
  rl_status_t status = rl_sim_device_create(&options, &rl_standin.sim);
  if (status) {
    rl_status_free(status);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  rl_standin_corrupt_start(rl_standin.sim);
  return HSA_STATUS_SUCCESS;
}

RL_STANDIN_EXPORT hsa_status_t hsa_init(void) {
  if (rl_standin_env_flag("REDLINE_STANDIN_INIT_FAIL")) {
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  pthread_mutex_lock(&rl_standin.lock);
  hsa_status_t status = HSA_STATUS_SUCCESS;
  if (rl_standin.refcount == 0) status = rl_standin_start();
  if (status == HSA_STATUS_SUCCESS) ++rl_standin.refcount;
  pthread_mutex_unlock(&rl_standin.lock);
  return status;
}

RL_STANDIN_EXPORT hsa_status_t hsa_shut_down(void) {
  pthread_mutex_lock(&rl_standin.lock);
  if (rl_standin.refcount == 0) {
    pthread_mutex_unlock(&rl_standin.lock);
    return HSA_STATUS_ERROR_NOT_INITIALIZED;
  }
  if (--rl_standin.refcount == 0) {
    // What the program left allocated when it shut ROCr down for the last
    // time (teardown tests count on none; ROCr itself frees it silently).
    rl_standin_live_at_shutdown = rl_standin.allocation_count;
    // As ROCr: queues first (their processors stop), then everything else.
    rl_standin_queue_release_all_locked();
    rl_standin_loader_release_all_locked();
    rl_standin_signal_release_all_locked();
    rl_standin_memory_release_all_locked();
    rl_standin.sim->vtable->destroy(rl_standin.sim);
    rl_standin.sim = NULL;
  }
  pthread_mutex_unlock(&rl_standin.lock);
  return HSA_STATUS_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Status strings (work before hsa_init, as ROCr's do)
//===----------------------------------------------------------------------===//

RL_STANDIN_EXPORT hsa_status_t hsa_status_string(hsa_status_t status,
                                                 const char** status_string) {
  if (!status_string) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch ((int)status) {
    case HSA_STATUS_SUCCESS:
      *status_string = "HSA_STATUS_SUCCESS (stand-in)"; break;
    case HSA_STATUS_ERROR_OUT_OF_RESOURCES:
      *status_string = "HSA_STATUS_ERROR_OUT_OF_RESOURCES: stand-in fault "
                       "injection or no simulated device"; break;
    case HSA_STATUS_ERROR_EXCEPTION:
      *status_string = "HSA_STATUS_ERROR_EXCEPTION: the simulated command "
                       "processor faulted"; break;
    case HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION:
      *status_string = "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: "
                       "simulated VM fault"; break;
    case HSA_STATUS_ERROR_INVALID_PACKET_FORMAT:
      *status_string = "HSA_STATUS_ERROR_INVALID_PACKET_FORMAT: the simulated "
                       "command processor rejected a packet"; break;
    default:
      *status_string = "stand-in: see hsa.h for this status"; break;
  }
  return HSA_STATUS_SUCCESS;
}

//===----------------------------------------------------------------------===//
// System, agents, ISAs
//===----------------------------------------------------------------------===//

RL_STANDIN_EXPORT hsa_status_t hsa_system_get_info(hsa_system_info_t attribute,
                                                   void* value) {
  if (!rl_standin_live()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  switch (attribute) {
    case HSA_SYSTEM_INFO_VERSION_MAJOR: *(uint16_t*)value = 1; break;
    case HSA_SYSTEM_INFO_VERSION_MINOR: *(uint16_t*)value = 1; break;
    case HSA_SYSTEM_INFO_TIMESTAMP:
      *(uint64_t*)value = rl_standin.sim->vtable->timestamp(rl_standin.sim);
      break;
    case HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY:
      *(uint64_t*)value = RL_STANDIN_TIMESTAMP_HZ;
      break;
    default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

RL_STANDIN_EXPORT hsa_status_t hsa_iterate_agents(
    hsa_status_t (*callback)(hsa_agent_t agent, void* data), void* data) {
  if (!rl_standin_live()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  static const uint64_t agents[] = {RL_STANDIN_CPU_AGENT, RL_STANDIN_GPU_AGENT};
  for (size_t i = 0; i < 2; ++i) {
    hsa_status_t status = callback((hsa_agent_t){agents[i]}, data);
    if (status != HSA_STATUS_SUCCESS) return status;
  }
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t rl_standin_copy_name(void* value, const char* name) {
  memset(value, 0, 64);
  snprintf(value, 64, "%s", name);
  return HSA_STATUS_SUCCESS;
}

RL_STANDIN_EXPORT hsa_status_t hsa_agent_get_info(hsa_agent_t agent,
                                                  hsa_agent_info_t attribute,
                                                  void* value) {
  if (!rl_standin_live()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const bool gpu = agent.handle == RL_STANDIN_GPU_AGENT;
  if (!gpu && agent.handle != RL_STANDIN_CPU_AGENT) {
    return HSA_STATUS_ERROR_INVALID_AGENT;
  }
  switch ((int)attribute) {
    case HSA_AGENT_INFO_NAME:
      return rl_standin_copy_name(value, gpu ? rl_standin.processor
                                             : "redline stand-in CPU");
    case HSA_AGENT_INFO_VENDOR_NAME:
      return rl_standin_copy_name(value, "redline-standin");
    case HSA_AGENT_INFO_DEVICE:
      *(hsa_device_type_t*)value = gpu ? HSA_DEVICE_TYPE_GPU
                                       : HSA_DEVICE_TYPE_CPU;
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_PROFILE:
      *(hsa_profile_t*)value = gpu ? HSA_PROFILE_BASE : HSA_PROFILE_FULL;
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_QUEUE_MIN_SIZE:
      *(uint32_t*)value = gpu ? RL_STANDIN_QUEUE_MIN : 0;
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_QUEUE_MAX_SIZE:
      *(uint32_t*)value = gpu ? RL_STANDIN_QUEUE_MAX : 0;
      return HSA_STATUS_SUCCESS;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

RL_STANDIN_EXPORT hsa_status_t hsa_agent_iterate_isas(
    hsa_agent_t agent, hsa_status_t (*callback)(hsa_isa_t isa, void* data),
    void* data) {
  if (!rl_standin_live()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (agent.handle == RL_STANDIN_CPU_AGENT) return HSA_STATUS_SUCCESS;
  if (agent.handle != RL_STANDIN_GPU_AGENT) {
    return HSA_STATUS_ERROR_INVALID_AGENT;
  }
  return callback((hsa_isa_t){RL_STANDIN_GPU_ISA}, data);
}

RL_STANDIN_EXPORT hsa_status_t hsa_isa_get_info_alt(hsa_isa_t isa,
                                                    hsa_isa_info_t attribute,
                                                    void* value) {
  if (!rl_standin_live()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (isa.handle != RL_STANDIN_GPU_ISA) return HSA_STATUS_ERROR_INVALID_ISA;
  switch (attribute) {
    case HSA_ISA_INFO_NAME_LENGTH:  // without the terminator (hsa.h)
      *(uint32_t*)value = (uint32_t)strlen(rl_standin.isa);
      return HSA_STATUS_SUCCESS;
    case HSA_ISA_INFO_NAME:
      memcpy(value, rl_standin.isa, strlen(rl_standin.isa));
      return HSA_STATUS_SUCCESS;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}
