// redline/backends/rocr_agents.c — agents, exact ISA names, memory pools and
// the doctor probe of the rocr device (rocr_device.h).
#include <stdio.h>
#include <string.h>

#include "redline/backends/rocr_internal.h"

#define RL_ROCR_ISA_PREFIX "amdgcn-amd-amdhsa--"

const char* const rl_rocr_supported_processors[] = {"gfx1100", "gfx1151",
                                                    "gfx1201", NULL};

bool rl_rocr_isa_supported(const char* isa, char* reason, size_t capacity) {
  const size_t prefix = strlen(RL_ROCR_ISA_PREFIX);
  if (strncmp(isa, RL_ROCR_ISA_PREFIX, prefix) == 0) {
    for (size_t i = 0; rl_rocr_supported_processors[i]; ++i) {
      if (strcmp(isa + prefix, rl_rocr_supported_processors[i]) == 0) {
        return true;
      }
    }
  }
  const char* shown = strncmp(isa, RL_ROCR_ISA_PREFIX, prefix) == 0
                          ? isa + prefix : isa;
  snprintf(reason, capacity,
           "ISA %s not supported: redline targets gfx1100, gfx1151, gfx1201",
           shown[0] ? shown : "(none)");
  return false;
}

//===----------------------------------------------------------------------===//
// Agents
//===----------------------------------------------------------------------===//

typedef struct rl_rocr_isa_name_s {
  const rl_hsa_api_t* api;
  char* isa;
  size_t capacity;
  rl_status_t status;
} rl_rocr_isa_name_t;

// Takes the agent's first ISA (GPU agents have exactly one).
static hsa_status_t rl_rocr_isa_visit(hsa_isa_t isa, void* data) {
  rl_rocr_isa_name_t* name = data;
  uint32_t length = 0;
  name->status = RL_HSA_CALL(name->api, hsa_isa_get_info_alt, isa,
                             HSA_ISA_INFO_NAME_LENGTH, &length);
  if (!name->status && length + 1 > name->capacity) {
    name->status = RL_STATUS(RL_STATUS_UNSUPPORTED,
                             "ISA name of %u bytes is too long", length);
  }
  if (!name->status) {
    memset(name->isa, 0, name->capacity);
    name->status = RL_HSA_CALL(name->api, hsa_isa_get_info_alt, isa,
                               HSA_ISA_INFO_NAME, name->isa);
  }
  return HSA_STATUS_INFO_BREAK;
}

rl_status_t rl_rocr_agent_isa(const rl_hsa_api_t* api, hsa_agent_t agent,
                              char* isa, size_t capacity) {
  isa[0] = '\0';
  rl_rocr_isa_name_t name = {api, isa, capacity, RL_OK};
  RL_RETURN_IF_ERROR(
      RL_HSA_CALL(api, hsa_agent_iterate_isas, agent, rl_rocr_isa_visit, &name));
  return name.status;
}

typedef struct rl_rocr_agent_list_s {
  hsa_agent_t agents[RL_ROCR_PROBE_MAX_AGENTS];
  uint32_t count;
} rl_rocr_agent_list_t;

static hsa_status_t rl_rocr_agent_visit(hsa_agent_t agent, void* data) {
  rl_rocr_agent_list_t* list = data;
  if (list->count < RL_ROCR_PROBE_MAX_AGENTS) list->agents[list->count++] = agent;
  return HSA_STATUS_SUCCESS;
}

// Describes |agent| into |info|.
static rl_status_t rl_rocr_describe_agent(const rl_hsa_api_t* api,
                                          hsa_agent_t agent,
                                          rl_rocr_agent_info_t* info) {
  memset(info, 0, sizeof(*info));
  hsa_device_type_t type = HSA_DEVICE_TYPE_CPU;
  RL_RETURN_IF_ERROR(
      RL_HSA_CALL(api, hsa_agent_get_info, agent, HSA_AGENT_INFO_DEVICE, &type));
  RL_RETURN_IF_ERROR(
      RL_HSA_CALL(api, hsa_agent_get_info, agent, HSA_AGENT_INFO_NAME, info->name));
  RL_RETURN_IF_ERROR(RL_HSA_CALL(api, hsa_agent_get_info, agent,
                                 HSA_AGENT_INFO_VENDOR_NAME, info->vendor));
  info->name[sizeof(info->name) - 1] = '\0';
  info->vendor[sizeof(info->vendor) - 1] = '\0';
  info->gpu = type == HSA_DEVICE_TYPE_GPU;
  if (!info->gpu) {
    snprintf(info->reason, sizeof(info->reason), "not a GPU agent");
    return RL_OK;
  }
  RL_RETURN_IF_ERROR(rl_rocr_agent_isa(api, agent, info->isa, sizeof(info->isa)));
  info->supported =
      rl_rocr_isa_supported(info->isa, info->reason, sizeof(info->reason));
  return RL_OK;
}

static rl_status_t rl_rocr_list_agents(const rl_hsa_api_t* api,
                                       rl_rocr_agent_list_t* list) {
  memset(list, 0, sizeof(*list));
  return RL_HSA_CALL(api, hsa_iterate_agents, rl_rocr_agent_visit, list);
}

// The agents found, for messages: "gfx90a (amdgcn-amd-amdhsa--gfx90a), ...".
static void rl_rocr_agents_text(const rl_hsa_api_t* api,
                                const rl_rocr_agent_list_t* list, char* text,
                                size_t capacity) {
  text[0] = '\0';
  for (uint32_t i = 0; i < list->count; ++i) {
    rl_rocr_agent_info_t info;
    if (rl_rocr_describe_agent(api, list->agents[i], &info) || !info.gpu) {
      continue;
    }
    size_t used = strlen(text);
    snprintf(text + used, capacity - used, "%s%s (%s)", used ? ", " : "",
             info.isa[0] ? info.isa : "no ISA", info.reason[0] ? info.reason
                                                                : "supported");
  }
  if (!text[0]) snprintf(text, capacity, "no GPU agent");
}

// True when |info| is the GPU agent to use for |processor|.
static bool rl_rocr_agent_matches(const rl_rocr_agent_info_t* info,
                                  const char* processor) {
  if (!info->gpu || !info->supported) return false;
  if (!processor) return true;
  return strcmp(info->isa + strlen(RL_ROCR_ISA_PREFIX), processor) == 0;
}

static rl_status_t rl_rocr_agent_limits(rl_rocr_device_t* device) {
  const rl_hsa_api_t* api = &device->api;
  RL_RETURN_IF_ERROR(RL_HSA_CALL(api, hsa_agent_get_info, device->gpu,
                                 HSA_AGENT_INFO_PROFILE, &device->profile));
  RL_RETURN_IF_ERROR(RL_HSA_CALL(api, hsa_agent_get_info, device->gpu,
                                 HSA_AGENT_INFO_QUEUE_MIN_SIZE,
                                 &device->queue_min_size));
  return RL_HSA_CALL(api, hsa_agent_get_info, device->gpu,
                     HSA_AGENT_INFO_QUEUE_MAX_SIZE, &device->queue_max_size);
}

rl_status_t rl_rocr_select_agents(rl_rocr_device_t* device,
                                  const char* processor) {
  const rl_hsa_api_t* api = &device->api;
  rl_rocr_agent_list_t list;
  RL_RETURN_IF_ERROR(rl_rocr_list_agents(api, &list));
  bool have_gpu = false, have_cpu = false;
  for (uint32_t i = 0; i < list.count; ++i) {
    rl_rocr_agent_info_t info;
    RL_RETURN_IF_ERROR(rl_rocr_describe_agent(api, list.agents[i], &info));
    if (!info.gpu && !have_cpu) {
      device->cpu = list.agents[i];
      have_cpu = true;
    }
    if (!have_gpu && rl_rocr_agent_matches(&info, processor)) {
      device->gpu = list.agents[i];
      // Supported ISAs are short: copy them whole.
      memcpy(device->target, info.isa, sizeof(info.isa));
      snprintf(device->processor, sizeof(device->processor), "%.31s",
               info.isa + strlen(RL_ROCR_ISA_PREFIX));
      have_gpu = true;
    }
  }
  if (!have_gpu) {
    char found[1024];
    rl_rocr_agents_text(api, &list, found, sizeof(found));
    if (processor) {
      return RL_STATUS(RL_STATUS_UNAVAILABLE,
                       "rocr: no GPU agent with ISA " RL_ROCR_ISA_PREFIX
                       "%s; found: %s", processor, found);
    }
    return RL_STATUS(RL_STATUS_UNAVAILABLE,
                     "rocr: no GPU agent with a supported ISA (gfx1100, "
                     "gfx1151, gfx1201); found: %s", found);
  }
  if (!have_cpu) {
    return RL_STATUS(RL_STATUS_UNAVAILABLE,
                     "rocr: no CPU agent (needed for the kernarg pool)");
  }
  return rl_rocr_agent_limits(device);
}

//===----------------------------------------------------------------------===//
// Pools
//===----------------------------------------------------------------------===//

typedef struct rl_rocr_pool_search_s {
  const rl_hsa_api_t* api;
  uint32_t required_flags;      // HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_*
  hsa_amd_segment_t segment;
  hsa_amd_memory_pool_t found;
  bool have;
  size_t size;                  // of the found pool
} rl_rocr_pool_search_t;

static hsa_status_t rl_rocr_pool_visit(hsa_amd_memory_pool_t pool,
                                       void* data) {
  rl_rocr_pool_search_t* search = data;
  const rl_hsa_functions_t* fn = &search->api->fn;
  hsa_amd_segment_t segment = HSA_AMD_SEGMENT_PRIVATE;
  uint32_t flags = 0;
  bool allowed = false;
  size_t size = 0;
  if (fn->hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT,
                                       &segment) != HSA_STATUS_SUCCESS ||
      segment != search->segment) {
    return HSA_STATUS_SUCCESS;
  }
  fn->hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size);
  if (segment == HSA_AMD_SEGMENT_GLOBAL) {
    fn->hsa_amd_memory_pool_get_info(
        pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
    fn->hsa_amd_memory_pool_get_info(
        pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &allowed);
    if (!allowed || (flags & search->required_flags) != search->required_flags) {
      return HSA_STATUS_SUCCESS;
    }
  }
  search->found = pool;
  search->size = size;
  search->have = true;
  return HSA_STATUS_INFO_BREAK;
}

static rl_status_t rl_rocr_find_pool(const rl_hsa_api_t* api, hsa_agent_t agent,
                                     hsa_amd_segment_t segment, uint32_t flags,
                                     rl_rocr_pool_search_t* out_search) {
  *out_search = (rl_rocr_pool_search_t){
      .api = api, .required_flags = flags, .segment = segment};
  return RL_HSA_CALL(api, hsa_amd_agent_iterate_memory_pools, agent,
                     rl_rocr_pool_visit, out_search);
}

// Whether the GPU may use kernarg-pool memory as allocated, or needs
// hsa_amd_agents_allow_access for each allocation.
static rl_status_t rl_rocr_kernarg_access(rl_rocr_device_t* device) {
  hsa_amd_memory_pool_access_t access = HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED;
  RL_RETURN_IF_ERROR(RL_HSA_CALL(&device->api,
                                 hsa_amd_agent_memory_pool_get_info,
                                 device->gpu, device->kernarg_pool,
                                 HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS,
                                 &access));
  if (access == HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED) {
    return RL_STATUS(RL_STATUS_UNAVAILABLE,
                     "rocr: the GPU agent may never access the kernarg pool");
  }
  device->kernarg_needs_access =
      access == HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT;
  return RL_OK;
}

rl_status_t rl_rocr_select_pools(rl_rocr_device_t* device) {
  const rl_hsa_api_t* api = &device->api;
  rl_rocr_pool_search_t search;
  RL_RETURN_IF_ERROR(rl_rocr_find_pool(
      api, device->cpu, HSA_AMD_SEGMENT_GLOBAL,
      HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT, &search));
  if (!search.have) {
    return RL_STATUS(RL_STATUS_UNAVAILABLE,
                     "rocr: the CPU agent has no KERNARG_INIT pool");
  }
  device->kernarg_pool = search.found;
  RL_RETURN_IF_ERROR(rl_rocr_find_pool(
      api, device->gpu, HSA_AMD_SEGMENT_GLOBAL,
      HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED, &search));
  if (!search.have) {
    return RL_STATUS(RL_STATUS_UNAVAILABLE,
                     "rocr: the GPU agent %s has no coarse-grained pool",
                     device->target);
  }
  device->device_pool = search.found;
  RL_RETURN_IF_ERROR(
      rl_rocr_find_pool(api, device->gpu, HSA_AMD_SEGMENT_GROUP, 0, &search));
  // AMDGPUUsage "Memory Spaces": 64 KiB of LDS per work-group on gfx11/12.
  device->base.lds_limit =
      search.have && search.size ? (uint32_t)search.size : 65536u;
  return rl_rocr_kernarg_access(device);
}

//===----------------------------------------------------------------------===//
// Probe
//===----------------------------------------------------------------------===//

static void rl_rocr_probe_agents(const rl_hsa_api_t* api,
                                 rl_rocr_probe_t* probe) {
  rl_rocr_agent_list_t list;
  rl_status_t status = rl_rocr_list_agents(api, &list);
  for (uint32_t i = 0; !status && i < list.count; ++i) {
    status = rl_rocr_describe_agent(api, list.agents[i],
                                    &probe->agents[probe->agent_count]);
    if (!status) ++probe->agent_count;
  }
  if (status) {
    snprintf(probe->error, sizeof(probe->error), "%s",
             rl_status_message(status));
    rl_status_free(status);
  }
}

void rl_rocr_probe(const char* library, rl_rocr_probe_t* out_probe) {
  rl_rocr_probe_t* probe = out_probe;
  memset(probe, 0, sizeof(*probe));
  rl_hsa_api_t api;
  rl_status_t status = rl_hsa_api_open(&api, library);
  snprintf(probe->tried, sizeof(probe->tried), "%s", api.library.tried);
  if (!status) {
    probe->loaded = true;
    snprintf(probe->library_path, sizeof(probe->library_path), "%s",
             api.library.path);
    status = RL_HSA_CALL(&api, hsa_init);
  }
  if (status) {
    snprintf(probe->error, sizeof(probe->error), "%s",
             rl_status_message(status));
    rl_status_free(status);
    if (probe->loaded) rl_hsa_api_close(&api);
    return;
  }
  probe->initialized = true;
  api.fn.hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR,
                             &probe->version_major);
  api.fn.hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MINOR,
                             &probe->version_minor);
  rl_rocr_probe_agents(&api, probe);
  api.fn.hsa_shut_down();
  rl_hsa_api_close(&api);
}
