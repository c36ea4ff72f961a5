// tests/standins/drm/standin_drm.c — a stand-in for libdrm_amdgpu.so.1,
// built for tests only, over redline's simulated GPU (sim/sim.h).
// Selected only through REDLINE_DRM_LIBRARY=PATH; never installed. It
// implements exactly the functions of redline/backends/drm_symbols.h from
// amdgpu.h, with the real prototypes (the definitions are checked against
// Debian's header). standin_drm_hooks.h lists the misuse it detects and
// its environment.
//
// How it maps onto the simulator (one rl_sim device per
// amdgpu_device_initialize):
//   VA ranges   amdgpu_va_range_alloc takes a sim allocation of the range
//               (at va_base_required when given): GPU VAs are sim
//               addresses, which the host cannot dereference.
//   BOs         amdgpu_bo_alloc records the size; amdgpu_bo_va_op MAP backs
//               the BO with the range's sim memory; amdgpu_bo_cpu_map
//               returns the sim's host view of it (so a BO must be mapped
//               before it is CPU-mapped: a stand-in limitation).
//   contexts    one sim AQL queue per device; each submission is the
//               vendor PM4-IB packet (an INDIRECT_BUFFER to the IB) with a
//               fresh sim signal as its completion; the sequence number
//               names that signal, and amdgpu_cs_query_fence_status waits
//               on it with the caller's relative timeout.
//   code        see REDLINE_STANDIN_DRM_CODE_OBJECTS in the hooks header.
//
// Thread-safety: one global lock around every entry point.
#include <amdgpu.h>
#include <amdgpu_drm.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "aql/aql_packet.h"
#include "redline/device/device_ring.h"
#include "kernels/ref/ref_executor.h"
#include "pm4/pm4_builder.h"
#include "pm4/pm4_family.h"
#include "sim/sim.h"
#include "tests/standins/drm/standin_drm_hooks.h"

#define RL_EXPORT __attribute__((visibility("default")))
#define RL_STANDIN_DRM_QUEUE_PACKETS 1024u
#define RL_STANDIN_DRM_MAX_SUBMISSIONS 4096u
#define RL_STANDIN_DRM_MAX_CODE 64u
// amdgpu_device_initialize's version (the amdgpu KMS driver 3.x).
#define RL_STANDIN_DRM_MAJOR 3
#define RL_STANDIN_DRM_MINOR 54
// libdrm's own magic numbers are not ABI; these mark live stand-in objects.
#define RL_LIVE 0x11fe11feu
#define RL_DEAD 0xdeadbeefu

struct amdgpu_va {
  uint32_t magic;
  struct amdgpu_device* device;
  rl_device_allocation_t memory;  // the sim allocation of the range
  struct amdgpu_bo* bound;
};

struct amdgpu_bo {
  uint32_t magic;
  struct amdgpu_device* device;
  uint64_t size;
  struct amdgpu_va* va;  // the mapping, or NULL
  void* cpu;             // CPU map, or NULL
  bool code_checked;     // looked at for a code object image
  bool code_registered;  // its VA is a registered sim code object
};

struct amdgpu_bo_list {
  uint32_t magic;
  uint32_t count;
  struct amdgpu_bo** bos;
};

typedef struct rl_standin_submission_s {
  struct amdgpu_context* context;
  uint64_t seq;
  uint64_t signal;  // sim signal; 0 once completed and released
  bool done;
} rl_standin_submission_t;

struct amdgpu_context {
  uint32_t magic;
  struct amdgpu_device* device;
  uint64_t last_seq;
  struct amdgpu_context* dead_next;  // freed contexts, kept until deinit
};

typedef struct rl_standin_code_s {
  void* bytes;
  size_t size;
  rl_code_object_t* parsed;
} rl_standin_code_t;

struct amdgpu_device {
  uint32_t magic;
  rl_device_t* sim;
  char processor[16];      // what the device reports
  uint32_t family;
  uint32_t external_rev;
  const rl_pm4_family_t* pm4;
  rl_device_queue_t queue;
  bool queue_live;
  rl_aql_ring_t ring;
  bool hang;
  rl_standin_submission_t submissions[RL_STANDIN_DRM_MAX_SUBMISSIONS];
  uint32_t submission_count;
  rl_standin_code_t code[RL_STANDIN_DRM_MAX_CODE];
  uint32_t code_count;
  bool code_loaded;
  struct amdgpu_va** vas;  // live VA ranges
  uint32_t va_count;
  uint32_t va_capacity;
  struct amdgpu_context* dead_contexts;
};

static pthread_mutex_t rl_lock = PTHREAD_MUTEX_INITIALIZER;

//===----------------------------------------------------------------------===//
// Misuse record and hooks
//===----------------------------------------------------------------------===//

#define RL_ERRORS_KEPT 64u
static char rl_errors[RL_ERRORS_KEPT][256];
static uint32_t rl_error_total;
static uint32_t rl_submitted;

__attribute__((format(printf, 1, 2))) static int rl_error(const char* format,
                                                          ...) {
  if (rl_error_total < RL_ERRORS_KEPT) {
    va_list args;
    va_start(args, format);
    vsnprintf(rl_errors[rl_error_total], sizeof(rl_errors[0]), format, args);
    va_end(args);
  }
  ++rl_error_total;
  return -EINVAL;
}

RL_EXPORT uint32_t rl_standin_drm_error_count(void) { return rl_error_total; }
RL_EXPORT const char* rl_standin_drm_error(uint32_t index) {
  return index < RL_ERRORS_KEPT && index < rl_error_total ? rl_errors[index]
                                                          : "";
}
RL_EXPORT void rl_standin_drm_clear_errors(void) {
  pthread_mutex_lock(&rl_lock);
  rl_error_total = 0;
  pthread_mutex_unlock(&rl_lock);
}
RL_EXPORT uint32_t rl_standin_drm_submissions(void) { return rl_submitted; }

__attribute__((destructor)) static void rl_write_report(void) {
  const char* path = getenv("REDLINE_STANDIN_REPORT");
  if (!path || !path[0]) return;
  FILE* file = fopen(path, "w");
  if (!file) return;
  fprintf(file, "errors %u\nsubmissions %u\n", rl_error_total, rl_submitted);
  for (uint32_t i = 0; i < rl_error_total && i < RL_ERRORS_KEPT; ++i) {
    fprintf(file, "error: %s\n", rl_errors[i]);
  }
  fclose(file);
}

#define RL_CHECK(object, what)                                         \
  do {                                                                 \
    if (!(object) || (object)->magic != RL_LIVE) {                     \
      int rl_rc_ = rl_error("%s: %s handle %p is not live", __func__, \
                            what, (const void*)(object));              \
      pthread_mutex_unlock(&rl_lock);                                  \
      return rl_rc_;                                                   \
    }                                                                  \
  } while (0)

//===----------------------------------------------------------------------===//
// Device
//===----------------------------------------------------------------------===//

static const struct {
  const char* name;
  uint32_t family;
  uint32_t external_rev;
  const char* sim;
} rl_targets[] = {
    {"gfx1100", 145, 0x01, "gfx1100"}, {"gfx1151", 150, 0xC1, "gfx1151"},
    {"gfx1201", 152, 0x50, "gfx1201"}, {"gfx1101", 145, 0x20, "gfx1100"},
    {"gfx1030", 143, 0x28, "gfx1100"},
};

RL_EXPORT int amdgpu_device_initialize(int fd, uint32_t* major_version,
                                       uint32_t* minor_version,
                                       amdgpu_device_handle* device_handle) {
  *device_handle = NULL;
  struct stat info;
  if (fstat(fd, &info) != 0) return -errno;
  if (!S_ISCHR(info.st_mode) && !S_ISREG(info.st_mode)) return -ENODEV;
  const char* name = getenv("REDLINE_STANDIN_DRM_TARGET");
  if (!name || !name[0]) name = "gfx1100";
  size_t t = 0;
  while (t < sizeof(rl_targets) / sizeof(rl_targets[0]) &&
         strcmp(rl_targets[t].name, name) != 0) {
    ++t;
  }
  if (t == sizeof(rl_targets) / sizeof(rl_targets[0])) return -ENODEV;
  struct amdgpu_device* device = calloc(1, sizeof(*device));
  if (!device) return -ENOMEM;
  snprintf(device->processor, sizeof(device->processor), "%s", name);
  device->family = rl_targets[t].family;
  device->external_rev = rl_targets[t].external_rev;
  const char* hang = getenv("REDLINE_STANDIN_DRM_HANG");
  device->hang = hang && hang[0] && strcmp(hang, "0") != 0;
  const rl_sim_options_t options = {.processor = rl_targets[t].sim,
                                    .executor = rl_ref_executor()};
  rl_status_t status = rl_sim_device_create(&options, &device->sim);
  if (!status) status = rl_pm4_family_for_processor(rl_targets[t].sim,
                                                    &device->pm4);
  if (!status) {
    status = device->sim->vtable->queue_create(
        device->sim, RL_STANDIN_DRM_QUEUE_PACKETS, &device->queue);
    device->queue_live = status == RL_OK;
  }
  if (status) {
    rl_status_free(status);
    if (device->sim) device->sim->vtable->destroy(device->sim);
    free(device);
    return -ENOMEM;
  }
  rl_device_aql_ring_init(&device->ring, device->sim, &device->queue);
  device->magic = RL_LIVE;
  *major_version = RL_STANDIN_DRM_MAJOR;
  *minor_version = RL_STANDIN_DRM_MINOR;
  *device_handle = device;
  return 0;
}

static void rl_code_release(struct amdgpu_device* device) {
  for (uint32_t i = 0; i < device->code_count; ++i) {
    rl_code_object_destroy(device->code[i].parsed);
    free(device->code[i].bytes);
  }
  device->code_count = 0;
}

RL_EXPORT int amdgpu_device_deinitialize(amdgpu_device_handle device) {
  pthread_mutex_lock(&rl_lock);
  RL_CHECK(device, "device");
  // The queue stops whatever it is doing (sim.h); then the sim frees every
  // allocation still live.
  if (device->queue_live) {
    rl_status_free(device->sim->vtable->queue_destroy(device->sim,
                                                      &device->queue));
  }
  device->sim->vtable->destroy(device->sim);
  rl_code_release(device);
  for (uint32_t i = 0; i < device->va_count; ++i) free(device->vas[i]);
  free(device->vas);
  while (device->dead_contexts) {
    struct amdgpu_context* next = device->dead_contexts->dead_next;
    free(device->dead_contexts);
    device->dead_contexts = next;
  }
  device->magic = RL_DEAD;
  free(device);
  pthread_mutex_unlock(&rl_lock);
  return 0;
}

RL_EXPORT int amdgpu_query_gpu_info(amdgpu_device_handle device,
                                    struct amdgpu_gpu_info* info) {
  pthread_mutex_lock(&rl_lock);
  RL_CHECK(device, "device");
  memset(info, 0, sizeof(*info));
  info->asic_id = 0x744C;
  info->family_id = device->family;
  info->chip_external_rev = device->external_rev;
  info->chip_rev = device->external_rev & 0x0F;
  info->gpu_counter_freq = 100000;  // kHz: the sim's 100 MHz counter
  info->num_shader_engines = 1;
  pthread_mutex_unlock(&rl_lock);
  return 0;
}

RL_EXPORT int amdgpu_query_info(amdgpu_device_handle device, unsigned info_id,
                                unsigned size, void* value) {
  pthread_mutex_lock(&rl_lock);
  RL_CHECK(device, "device");
  int rc = -EINVAL;
  if (info_id == AMDGPU_INFO_TIMESTAMP && size >= sizeof(uint64_t)) {
    uint64_t now = device->sim->vtable->timestamp(device->sim);
    memcpy(value, &now, sizeof(now));
    rc = 0;
  }
  pthread_mutex_unlock(&rl_lock);
  return rc;
}

RL_EXPORT int amdgpu_query_hw_ip_info(amdgpu_device_handle device,
                                      unsigned type, unsigned ip_instance,
                                      struct drm_amdgpu_info_hw_ip* info) {
  pthread_mutex_lock(&rl_lock);
  RL_CHECK(device, "device");
  memset(info, 0, sizeof(*info));
  int rc = -EINVAL;
  if (type == AMDGPU_HW_IP_COMPUTE && ip_instance == 0) {
    info->hw_ip_version_major = device->family >= 152 ? 12 : 11;
    info->available_rings = 1;
    info->ib_start_alignment = 32;
    info->ib_size_alignment = 4;
    rc = 0;
  }
  pthread_mutex_unlock(&rl_lock);
  return rc;
}

//===----------------------------------------------------------------------===//
// Contexts
//===----------------------------------------------------------------------===//

RL_EXPORT int amdgpu_cs_ctx_create(amdgpu_device_handle device,
                                   amdgpu_context_handle* context) {
  pthread_mutex_lock(&rl_lock);
  RL_CHECK(device, "device");
  struct amdgpu_context* created = calloc(1, sizeof(*created));
  if (!created) {
    pthread_mutex_unlock(&rl_lock);
    return -ENOMEM;
  }
  created->magic = RL_LIVE;
  created->device = device;
  *context = created;
  pthread_mutex_unlock(&rl_lock);
  return 0;
}

// Releases the sim signals of |context|'s completed submissions, or all of
// them when |all|.
static void rl_release_submissions(struct amdgpu_device* device,
                                   struct amdgpu_context* context, bool all) {
  for (uint32_t i = 0; i < device->submission_count; ++i) {
    rl_standin_submission_t* s = &device->submissions[i];
    if (s->context != context || !s->signal || (!all && !s->done)) continue;
    rl_status_free(device->sim->vtable->signal_destroy(device->sim,
                                                       s->signal));
    s->signal = 0;
  }
}

RL_EXPORT int amdgpu_cs_ctx_free(amdgpu_context_handle context) {
  pthread_mutex_lock(&rl_lock);
  RL_CHECK(context, "context");
  struct amdgpu_device* device = context->device;
  // A submission still running keeps its signal: the queue may yet
  // decrement it (the sim frees it with the device).
  rl_release_submissions(device, context, false);
  for (uint32_t i = 0; i < device->submission_count; ++i) {
    if (device->submissions[i].context == context) {
      device->submissions[i].context = NULL;
    }
  }
  context->magic = RL_DEAD;
  // Kept until the device goes, so a later use of the handle is detected
  // instead of being a use-after-free.
  context->dead_next = device->dead_contexts;
  device->dead_contexts = context;
  pthread_mutex_unlock(&rl_lock);
  return 0;
}

//===----------------------------------------------------------------------===//
// Buffer objects and VA ranges
//===----------------------------------------------------------------------===//

RL_EXPORT int amdgpu_bo_alloc(amdgpu_device_handle device,
                              struct amdgpu_bo_alloc_request* request,
                              amdgpu_bo_handle* buf_handle) {
  pthread_mutex_lock(&rl_lock);
  RL_CHECK(device, "device");
  *buf_handle = NULL;
  if (request->alloc_size == 0) {
    pthread_mutex_unlock(&rl_lock);
    return -EINVAL;
  }
  struct amdgpu_bo* bo = calloc(1, sizeof(*bo));
  if (!bo) {
    pthread_mutex_unlock(&rl_lock);
    return -ENOMEM;
  }
  bo->magic = RL_LIVE;
  bo->device = device;
  bo->size = request->alloc_size;
  *buf_handle = bo;
  pthread_mutex_unlock(&rl_lock);
  return 0;
}

static void rl_bo_code_forget(struct amdgpu_bo* bo) {
  if (bo->code_registered) {
    rl_sim_unregister_code_object(bo->device->sim, bo->va->memory.address);
  }
  bo->code_registered = false;
  bo->code_checked = false;
}

RL_EXPORT int amdgpu_bo_free(amdgpu_bo_handle bo) {
  pthread_mutex_lock(&rl_lock);
  RL_CHECK(bo, "bo");
  int rc = 0;
  if (bo->va || bo->cpu) {
    rc = rl_error("amdgpu_bo_free: BO still %s",
                  bo->va ? "VA-mapped" : "CPU-mapped");
    if (bo->va) {
      rl_bo_code_forget(bo);
      bo->va->bound = NULL;
    }
  }
  bo->magic = RL_DEAD;
  free(bo);
  pthread_mutex_unlock(&rl_lock);
  return rc;
}

RL_EXPORT int amdgpu_va_range_alloc(amdgpu_device_handle device,
                                    enum amdgpu_gpu_va_range va_range_type,
                                    uint64_t size, uint64_t va_base_alignment,
                                    uint64_t va_base_required,
                                    uint64_t* va_base_allocated,
                                    amdgpu_va_handle* va_range_handle,
                                    uint64_t flags) {
  (void)flags;
  pthread_mutex_lock(&rl_lock);
  RL_CHECK(device, "device");
  *va_base_allocated = 0;
  *va_range_handle = NULL;
  if (va_range_type != amdgpu_gpu_va_range_general || size == 0) {
    pthread_mutex_unlock(&rl_lock);
    return -EINVAL;
  }
  struct amdgpu_va* va = calloc(1, sizeof(*va));
  if (!va) {
    pthread_mutex_unlock(&rl_lock);
    return -ENOMEM;
  }
  rl_device_t* sim = device->sim;
  rl_status_t status =
      va_base_required
          ? sim->vtable->allocate_fixed(sim, va_base_required, size,
                                        RL_MEMORY_KIND_DEVICE, &va->memory)
          : sim->vtable->allocate(sim, size, va_base_alignment,
                                  RL_MEMORY_KIND_DEVICE, &va->memory);
  if (status) {
    rl_status_free(status);
    free(va);
    pthread_mutex_unlock(&rl_lock);
    return -ENOMEM;
  }
  if (device->va_count == device->va_capacity) {
    uint32_t capacity = device->va_capacity ? 2 * device->va_capacity : 64;
    struct amdgpu_va** grown = realloc(device->vas, capacity * sizeof(*grown));
    if (!grown) {
      rl_status_free(sim->vtable->free(sim, va->memory.address));
      free(va);
      pthread_mutex_unlock(&rl_lock);
      return -ENOMEM;
    }
    device->vas = grown;
    device->va_capacity = capacity;
  }
  device->vas[device->va_count++] = va;
  va->magic = RL_LIVE;
  va->device = device;
  *va_base_allocated = va->memory.address;
  *va_range_handle = va;
  pthread_mutex_unlock(&rl_lock);
  return 0;
}

RL_EXPORT int amdgpu_va_range_free(amdgpu_va_handle va_range_handle) {
  pthread_mutex_lock(&rl_lock);
  RL_CHECK(va_range_handle, "va range");
  struct amdgpu_va* va = va_range_handle;
  int rc = 0;
  if (va->bound) {
    rc = rl_error("amdgpu_va_range_free: range 0x%llx still maps a BO",
                  (unsigned long long)va->memory.address);
  } else {
    struct amdgpu_device* device = va->device;
    rl_status_free(device->sim->vtable->free(device->sim, va->memory.address));
    for (uint32_t i = 0; i < device->va_count; ++i) {
      if (device->vas[i] == va) device->vas[i] = device->vas[--device->va_count];
    }
    va->magic = RL_DEAD;
    free(va);
  }
  pthread_mutex_unlock(&rl_lock);
  return rc;
}

static struct amdgpu_va* rl_find_va_locked(struct amdgpu_device* device,
                                           uint64_t address);

RL_EXPORT int amdgpu_bo_va_op(amdgpu_bo_handle bo, uint64_t offset,
                              uint64_t size, uint64_t addr, uint64_t flags,
                              uint32_t ops) {
  (void)flags;
  pthread_mutex_lock(&rl_lock);
  RL_CHECK(bo, "bo");
  int rc = 0;
  if (ops == AMDGPU_VA_OP_MAP) {
    struct amdgpu_va* va = rl_find_va_locked(bo->device, addr);
    if (offset != 0 || !va || va->bound || bo->va ||
        size > va->memory.size || bo->size > va->memory.size) {
      rc = rl_error("amdgpu_bo_va_op MAP: 0x%llx+%llu is not a free range "
                    "of this device that holds the BO",
                    (unsigned long long)addr, (unsigned long long)size);
    } else {
      va->bound = bo;
      bo->va = va;
    }
  } else if (ops == AMDGPU_VA_OP_UNMAP) {
    if (!bo->va || bo->va->memory.address != addr) {
      rc = rl_error("amdgpu_bo_va_op UNMAP: the BO is not mapped at 0x%llx",
                    (unsigned long long)addr);
    } else {
      rl_bo_code_forget(bo);
      bo->va->bound = NULL;
      bo->va = NULL;
    }
  } else {
    rc = -EINVAL;
  }
  pthread_mutex_unlock(&rl_lock);
  return rc;
}

RL_EXPORT int amdgpu_bo_cpu_map(amdgpu_bo_handle bo, void** cpu) {
  pthread_mutex_lock(&rl_lock);
  RL_CHECK(bo, "bo");
  *cpu = NULL;
  int rc = 0;
  if (!bo->va) {
    rc = rl_error("amdgpu_bo_cpu_map: the stand-in maps only VA-mapped BOs");
  } else {
    bo->cpu = rl_sim_translate(bo->device->sim, bo->va->memory.address,
                               bo->size);
    *cpu = bo->cpu;
    if (!bo->cpu) rc = -EFAULT;
  }
  pthread_mutex_unlock(&rl_lock);
  return rc;
}

RL_EXPORT int amdgpu_bo_cpu_unmap(amdgpu_bo_handle bo) {
  pthread_mutex_lock(&rl_lock);
  RL_CHECK(bo, "bo");
  int rc = bo->cpu ? 0 : rl_error("amdgpu_bo_cpu_unmap: not CPU-mapped");
  bo->cpu = NULL;
  pthread_mutex_unlock(&rl_lock);
  return rc;
}

static struct amdgpu_va* rl_find_va_locked(struct amdgpu_device* device,
                                           uint64_t address) {
  for (uint32_t i = 0; i < device->va_count; ++i) {
    if (device->vas[i]->memory.address == address) return device->vas[i];
  }
  return NULL;
}

//===----------------------------------------------------------------------===//
// Buffer lists
//===----------------------------------------------------------------------===//

RL_EXPORT int amdgpu_bo_list_create(amdgpu_device_handle device,
                                    uint32_t number_of_resources,
                                    amdgpu_bo_handle* resources,
                                    uint8_t* resource_prios,
                                    amdgpu_bo_list_handle* result) {
  (void)resource_prios;
  pthread_mutex_lock(&rl_lock);
  RL_CHECK(device, "device");
  *result = NULL;
  struct amdgpu_bo_list* list = calloc(1, sizeof(*list));
  struct amdgpu_bo** bos = calloc(number_of_resources + 1u, sizeof(*bos));
  if (!list || !bos) {
    free(list);
    free(bos);
    pthread_mutex_unlock(&rl_lock);
    return -ENOMEM;
  }
  for (uint32_t i = 0; i < number_of_resources; ++i) {
    if (!resources[i] || resources[i]->magic != RL_LIVE ||
        resources[i]->device != device) {
      free(list);
      free(bos);
      int rc = rl_error("amdgpu_bo_list_create: resource %u is not a live "
                        "BO of this device", i);
      pthread_mutex_unlock(&rl_lock);
      return rc;
    }
    bos[i] = resources[i];
  }
  list->magic = RL_LIVE;
  list->count = number_of_resources;
  list->bos = bos;
  *result = list;
  pthread_mutex_unlock(&rl_lock);
  return 0;
}

RL_EXPORT int amdgpu_bo_list_destroy(amdgpu_bo_list_handle list) {
  pthread_mutex_lock(&rl_lock);
  RL_CHECK(list, "bo list");
  list->magic = RL_DEAD;
  free(list->bos);
  free(list);
  pthread_mutex_unlock(&rl_lock);
  return 0;
}

//===----------------------------------------------------------------------===//
// Code objects
//===----------------------------------------------------------------------===//

static void rl_code_load_dir(struct amdgpu_device* device) {
  device->code_loaded = true;
  const char* dir = getenv("REDLINE_STANDIN_DRM_CODE_OBJECTS");
  if (!dir || !dir[0]) dir = RL_STANDIN_DRM_KERNELS_DIR;
  DIR* handle = opendir(dir);
  if (!handle) return;
  struct dirent* entry;
  while ((entry = readdir(handle)) && device->code_count < RL_STANDIN_DRM_MAX_CODE) {
    size_t length = strlen(entry->d_name);
    if (length < 4 || strcmp(entry->d_name + length - 3, ".co") != 0) continue;
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, entry->d_name);
    FILE* file = fopen(path, "rb");
    if (!file) continue;
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    void* bytes = size > 0 ? malloc((size_t)size) : NULL;
    bool read = bytes && fread(bytes, 1, (size_t)size, file) == (size_t)size;
    fclose(file);
    rl_code_object_t* parsed = NULL;
    rl_status_t status = read ? rl_code_object_parse(bytes, (size_t)size,
                                                     &parsed)
                              : RL_STATUS(RL_STATUS_INTERNAL, "read %s", path);
    if (status) {
      rl_status_free(status);
      free(bytes);
      continue;
    }
    device->code[device->code_count++] =
        (rl_standin_code_t){bytes, (size_t)size, parsed};
  }
  closedir(handle);
}

// Registers |bo| with the sim when it holds one of the known code objects
// laid out for its VA.
static void rl_code_recognise(struct amdgpu_bo* bo) {
  bo->code_checked = true;
  const uint8_t* host = bo->cpu ? bo->cpu
                                : rl_sim_translate(bo->device->sim,
                                                   bo->va->memory.address,
                                                   bo->size);
  if (!host || bo->size < 4 || memcmp(host, "\177ELF", 4) != 0) return;
  struct amdgpu_device* device = bo->device;
  if (!device->code_loaded) rl_code_load_dir(device);
  for (uint32_t i = 0; i < device->code_count; ++i) {
    const rl_standin_code_t* code = &device->code[i];
    uint64_t image_size = code->parsed->image_size;
    if (image_size > bo->size) continue;
    void* image = malloc(image_size);
    if (!image) return;
    rl_status_t status = rl_code_object_load_image(
        code->parsed, code->bytes, code->size, bo->va->memory.address, image,
        image_size);
    bool same = !status && memcmp(image, host, image_size) == 0;
    rl_status_free(status);
    free(image);
    if (!same) continue;
    status = rl_sim_register_code_object(device->sim, code->parsed,
                                         bo->va->memory.address);
    bo->code_registered = status == RL_OK;
    rl_status_free(status);
    return;
  }
}

//===----------------------------------------------------------------------===//
// Submission and fences
//===----------------------------------------------------------------------===//

static const struct amdgpu_bo* rl_list_find(const struct amdgpu_bo_list* list,
                                            uint64_t address, uint64_t size) {
  for (uint32_t i = 0; i < list->count; ++i) {
    const struct amdgpu_bo* bo = list->bos[i];
    if (bo->magic != RL_LIVE || !bo->va) continue;
    uint64_t base = bo->va->memory.address;
    if (address >= base && size <= bo->size && address - base <= bo->size - size) {
      return bo;
    }
  }
  return NULL;
}

static int rl_submit_locked(struct amdgpu_context* context,
                            struct amdgpu_cs_request* request) {
  struct amdgpu_device* device = context->device;
  if (request->ip_type != AMDGPU_HW_IP_COMPUTE || request->ip_instance != 0 ||
      request->ring != 0 || request->number_of_ibs != 1 || !request->ibs) {
    return rl_error("amdgpu_cs_submit: expected one IB on compute ring 0");
  }
  struct amdgpu_bo_list* list = request->resources;
  if (!list || list->magic != RL_LIVE) {
    return rl_error("amdgpu_cs_submit: no live BO list");
  }
  const struct amdgpu_cs_ib_info* ib = request->ibs;
  uint64_t bytes = 4ull * ib->size;
  if (ib->size == 0 || !rl_list_find(list, ib->ib_mc_address, bytes)) {
    return rl_error("amdgpu_cs_submit: the IB at 0x%llx (%u dwords) is not "
                    "inside a BO of the submission's list",
                    (unsigned long long)ib->ib_mc_address, ib->size);
  }
  if (device->submission_count == RL_STANDIN_DRM_MAX_SUBMISSIONS) {
    return -ENOMEM;
  }
  for (uint32_t i = 0; i < list->count; ++i) {
    if (list->bos[i]->va && !list->bos[i]->code_checked) {
      rl_code_recognise(list->bos[i]);
    }
  }
  rl_device_t* sim = device->sim;
  rl_device_allocation_t signal;
  rl_status_t status = sim->vtable->signal_create(sim, 1, &signal);
  rl_aql_pm4_ib_packet_t packet;
  memset(&packet, 0, sizeof(packet));
  rl_pm4_builder_t jump;
  rl_pm4_builder_init(&jump, device->pm4, packet.ib_jump_cmd, 4);
  if (!status && !rl_pm4_emit_indirect_buffer(&jump, ib->ib_mc_address,
                                              ib->size, false, NULL)) {
    status = RL_STATUS(RL_STATUS_INTERNAL, "INDIRECT_BUFFER refused");
  }
  packet.header = rl_aql_header(RL_AQL_PACKET_TYPE_VENDOR_SPECIFIC, 1,
                                RL_AQL_FENCE_SCOPE_SYSTEM,
                                RL_AQL_FENCE_SCOPE_SYSTEM);
  packet.vendor_format = RL_AQL_VENDOR_FORMAT_PM4_IB;
  packet.dw_cnt_remain = 0xA;  // ROCR amd_aql_pm4_ib
  packet.completion_signal = signal.address;
  uint64_t id = 0;
  if (!status) status = rl_aql_ring_reserve(&device->ring, 1, 1000000000ull,
                                            &id);
  if (status) {
    rl_status_free(status);
    return -ECANCELED;
  }
  rl_aql_ring_emit(&device->ring, id, &packet);
  rl_aql_ring_commit(&device->ring, id, rl_aql_header_word(&packet));
  if (device->hang) rl_sim_inject_hang(sim, &device->queue, id);
  rl_aql_ring_doorbell(&device->ring, id);
  request->seq_no = ++context->last_seq;
  device->submissions[device->submission_count++] =
      (rl_standin_submission_t){context, request->seq_no, signal.address,
                                false};
  ++rl_submitted;
  return 0;
}

RL_EXPORT int amdgpu_cs_submit(amdgpu_context_handle context, uint64_t flags,
                               struct amdgpu_cs_request* ibs_request,
                               uint32_t number_of_requests) {
  (void)flags;
  pthread_mutex_lock(&rl_lock);
  if (!context || context->magic != RL_LIVE) {
    int rc = rl_error("amdgpu_cs_submit: context %p is not live (destroyed?)",
                      (void*)context);
    pthread_mutex_unlock(&rl_lock);
    return rc;
  }
  int rc = 0;
  for (uint32_t i = 0; i < number_of_requests && rc == 0; ++i) {
    rc = rl_submit_locked(context, &ibs_request[i]);
  }
  pthread_mutex_unlock(&rl_lock);
  return rc;
}

RL_EXPORT int amdgpu_cs_query_fence_status(struct amdgpu_cs_fence* fence,
                                           uint64_t timeout_ns,
                                           uint64_t flags,
                                           uint32_t* expired) {
  (void)flags;
  *expired = 0;
  pthread_mutex_lock(&rl_lock);
  struct amdgpu_context* context = fence->context;
  if (!context || context->magic != RL_LIVE) {
    int rc = rl_error("amdgpu_cs_query_fence_status: context %p is not live",
                      (void*)context);
    pthread_mutex_unlock(&rl_lock);
    return rc;
  }
  struct amdgpu_device* device = context->device;
  rl_standin_submission_t* found = NULL;
  for (uint32_t i = 0; i < device->submission_count; ++i) {
    rl_standin_submission_t* s = &device->submissions[i];
    if (s->context == context && s->seq == fence->fence) found = s;
  }
  if (!found || fence->ip_type != AMDGPU_HW_IP_COMPUTE || fence->ring != 0) {
    int rc = rl_error("amdgpu_cs_query_fence_status: fence %llu was never "
                      "submitted on this context's compute ring 0",
                      (unsigned long long)fence->fence);
    pthread_mutex_unlock(&rl_lock);
    return rc;
  }
  rl_device_t* sim = device->sim;
  int rc = 0;
  if (!found->done) {
    uint64_t signal = found->signal;
    // Waits without the lock: the sim's CP thread completes the signal.
    pthread_mutex_unlock(&rl_lock);
    int64_t value = 1;
    bool done = sim->vtable->signal_wait_lt(sim, signal, 1, timeout_ns,
                                            &value);
    pthread_mutex_lock(&rl_lock);
    rl_device_fault_t fault = {0};
    sim->vtable->queue_fault(sim, &device->queue, &fault);
    if (fault.faulted) {
      rc = -ECANCELED;  // the context is lost, as after a GPU reset
      rl_error("GPU fault: %s", fault.message);
    } else if (done) {
      found->done = true;
      rl_release_submissions(device, context, false);
    }
  }
  *expired = found->done ? 1 : 0;
  pthread_mutex_unlock(&rl_lock);
  return rc;
}
