// tests/standins/hsa/standin_hsa_memory.c — memory pools, allocation,
// access, pointer info and copies of the ROCr stand-in (standin_hsa.h
// "memory"). Pointers handed out are sim device addresses.
#include <string.h>

#include "sim/sim.h"
#include "tests/standins/hsa/standin_hsa.h"

rl_standin_allocation_t* rl_standin_find_allocation_locked(uint64_t address,
                                                           uint64_t size) {
  for (uint32_t i = 0; i < rl_standin.allocation_count; ++i) {
    rl_standin_allocation_t* item = &rl_standin.allocations[i];
    if (address >= item->address && address - item->address < item->size &&
        item->size - (address - item->address) >= size) {
      return item;
    }
  }
  return NULL;
}

static bool rl_standin_pool_known(uint64_t pool) {
  return pool == RL_STANDIN_KERNARG_POOL || pool == RL_STANDIN_DEVICE_POOL ||
         pool == RL_STANDIN_GROUP_POOL;
}

RL_STANDIN_EXPORT hsa_status_t hsa_amd_agent_iterate_memory_pools(
    hsa_agent_t agent,
    hsa_status_t (*callback)(hsa_amd_memory_pool_t memory_pool, void* data),
    void* data) {
  if (!rl_standin_live()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  static const uint64_t cpu_pools[] = {RL_STANDIN_KERNARG_POOL};
  static const uint64_t gpu_pools[] = {RL_STANDIN_DEVICE_POOL,
                                       RL_STANDIN_GROUP_POOL};
  const uint64_t* pools = NULL;
  size_t count = 0;
  if (agent.handle == RL_STANDIN_CPU_AGENT) {
    pools = cpu_pools;
    count = 1;
  } else if (agent.handle == RL_STANDIN_GPU_AGENT) {
    pools = gpu_pools;
    count = 2;
  } else {
    return HSA_STATUS_ERROR_INVALID_AGENT;
  }
  for (size_t i = 0; i < count; ++i) {
    hsa_status_t status = callback((hsa_amd_memory_pool_t){pools[i]}, data);
    if (status != HSA_STATUS_SUCCESS) return status;
  }
  return HSA_STATUS_SUCCESS;
}

RL_STANDIN_EXPORT hsa_status_t hsa_amd_memory_pool_get_info(
    hsa_amd_memory_pool_t memory_pool, hsa_amd_memory_pool_info_t attribute,
    void* value) {
  if (!rl_standin_live()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const uint64_t pool = memory_pool.handle;
  if (!rl_standin_pool_known(pool)) {
    return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;
  }
  const bool group = pool == RL_STANDIN_GROUP_POOL;
  switch (attribute) {
    case HSA_AMD_MEMORY_POOL_INFO_SEGMENT:
      *(hsa_amd_segment_t*)value =
          group ? HSA_AMD_SEGMENT_GROUP : HSA_AMD_SEGMENT_GLOBAL;
      break;
    case HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS:
      *(uint32_t*)value =
          pool == RL_STANDIN_KERNARG_POOL
              ? HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT |
                    HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED
              : group ? 0u : HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED;
      break;
    case HSA_AMD_MEMORY_POOL_INFO_SIZE:
      *(size_t*)value = group ? 65536u : (size_t)1 << 34;
      break;
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED:
      *(bool*)value = !group;
      break;
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE:
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT:
      *(size_t*)value = group ? 0u : 4096u;
      break;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

RL_STANDIN_EXPORT hsa_status_t hsa_amd_agent_memory_pool_get_info(
    hsa_agent_t agent, hsa_amd_memory_pool_t memory_pool,
    hsa_amd_agent_memory_pool_info_t attribute, void* value) {
  if (!rl_standin_live()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (attribute != HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  const uint64_t pool = memory_pool.handle;
  hsa_amd_memory_pool_access_t access = HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED;
  if (agent.handle == RL_STANDIN_GPU_AGENT) {
    access = pool == RL_STANDIN_KERNARG_POOL
                 ? HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT
                 : HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT;
  } else if (agent.handle == RL_STANDIN_CPU_AGENT) {
    // A discrete GPU's VRAM is not host-accessible.
    if (pool == RL_STANDIN_KERNARG_POOL) {
      access = HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT;
    }
  } else {
    return HSA_STATUS_ERROR_INVALID_AGENT;
  }
  *(hsa_amd_memory_pool_access_t*)value = access;
  return HSA_STATUS_SUCCESS;
}

RL_STANDIN_EXPORT hsa_status_t hsa_amd_memory_pool_allocate(
    hsa_amd_memory_pool_t memory_pool, size_t size, uint32_t flags,
    void** ptr) {
  if (!rl_standin_live()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const uint64_t pool = memory_pool.handle;
  if (!ptr || size == 0 || flags != 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (pool != RL_STANDIN_KERNARG_POOL && pool != RL_STANDIN_DEVICE_POOL) {
    return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;
  }
  pthread_mutex_lock(&rl_standin.lock);
  hsa_status_t result = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  rl_device_allocation_t allocation = {0};
  if (rl_standin.allocation_count < RL_STANDIN_MAX_ALLOCATIONS) {
    rl_status_t status = rl_standin.sim->vtable->allocate(
        rl_standin.sim, size, 4096,
        pool == RL_STANDIN_KERNARG_POOL ? RL_MEMORY_KIND_KERNARG
                                        : RL_MEMORY_KIND_DEVICE,
        &allocation);
    if (!status) {
      rl_standin.allocations[rl_standin.allocation_count++] =
          (rl_standin_allocation_t){allocation.address, size, pool, false};
      *ptr = (void*)(uintptr_t)allocation.address;
      result = HSA_STATUS_SUCCESS;
    }
    rl_status_free(status);
  }
  pthread_mutex_unlock(&rl_standin.lock);
  return result;
}

static void rl_standin_free_locked(uint32_t index) {
  rl_standin_allocation_t* item = &rl_standin.allocations[index];
  rl_status_free(rl_standin.sim->vtable->free(rl_standin.sim, item->address));
  *item = rl_standin.allocations[--rl_standin.allocation_count];
}

RL_STANDIN_EXPORT hsa_status_t hsa_amd_memory_pool_free(void* ptr) {
  if (!rl_standin_live()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  pthread_mutex_lock(&rl_standin.lock);
  const uint64_t address = (uint64_t)(uintptr_t)ptr;
  hsa_status_t result = HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (uint32_t i = 0; i < rl_standin.allocation_count; ++i) {
    if (rl_standin.allocations[i].address != address) continue;
    if (rl_standin_queue_any_busy_locked()) {
      rl_standin_note_busy_free();
      rl_standin_error("memory 0x%llx freed while a queue has packets in "
                       "flight", (unsigned long long)address);
    }
    rl_standin_free_locked(i);
    result = HSA_STATUS_SUCCESS;
    break;
  }
  pthread_mutex_unlock(&rl_standin.lock);
  return result;
}

void rl_standin_memory_release_all_locked(void) {
  while (rl_standin.allocation_count > 0) rl_standin_free_locked(0);
}

RL_STANDIN_EXPORT hsa_status_t hsa_amd_agents_allow_access(
    uint32_t num_agents, const hsa_agent_t* agents, const uint32_t* flags,
    const void* ptr) {
  if (!rl_standin_live()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (num_agents == 0 || !agents || flags) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  pthread_mutex_lock(&rl_standin.lock);
  rl_standin_allocation_t* item =
      rl_standin_find_allocation_locked((uint64_t)(uintptr_t)ptr, 1);
  hsa_status_t result = HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (item && item->address == (uint64_t)(uintptr_t)ptr) {
    for (uint32_t i = 0; i < num_agents; ++i) {
      if (agents[i].handle == RL_STANDIN_GPU_AGENT) item->gpu_allowed = true;
    }
    result = HSA_STATUS_SUCCESS;
  }
  pthread_mutex_unlock(&rl_standin.lock);
  return result;
}

RL_STANDIN_EXPORT hsa_status_t hsa_amd_pointer_info(
    const void* ptr, hsa_amd_pointer_info_t* info, void* (*alloc)(size_t),
    uint32_t* num_agents_accessible, hsa_agent_t** accessible) {
  (void)alloc;
  if (!rl_standin_live()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!ptr || !info || info->size < offsetof(hsa_amd_pointer_info_t, userData)) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  if (num_agents_accessible) *num_agents_accessible = 0;
  if (accessible) *accessible = NULL;
  const uint32_t size = info->size;
  memset(info, 0, size);
  info->size = size;
  pthread_mutex_lock(&rl_standin.lock);
  const rl_standin_allocation_t* item =
      rl_standin_find_allocation_locked((uint64_t)(uintptr_t)ptr, 1);
  if (!item) {
    info->type = HSA_EXT_POINTER_TYPE_UNKNOWN;
  } else {
    info->type = HSA_EXT_POINTER_TYPE_HSA;
    info->agentBaseAddress = (void*)(uintptr_t)item->address;
    info->hostBaseAddress =
        item->pool == RL_STANDIN_KERNARG_POOL
            ? rl_sim_translate(rl_standin.sim, item->address, item->size)
            : NULL;
    info->sizeInBytes = item->size;
  }
  pthread_mutex_unlock(&rl_standin.lock);
  return HSA_STATUS_SUCCESS;
}

// The host bytes behind |pointer|: the sim's view of a sim address (false
// when it is not inside one allocation), else the pointer itself (host
// memory; sim addresses lie in a range host pointers do not use, sim.h).
static bool rl_standin_resolve(const void* pointer, size_t size,
                               void** out_bytes) {
  const uint64_t address = (uint64_t)(uintptr_t)pointer;
  if (address < RL_SIM_VA_BASE || address >= RL_SIM_VA_END) {
    *out_bytes = (void*)pointer;
    return true;
  }
  *out_bytes = rl_sim_translate(rl_standin.sim, address, size);
  return *out_bytes != NULL;
}

RL_STANDIN_EXPORT hsa_status_t hsa_memory_copy(void* dst, const void* src,
                                               size_t size) {
  if (!rl_standin_live()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!dst || !src) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (size == 0) return HSA_STATUS_SUCCESS;
  void* to = NULL;
  void* from = NULL;
  if (!rl_standin_resolve(dst, size, &to) ||
      !rl_standin_resolve(src, size, &from)) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  memmove(to, from, size);
  return HSA_STATUS_SUCCESS;
}
