// sim/mem/sim_loader.c — code objects on the simulated device.
//
// A code object is loaded like the HSA loader does it: one device
// allocation of the PT_LOAD image (rl_code_object_load_image lays the
// segments out and applies relocations for the chosen load base), and every
// kernel's object is load base + descriptor_address. The kernel-object table
// (sorted, binary-searched) is what the command processor validates a
// dispatch's kernel_object against: anything else is not a kernel.
//
// PM4 dispatches name a kernel by its first instruction instead
// (COMPUTE_PGM_LO/HI): rl_sim_loader_find_entry() looks entries up by it.
//
// The table keeps pointers into the caller's parsed rl_code_object_t, which
// must therefore outlive the load (device.h load_code_object contract).
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "sim/mem/sim_mem.h"

void rl_sim_loader_init(rl_sim_loader_t* loader) {
  memset(loader, 0, sizeof(*loader));
  pthread_mutex_init(&loader->lock, NULL);
}

void rl_sim_loader_deinit(rl_sim_loader_t* loader) {
  free(loader->items);
  pthread_mutex_destroy(&loader->lock);
  memset(loader, 0, sizeof(*loader));
}

// Index of the first entry with kernel_object >= |kernel_object|.
static uint32_t rl_sim_loader_lower_bound_locked(const rl_sim_loader_t* loader,
                                                 uint64_t kernel_object) {
  uint32_t low = 0;
  uint32_t high = loader->count;
  while (low < high) {
    uint32_t mid = low + (high - low) / 2;
    if (loader->items[mid].kernel_object < kernel_object) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return low;
}

bool rl_sim_loader_find(rl_sim_loader_t* loader, uint64_t kernel_object,
                        rl_sim_loaded_kernel_t* out_kernel) {
  pthread_mutex_lock(&loader->lock);
  uint32_t index = rl_sim_loader_lower_bound_locked(loader, kernel_object);
  bool found = index < loader->count &&
               loader->items[index].kernel_object == kernel_object;
  if (found) *out_kernel = loader->items[index];
  pthread_mutex_unlock(&loader->lock);
  return found;
}

bool rl_sim_loader_find_entry(rl_sim_loader_t* loader, uint64_t entry_address,
                              rl_sim_loaded_kernel_t* out_kernel) {
  // A linear scan: PM4 dispatches are rare next to AQL lookups, and a
  // loader holds a few dozen kernels.
  pthread_mutex_lock(&loader->lock);
  bool found = false;
  for (uint32_t i = 0; i < loader->count && !found; ++i) {
    if (loader->items[i].entry_address == entry_address) {
      *out_kernel = loader->items[i];
      found = true;
    }
  }
  pthread_mutex_unlock(&loader->lock);
  return found;
}

// Adds every kernel of |parsed| loaded at |load_base| to the table.
static rl_status_t rl_sim_loader_register(rl_sim_loader_t* loader,
                                          const rl_code_object_t* parsed,
                                          uint64_t load_base, uint64_t handle) {
  pthread_mutex_lock(&loader->lock);
  rl_status_t status = RL_ARRAY_RESERVE(&loader->items, &loader->capacity,
                                        loader->count + parsed->kernel_count);
  for (uint32_t k = 0; status == RL_OK && k < parsed->kernel_count; ++k) {
    const rl_code_object_kernel_t* kernel = &parsed->kernels[k];
    rl_sim_loaded_kernel_t entry = {load_base + kernel->descriptor_address,
                                    load_base + kernel->entry_address, handle,
                                    kernel};
    uint32_t index =
        rl_sim_loader_lower_bound_locked(loader, entry.kernel_object);
    memmove(&loader->items[index + 1], &loader->items[index],
            (loader->count - index) * sizeof(entry));
    loader->items[index] = entry;
    loader->count++;
  }
  pthread_mutex_unlock(&loader->lock);
  return status;
}

static void rl_sim_loader_unregister(rl_sim_loader_t* loader, uint64_t handle) {
  pthread_mutex_lock(&loader->lock);
  uint32_t kept = 0;
  for (uint32_t i = 0; i < loader->count; ++i) {
    if (loader->items[i].handle != handle)
      loader->items[kept++] = loader->items[i];
  }
  loader->count = kept;
  pthread_mutex_unlock(&loader->lock);
}

rl_status_t rl_sim_load_code_object(rl_device_t* device, const void* bytes,
                                    size_t size, const rl_code_object_t* parsed,
                                    rl_device_code_object_t* out_code_object) {
  memset(out_code_object, 0, sizeof(*out_code_object));
  rl_sim_device_t* sim = rl_sim_device_cast(device);
  if (strcmp(parsed->processor, sim->processor) != 0) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "code object for %s cannot load on a simulated %s",
                     parsed->processor, sim->processor);
  }
  // A descriptor must be 64-byte aligned in device memory ("CP microcode
  // requires the Kernel descriptor to be allocated on 64 byte alignment",
  // AMDGPUUsage), so the image is placed at least that aligned.
  uint64_t align = parsed->image_align > 64 ? parsed->image_align : 64;
  rl_device_allocation_t image;
  RL_RETURN_IF_ERROR(rl_sim_memory_allocate(
      &sim->memory, parsed->image_size, align, RL_MEMORY_KIND_DEVICE, &image));
  rl_status_t status = rl_code_object_load_image(
      parsed, bytes, size, image.address, image.host, (size_t)image.size);
  // The image's address is its handle: unique among live allocations.
  if (status == RL_OK) {
    status = rl_sim_loader_register(&sim->loader, parsed, image.address,
                                    image.address);
  }
  if (status != RL_OK) {
    rl_sim_loader_unregister(&sim->loader, image.address);
    rl_status_free(rl_sim_memory_free(&sim->memory, image.address));
    return rl_status_annotate(status, "loading code object for %s",
                              parsed->target);
  }
  *out_code_object =
      (rl_device_code_object_t){image.address, image.size, image.address};
  return RL_OK;
}

rl_status_t rl_sim_check_kernel(rl_device_t* device, const void* bytes,
                                size_t size, const rl_code_object_t* parsed,
                                const rl_code_object_kernel_t* kernel) {
  rl_sim_device_t* sim = rl_sim_device_cast(device);
  const rl_sim_executor_t* executor = sim->options.executor;
  if (executor == NULL || executor->check_kernel == NULL) return RL_OK;
  void* image = calloc(1, parsed->image_size ? parsed->image_size : 1);
  if (image == NULL) return rl_status_out_of_memory();
  rl_status_t status = rl_code_object_load_image(parsed, bytes, size, 0, image,
                                                 (size_t)parsed->image_size);
  if (status == RL_OK) {
    status = executor->check_kernel(executor->self, parsed->processor, image,
                                    parsed->image_size, kernel);
  }
  free(image);
  return status;
}

rl_status_t rl_sim_unload_code_object(rl_device_t* device,
                                      const rl_device_code_object_t* object) {
  rl_sim_device_t* sim = rl_sim_device_cast(device);
  rl_sim_loader_unregister(&sim->loader, object->handle);
  return rl_status_annotate(rl_sim_memory_free(&sim->memory, object->handle),
                            "unloading code object at 0x%llx",
                            (unsigned long long)object->load_base);
}

rl_status_t rl_sim_register_code_object(rl_device_t* device,
                                        const rl_code_object_t* parsed,
                                        uint64_t image_address) {
  rl_sim_device_t* sim = rl_sim_device_cast(device);
  if (strcmp(parsed->processor, sim->processor) != 0) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "code object for %s cannot run on a simulated %s",
                     parsed->processor, sim->processor);
  }
  if (!rl_sim_memory_translate(&sim->memory, image_address,
                               parsed->image_size)) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "code object image at 0x%llx (%llu bytes) is not inside "
                     "one live allocation",
                     (unsigned long long)image_address,
                     (unsigned long long)parsed->image_size);
  }
  return rl_sim_loader_register(&sim->loader, parsed, image_address,
                                image_address);
}

void rl_sim_unregister_code_object(rl_device_t* device,
                                   uint64_t image_address) {
  rl_sim_loader_unregister(&rl_sim_device_cast(device)->loader, image_address);
}
