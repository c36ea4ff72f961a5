// sim/hip_sim/hip_sim_module.c — code objects as modules
// (hipModuleLoad*, hipModuleGetFunction/Global), the registrations clang's
// host code makes for a <<<>>> program (__hipRegisterFatBinary, Function,
// Var, ManagedVar), function attributes and occupancy.
#include <elf.h>

#include "base/file.h"
#include "sim/hip_sim/hip_sim_internal.h"

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

// The value and size of symbol |name| in the ELF symbol table of |image|
// (an AMDGPU code object, ELF64 little-endian); false when absent.
static bool rl_hip_elf_symbol(const uint8_t* image, size_t size,
                              const char* name, uint64_t* out_value,
                              uint64_t* out_size) {
  if (size < sizeof(Elf64_Ehdr)) return false;
  Elf64_Ehdr eh;
  memcpy(&eh, image, sizeof(eh));
  if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > size ||
      (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr) > size - eh.e_shoff) {
    return false;
  }
  for (uint32_t i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr sh;
    memcpy(&sh, image + eh.e_shoff + i * sizeof(sh), sizeof(sh));
    if ((sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
        sh.sh_link >= eh.e_shnum || sh.sh_offset > size ||
        sh.sh_size > size - sh.sh_offset) {
      continue;
    }
    Elf64_Shdr strtab;
    memcpy(&strtab, image + eh.e_shoff + sh.sh_link * sizeof(strtab),
           sizeof(strtab));
    if (strtab.sh_offset > size || strtab.sh_size > size - strtab.sh_offset) {
      continue;
    }
    const char* strings = (const char*)image + strtab.sh_offset;
    for (uint64_t o = 0; o + sizeof(Elf64_Sym) <= sh.sh_size;
         o += sizeof(Elf64_Sym)) {
      Elf64_Sym sym;
      memcpy(&sym, image + sh.sh_offset + o, sizeof(sym));
      if (sym.st_name >= strtab.sh_size || sym.st_shndx == SHN_UNDEF) continue;
      const char* symbol = strings + sym.st_name;
      size_t room = strtab.sh_size - sym.st_name;
      if (strnlen(symbol, room) < room && strcmp(symbol, name) == 0) {
        *out_value = sym.st_value;
        *out_size = sym.st_size;
        return true;
      }
    }
  }
  return false;
}

// The size of the ELF image at |image|: the section-header table's end
// (the ELF header gives no size).
static bool rl_hip_elf_size(const void* image, size_t* out_size) {
  const uint8_t* bytes = image;
  if (memcmp(bytes, "\x7f" "ELF", 4) != 0 || bytes[4] != ELFCLASS64) {
    return false;
  }
  uint64_t shoff;
  uint16_t shentsize, shnum;
  memcpy(&shoff, bytes + 0x28, 8);
  memcpy(&shentsize, bytes + 0x3A, 2);
  memcpy(&shnum, bytes + 0x3C, 2);
  *out_size = (size_t)(shoff + (uint64_t)shentsize * shnum);
  return true;
}

hipError_t rl_hip_module_load_locked(const void* image, size_t size,
                                     struct ihipModule_t** out_module) {
  *out_module = NULL;
  struct ihipModule_t* m = calloc(1, sizeof(*m));
  if (!m) return hipErrorOutOfMemory;
  rl_status_t status = rl_code_object_parse(image, size, &m->parsed);
  if (!status) {
    m->functions = calloc(m->parsed->kernel_count + 1, sizeof(*m->functions));
    m->image = malloc(size);
    if (!m->functions || !m->image) status = rl_status_out_of_memory();
  }
  if (!status) {
    memcpy(m->image, image, size);
    m->image_size = size;
    status = RL_ARRAY_RESERVE(&rl_hip.modules, &rl_hip.module_capacity,
                              rl_hip.module_count + 1);
  }
  if (!status) {
    pthread_mutex_lock(&rl_hip.device_lock);
    status = rl_hip.adapter.load_code_object(rl_hip.adapter.self, image, size,
                                             &m->handle);
    pthread_mutex_unlock(&rl_hip.device_lock);
  }
  if (status) {
    fprintf(stderr, "redline hip: loading a code object: %s\n",
            rl_status_message(status));
    rl_hip_error("loading a code object: %s", rl_status_message(status));
    rl_status_free(status);
    rl_code_object_destroy(m->parsed);
    free(m->functions);
    free(m->image);
    free(m);
    return hipErrorInvalidImage;
  }
  m->load_base = rl_device_funnel_load_base(&rl_hip.adapter, m->handle);
  m->magic = RL_HIP_MAGIC_MODULE;
  m->live = true;
  rl_hip_printf_formats(m);
  rl_hip.modules[rl_hip.module_count++] = m;
  *out_module = m;
  return hipSuccess;
}

RL_HIP_EXPORT hipError_t hipModuleLoadData(hipModule_t* module,
                                           const void* image) {
  if (!module || !image) return hipErrorInvalidValue;
  *module = NULL;
  RL_HIP_ENTER();
  size_t size = 0;
  if (!rl_hip_elf_size(image, &size)) return rl_hip_leave(hipErrorInvalidImage);
  return rl_hip_leave(rl_hip_module_load_locked(image, size, module));
}

RL_HIP_EXPORT hipError_t hipModuleLoadDataEx(hipModule_t* module,
                                             const void* image,
                                             unsigned int numOptions,
                                             hipJitOption* options,
                                             void** optionValues) {
  (void)numOptions, (void)options, (void)optionValues;
  return hipModuleLoadData(module, image);
}

RL_HIP_EXPORT hipError_t hipModuleLoad(hipModule_t* module,
                                       const char* fname) {
  if (!module || !fname) return hipErrorInvalidValue;
  *module = NULL;
  uint8_t* bytes = NULL;
  size_t size = 0;
  rl_status_t status = rl_file_read_regular(fname, &bytes, &size);
  if (status) {
    hipError_t error = rl_status_is(status, RL_STATUS_OUT_OF_MEMORY)
                           ? hipErrorOutOfMemory
                           : hipErrorFileNotFound;
    rl_status_free(status);
    return error;
  }
  hipError_t result = hipErrorInvalidImage;
  if (size >= 64) {
    pthread_mutex_lock(&rl_hip.lock);
    result = rl_hip_start_locked();
    if (!result) result = rl_hip_module_load_locked(bytes, size, module);
    rl_hip_leave(result);
  }
  free(bytes);
  return result;
}

// Modules and functions are never freed before exit: a function handle
// kept past hipModuleUnload is detected rather than dangling. The parse
// stays alive because the adapter refers to it until destroyed.
RL_HIP_EXPORT hipError_t hipModuleUnload(hipModule_t module) {
  RL_HIP_ENTER();
  if (!module || module->magic != RL_HIP_MAGIC_MODULE || !module->live) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  rl_hip_wait_all();
  module->live = false;
  return rl_hip_leave(hipSuccess);
}

static struct ihipModuleSymbol_t* rl_hip_function_of(
    struct ihipModule_t* m, const rl_code_object_kernel_t* kernel) {
  struct ihipModuleSymbol_t* f = &m->functions[kernel - m->parsed->kernels];
  f->magic = RL_HIP_MAGIC_FUNCTION;
  f->module = m;
  f->kernel = kernel;
  return f;
}

RL_HIP_EXPORT hipError_t hipModuleGetFunction(hipFunction_t* function,
                                              hipModule_t module,
                                              const char* name) {
  if (!function || !name) return hipErrorInvalidValue;
  *function = NULL;
  RL_HIP_ENTER();
  if (!module || module->magic != RL_HIP_MAGIC_MODULE || !module->live) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  const rl_code_object_kernel_t* kernel =
      rl_code_object_find_kernel(module->parsed, name);
  if (!kernel) return rl_hip_leave(hipErrorNotFound);
  *function = rl_hip_function_of(module, kernel);
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipModuleGetGlobal(hipDeviceptr_t* dptr,
                                            size_t* bytes, hipModule_t module,
                                            const char* name) {
  if (!name) return hipErrorInvalidValue;
  RL_HIP_ENTER();
  if (!module || module->magic != RL_HIP_MAGIC_MODULE || !module->live) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  uint64_t value = 0, size = 0;
  if (!rl_hip_elf_symbol(module->image, module->image_size, name, &value,
                         &size)) {
    return rl_hip_leave(hipErrorNotFound);
  }
  if (dptr) *dptr = (hipDeviceptr_t)(uintptr_t)(module->load_base + value);
  if (bytes) *bytes = size;
  return rl_hip_leave(hipSuccess);
}

//===----------------------------------------------------------------------===//
// Fat binaries (the <<<>>> path)
//===----------------------------------------------------------------------===//

// Not in HIP's C headers: clang's host code declares them itself. The
// handle types are opaque here (hip::FatBinaryInfo** in ROCm/clr
// hipamd/src/hip_platform.cpp).
void** __hipRegisterFatBinary(const void* data);
void __hipRegisterFunction(void** modules, const void* hostFunction,
                           char* deviceFunction, const char* deviceName,
                           unsigned int threadLimit, void* tid, void* bid,
                           void* blockDim, void* gridDim, int* wSize);
void __hipRegisterVar(void** modules, void* var, char* hostVar,
                      char* deviceVar, int ext, size_t size, int constant,
                      int global);
void __hipRegisterManagedVar(void* modules, void** pointer, void* init_value,
                             const char* name, size_t size, unsigned align);
void __hipUnregisterFatBinary(void** modules);

// The module behind a handle __hipRegisterFatBinary returned, or NULL.
static struct ihipModule_t* rl_hip_fatbin_module(void** modules) {
  struct ihipModule_t* m = (struct ihipModule_t*)modules;
  return m && m->magic == RL_HIP_MAGIC_MODULE ? m : NULL;
}

RL_HIP_EXPORT void** __hipRegisterFatBinary(const void* data) {
  pthread_mutex_lock(&rl_hip.lock);
  hipError_t started = rl_hip_start_locked();
  if (started) {
    rl_hip_leave(started);
    return NULL;
  }
  const void* code = NULL;
  uint64_t size = 0;
  rl_status_t status = rl_hip_fatbin_find(data, rl_hip.processor, &code, &size);
  if (status) {
    fprintf(stderr, "redline hip: __hipRegisterFatBinary: %s\n",
            rl_status_message(status));
    rl_hip_error("__hipRegisterFatBinary: %s", rl_status_message(status));
    rl_status_free(status);
    rl_hip_leave(hipErrorInvalidImage);
    return NULL;
  }
  struct ihipModule_t* m = NULL;
  rl_hip_leave(rl_hip_module_load_locked(code, (size_t)size, &m));
  return (void**)m;
}

RL_HIP_EXPORT void __hipRegisterFunction(void** modules,
                                         const void* hostFunction,
                                         char* deviceFunction,
                                         const char* deviceName,
                                         unsigned int threadLimit, void* tid,
                                         void* bid, void* blockDim,
                                         void* gridDim, int* wSize) {
  (void)deviceFunction, (void)threadLimit, (void)tid, (void)bid;
  (void)blockDim, (void)gridDim, (void)wSize;
  pthread_mutex_lock(&rl_hip.lock);
  struct ihipModule_t* m = rl_hip_fatbin_module(modules);
  const rl_code_object_kernel_t* kernel =
      m && deviceName ? rl_code_object_find_kernel(m->parsed, deviceName)
                      : NULL;
  if (!kernel || !hostFunction) {
    rl_hip_error("__hipRegisterFunction(%s): no such kernel in the fat binary",
                 deviceName ? deviceName : "(null)");
    rl_hip_leave(hipErrorInvalidDeviceFunction);
    return;
  }
  rl_status_t status = RL_ARRAY_RESERVE(&rl_hip.stubs, &rl_hip.stub_capacity,
                                        rl_hip.stub_count + 1);
  if (status) {
    rl_status_free(status);
    rl_hip_leave(hipErrorOutOfMemory);
    return;
  }
  rl_hip.stubs[rl_hip.stub_count++] =
      (rl_hip_stub_t){hostFunction, rl_hip_function_of(m, kernel)};
  rl_hip_leave(hipSuccess);
}

struct ihipModuleSymbol_t* rl_hip_stub_function(const void* host) {
  for (uint32_t i = 0; i < rl_hip.stub_count; ++i) {
    if (rl_hip.stubs[i].host == host) return rl_hip.stubs[i].function;
  }
  return NULL;
}

// Registers variable |name| of module |m| under host handle |host|; its
// device address, or 0 when the code object has no such symbol. Lock held.
static uint64_t rl_hip_register_var(struct ihipModule_t* m, const void* host,
                                    const char* name, uint64_t size) {
  uint64_t value = 0, symbol_size = 0;
  if (!m || !name ||
      !rl_hip_elf_symbol(m->image, m->image_size, name, &value, &symbol_size)) {
    rl_hip_error("__hipRegisterVar(%s): no such variable in the fat binary",
                 name ? name : "(null)");
    return 0;
  }
  rl_status_t status = RL_ARRAY_RESERVE(&rl_hip.vars, &rl_hip.var_capacity,
                                        rl_hip.var_count + 1);
  if (status) {
    rl_status_free(status);
    return 0;
  }
  rl_hip.vars[rl_hip.var_count++] = (rl_hip_var_t){
      host, m, m->load_base + value, size ? size : symbol_size};
  return m->load_base + value;
}

RL_HIP_EXPORT void __hipRegisterVar(void** modules, void* var, char* hostVar,
                                    char* deviceVar, int ext, size_t size,
                                    int constant, int global) {
  (void)hostVar, (void)ext, (void)constant, (void)global;
  pthread_mutex_lock(&rl_hip.lock);
  rl_hip_register_var(rl_hip_fatbin_module(modules), var, deviceVar, size);
  rl_hip_leave(hipSuccess);
}

// A __managed__ variable: the device variable |name| is a pointer; it gets
// the device address of host-visible memory holding |size| bytes from
// |init_value|, and *|pointer| the host view of that memory.
RL_HIP_EXPORT void __hipRegisterManagedVar(void* modules, void** pointer,
                                           void* init_value, const char* name,
                                           size_t size, unsigned align) {
  (void)align;
  void* memory = NULL;
  if (hipMallocManaged(&memory, size, hipMemAttachGlobal) != hipSuccess) {
    rl_hip_error("__hipRegisterManagedVar(%s): out of memory", name);
    return;
  }
  if (init_value) memcpy(memory, init_value, size);
  *pointer = memory;
  pthread_mutex_lock(&rl_hip.lock);
  uint64_t address = rl_hip_register_var(
      rl_hip_fatbin_module((void**)modules), pointer, name, sizeof(void*));
  uint64_t device = rl_hip_device_address(memory);
  if (address) {
    pthread_mutex_lock(&rl_hip.device_lock);
    rl_status_free(rl_hip.sim->vtable->write(rl_hip.sim, address, &device,
                                             sizeof(device)));
    pthread_mutex_unlock(&rl_hip.device_lock);
  }
  rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT void __hipUnregisterFatBinary(void** modules) {
  pthread_mutex_lock(&rl_hip.lock);
  struct ihipModule_t* m = rl_hip_fatbin_module(modules);
  if (!m || !m->live) {
    rl_hip_leave(hipErrorInvalidHandle);
    return;
  }
  if (!rl_hip.sticky_error) rl_hip_wait_all();
  m->live = false;
  uint32_t kept = 0;
  for (uint32_t i = 0; i < rl_hip.stub_count; ++i) {
    if (rl_hip.stubs[i].function->module != m) {
      rl_hip.stubs[kept++] = rl_hip.stubs[i];
    }
  }
  rl_hip.stub_count = kept;
  pthread_mutex_unlock(&rl_hip.lock);
}

//===----------------------------------------------------------------------===//
// Function attributes and occupancy
//===----------------------------------------------------------------------===//

static int rl_hip_max_block(const rl_code_object_kernel_t* kernel) {
  return kernel->max_flat_workgroup_size ? (int)kernel->max_flat_workgroup_size
                                         : 1024;
}

RL_HIP_EXPORT hipError_t hipFuncGetAttributes(hipFuncAttributes* attr,
                                              const void* func) {
  if (!attr) return hipErrorInvalidValue;
  RL_HIP_ENTER();
  struct ihipModuleSymbol_t* f = rl_hip_stub_function(func);
  if (!f) return rl_hip_leave(hipErrorInvalidDeviceFunction);
  const rl_code_object_kernel_t* kernel = f->kernel;
  memset(attr, 0, sizeof(*attr));
  attr->sharedSizeBytes = kernel->group_segment_size;
  attr->localSizeBytes = kernel->private_segment_size;
  attr->maxThreadsPerBlock = rl_hip_max_block(kernel);
  attr->numRegs = (int)kernel->vgpr_count;
  attr->maxDynamicSharedSizeBytes =
      (int)(rl_hip.sim->lds_limit - kernel->group_segment_size);
  attr->binaryVersion = 110;
  attr->ptxVersion = 110;
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipFuncSetAttribute(const void* func,
                                             hipFuncAttribute attr,
                                             int value) {
  (void)attr, (void)value;
  RL_HIP_ENTER();
  return rl_hip_leave(rl_hip_stub_function(func)
                          ? hipSuccess : hipErrorInvalidDeviceFunction);
}

RL_HIP_EXPORT hipError_t hipFuncSetCacheConfig(const void* func,
                                               hipFuncCache_t config) {
  (void)func, (void)config;
  return hipSuccess;
}

// At most 2048 work-items (64 wave32 waves) and the unit's LDS.
int rl_hip_blocks_per_unit(const rl_code_object_kernel_t* kernel, int block,
                           size_t lds) {
  if (block <= 0 || block > rl_hip_max_block(kernel)) return 0;
  int by_items = 2048 / block;
  uint64_t group = kernel->group_segment_size + lds;
  if (group > rl_hip.sim->lds_limit) return 0;
  int by_lds = group ? (int)(rl_hip.sim->lds_limit / group) : by_items;
  return by_items < by_lds ? by_items : by_lds;
}

static hipError_t rl_hip_occupancy(int* blocks, struct ihipModuleSymbol_t* f,
                                   int block, size_t lds) {
  if (!blocks) return hipErrorInvalidValue;
  if (!f) return hipErrorInvalidDeviceFunction;
  *blocks = rl_hip_blocks_per_unit(f->kernel, block, lds);
  return hipSuccess;
}

static hipError_t rl_hip_potential_block(int* grid, int* block,
                                         struct ihipModuleSymbol_t* f,
                                         size_t lds, int limit) {
  if (!grid || !block) return hipErrorInvalidValue;
  if (!f) return hipErrorInvalidDeviceFunction;
  int best = rl_hip_max_block(f->kernel);
  if (limit > 0 && limit < best) best = limit;
  best -= best % 32 ? best % 32 : 0;
  if (best <= 0) best = 32;
  *block = best;
  *grid = rl_hip_blocks_per_unit(f->kernel, best, lds) * rl_hip_compute_units();
  return hipSuccess;
}

RL_HIP_EXPORT hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(
    int* blocks, const void* func, int block, size_t lds) {
  RL_HIP_ENTER();
  return rl_hip_leave(
      rl_hip_occupancy(blocks, rl_hip_stub_function(func), block, lds));
}

RL_HIP_EXPORT hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int* blocks, const void* func, int block, size_t lds, unsigned int flags) {
  (void)flags;
  return hipOccupancyMaxActiveBlocksPerMultiprocessor(blocks, func, block,
                                                      lds);
}

RL_HIP_EXPORT hipError_t hipOccupancyMaxPotentialBlockSize(
    int* grid, int* block, const void* func, size_t lds, int limit) {
  RL_HIP_ENTER();
  return rl_hip_leave(rl_hip_potential_block(
      grid, block, rl_hip_stub_function(func), lds, limit));
}

static struct ihipModuleSymbol_t* rl_hip_function_handle(hipFunction_t f) {
  return f && f->magic == RL_HIP_MAGIC_FUNCTION ? f : NULL;
}

RL_HIP_EXPORT hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(
    int* blocks, hipFunction_t f, int block, size_t lds) {
  RL_HIP_ENTER();
  return rl_hip_leave(
      rl_hip_occupancy(blocks, rl_hip_function_handle(f), block, lds));
}

RL_HIP_EXPORT hipError_t hipModuleOccupancyMaxPotentialBlockSize(
    int* grid, int* block, hipFunction_t f, size_t lds, int limit) {
  RL_HIP_ENTER();
  return rl_hip_leave(rl_hip_potential_block(
      grid, block, rl_hip_function_handle(f), lds, limit));
}

RL_HIP_EXPORT hipError_t hipFuncGetAttribute(int* value,
                                             hipFunction_attribute attribute,
                                             hipFunction_t f) {
  if (!value) return hipErrorInvalidValue;
  RL_HIP_ENTER();
  struct ihipModuleSymbol_t* s = rl_hip_function_handle(f);
  if (!s) return rl_hip_leave(hipErrorInvalidResourceHandle);
  switch (attribute) {
    case HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
      *value = rl_hip_max_block(s->kernel); break;
    case HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
      *value = (int)s->kernel->group_segment_size; break;
    case HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
      *value = (int)s->kernel->private_segment_size; break;
    case HIP_FUNC_ATTRIBUTE_NUM_REGS:
      *value = (int)s->kernel->vgpr_count; break;
    default: {
      char name[64];
      snprintf(name, sizeof(name), "hipFuncGetAttribute(attribute %d)",
               (int)attribute);
      rl_hip_unsupported(name);
      return rl_hip_leave(hipErrorNotSupported);
    }
  }
  return rl_hip_leave(hipSuccess);
}
