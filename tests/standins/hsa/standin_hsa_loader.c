// tests/standins/hsa/standin_hsa_loader.c — code-object readers and
// executables of the ROCr stand-in over the sim loader (standin_hsa.h
// "code"). An executable holds at most a few loaded code objects, each with
// its own copy of the bytes and its parsed model (the sim keeps pointers
// into it until unload).
#include <stdlib.h>
#include <string.h>

#include "tests/standins/hsa/standin_hsa.h"

#define RL_STANDIN_MAX_LOADED 16u

typedef struct rl_standin_reader_s {
  uint8_t* bytes;
  size_t size;
} rl_standin_reader_t;

typedef struct rl_standin_executable_s rl_standin_executable_t;

typedef struct rl_standin_symbol_s {
  rl_standin_executable_t* executable;
  const rl_code_object_kernel_t* kernel;
  uint64_t kernel_object;
} rl_standin_symbol_t;

typedef struct rl_standin_loaded_s {
  uint8_t* bytes;
  rl_code_object_t* parsed;
  rl_device_code_object_t code;
  rl_standin_symbol_t* symbols;  // one per kernel
} rl_standin_loaded_t;

struct rl_standin_executable_s {
  bool frozen;
  uint32_t loaded_count;
  rl_standin_loaded_t loaded[RL_STANDIN_MAX_LOADED];
  rl_standin_executable_t* next;  // live executables, for shut-down
};

static rl_standin_executable_t* rl_standin_executables;

//===----------------------------------------------------------------------===//
// Readers
//===----------------------------------------------------------------------===//

RL_STANDIN_EXPORT hsa_status_t hsa_code_object_reader_create_from_memory(
    const void* code_object, size_t size,
    hsa_code_object_reader_t* code_object_reader) {
  if (!rl_standin_live()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!code_object || size == 0 || !code_object_reader) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  rl_standin_reader_t* reader = calloc(1, sizeof(*reader));
  if (reader) reader->bytes = malloc(size);
  if (!reader || !reader->bytes) {
    free(reader);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  memcpy(reader->bytes, code_object, size);
  reader->size = size;
  code_object_reader->handle = (uint64_t)(uintptr_t)reader;
  return HSA_STATUS_SUCCESS;
}

RL_STANDIN_EXPORT hsa_status_t hsa_code_object_reader_destroy(
    hsa_code_object_reader_t code_object_reader) {
  rl_standin_reader_t* reader =
      (rl_standin_reader_t*)(uintptr_t)code_object_reader.handle;
  if (!reader) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
  free(reader->bytes);
  free(reader);
  return HSA_STATUS_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Executables
//===----------------------------------------------------------------------===//

RL_STANDIN_EXPORT hsa_status_t hsa_executable_create_alt(
    hsa_profile_t profile,
    hsa_default_float_rounding_mode_t default_float_rounding_mode,
    const char* options, hsa_executable_t* executable) {
  (void)default_float_rounding_mode;
  (void)options;
  if (!rl_standin_live()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!executable || (profile != HSA_PROFILE_BASE &&
                      profile != HSA_PROFILE_FULL)) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  rl_standin_executable_t* created = calloc(1, sizeof(*created));
  if (!created) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  pthread_mutex_lock(&rl_standin.lock);
  created->next = rl_standin_executables;
  rl_standin_executables = created;
  pthread_mutex_unlock(&rl_standin.lock);
  executable->handle = (uint64_t)(uintptr_t)created;
  return HSA_STATUS_SUCCESS;
}

static rl_standin_executable_t* rl_standin_executable(hsa_executable_t handle) {
  return (rl_standin_executable_t*)(uintptr_t)handle.handle;
}

// Parses, checks the ISA and loads on the sim; lock held.
static hsa_status_t rl_standin_load_locked(const rl_standin_reader_t* reader,
                                           rl_standin_loaded_t* loaded) {
  loaded->bytes = malloc(reader->size);
  if (!loaded->bytes) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  memcpy(loaded->bytes, reader->bytes, reader->size);
  rl_status_t status =
      rl_code_object_parse(loaded->bytes, reader->size, &loaded->parsed);
  hsa_status_t result = HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  if (!status && strcmp(loaded->parsed->processor, rl_standin.processor) != 0) {
    result = HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;  // another ISA
  } else if (!status) {
    status = rl_standin.sim->vtable->load_code_object(
        rl_standin.sim, loaded->bytes, reader->size, loaded->parsed,
        &loaded->code);
    loaded->symbols = status ? NULL
                             : calloc(loaded->parsed->kernel_count + 1u,
                                      sizeof(*loaded->symbols));
    result = loaded->symbols ? HSA_STATUS_SUCCESS
                             : HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  rl_status_free(status);
  if (result != HSA_STATUS_SUCCESS) {
    if (loaded->symbols == NULL && loaded->code.handle) {
      rl_status_free(rl_standin.sim->vtable->unload_code_object(
          rl_standin.sim, &loaded->code));
    }
    rl_code_object_destroy(loaded->parsed);
    free(loaded->bytes);
    memset(loaded, 0, sizeof(*loaded));
  }
  return result;
}

RL_STANDIN_EXPORT hsa_status_t hsa_executable_load_agent_code_object(
    hsa_executable_t executable, hsa_agent_t agent,
    hsa_code_object_reader_t code_object_reader, const char* options,
    hsa_loaded_code_object_t* loaded_code_object) {
  (void)options;
  if (!rl_standin_live()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  rl_standin_executable_t* target = rl_standin_executable(executable);
  const rl_standin_reader_t* reader =
      (const rl_standin_reader_t*)(uintptr_t)code_object_reader.handle;
  if (!target) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  if (!reader) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
  if (agent.handle != RL_STANDIN_GPU_AGENT) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (target->frozen) return HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
  if (target->loaded_count == RL_STANDIN_MAX_LOADED) {
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  pthread_mutex_lock(&rl_standin.lock);
  rl_standin_loaded_t* loaded = &target->loaded[target->loaded_count];
  hsa_status_t result = rl_standin_load_locked(reader, loaded);
  if (result == HSA_STATUS_SUCCESS) {
    for (uint32_t k = 0; k < loaded->parsed->kernel_count; ++k) {
      const rl_code_object_kernel_t* kernel = &loaded->parsed->kernels[k];
      loaded->symbols[k] = (rl_standin_symbol_t){
          target, kernel, loaded->code.load_base + kernel->descriptor_address};
    }
    if (loaded_code_object) {
      loaded_code_object->handle = (uint64_t)(uintptr_t)loaded;
    }
    ++target->loaded_count;
  }
  pthread_mutex_unlock(&rl_standin.lock);
  return result;
}

RL_STANDIN_EXPORT hsa_status_t hsa_executable_freeze(hsa_executable_t executable,
                                                     const char* options) {
  (void)options;
  rl_standin_executable_t* target = rl_standin_executable(executable);
  if (!target) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  if (target->frozen) return HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
  target->frozen = true;
  return HSA_STATUS_SUCCESS;
}

// Kernels are found by their `.kd` symbol name, as ROCr names them for
// code object v3 and later.
RL_STANDIN_EXPORT hsa_status_t hsa_executable_get_symbol_by_name(
    hsa_executable_t executable, const char* symbol_name,
    const hsa_agent_t* agent, hsa_executable_symbol_t* symbol) {
  rl_standin_executable_t* target = rl_standin_executable(executable);
  if (!target) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  if (!symbol_name || !symbol) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (agent && agent->handle != RL_STANDIN_GPU_AGENT) {
    return HSA_STATUS_ERROR_INVALID_SYMBOL_NAME;
  }
  for (uint32_t i = 0; i < target->loaded_count; ++i) {
    const rl_standin_loaded_t* loaded = &target->loaded[i];
    for (uint32_t k = 0; k < loaded->parsed->kernel_count; ++k) {
      if (strcmp(loaded->parsed->kernels[k].symbol, symbol_name) == 0) {
        symbol->handle = (uint64_t)(uintptr_t)&loaded->symbols[k];
        return HSA_STATUS_SUCCESS;
      }
    }
  }
  return HSA_STATUS_ERROR_INVALID_SYMBOL_NAME;
}

static hsa_status_t rl_standin_symbol_name(const rl_standin_symbol_t* symbol,
                                           hsa_executable_symbol_info_t attr,
                                           void* value) {
  const char* name = symbol->kernel->symbol;
  if (attr == HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH) {
    *(uint32_t*)value = (uint32_t)strlen(name);
  } else {
    memcpy(value, name, strlen(name));
  }
  return HSA_STATUS_SUCCESS;
}

RL_STANDIN_EXPORT hsa_status_t hsa_executable_symbol_get_info(
    hsa_executable_symbol_t executable_symbol,
    hsa_executable_symbol_info_t attribute, void* value) {
  const rl_standin_symbol_t* symbol =
      (const rl_standin_symbol_t*)(uintptr_t)executable_symbol.handle;
  if (!symbol || !value) return HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL;
  switch (attribute) {
    case HSA_EXECUTABLE_SYMBOL_INFO_TYPE:
      *(hsa_symbol_kind_t*)value = HSA_SYMBOL_KIND_KERNEL;
      return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH:
    case HSA_EXECUTABLE_SYMBOL_INFO_NAME:
      return rl_standin_symbol_name(symbol, attribute, value);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT:
      if (!symbol->executable->frozen) {
        rl_standin_error("kernel object of %s read before "
                         "hsa_executable_freeze", symbol->kernel->symbol);
      }
      *(uint64_t*)value = symbol->kernel_object;
      return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE:
      *(uint32_t*)value = symbol->kernel->kernarg_size;
      return HSA_STATUS_SUCCESS;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

static void rl_standin_executable_free_locked(
    rl_standin_executable_t* executable) {
  for (rl_standin_executable_t** link = &rl_standin_executables; *link;
       link = &(*link)->next) {
    if (*link == executable) {
      *link = executable->next;
      break;
    }
  }
  for (uint32_t i = 0; i < executable->loaded_count; ++i) {
    rl_standin_loaded_t* loaded = &executable->loaded[i];
    rl_status_free(rl_standin.sim->vtable->unload_code_object(
        rl_standin.sim, &loaded->code));
    rl_code_object_destroy(loaded->parsed);
    free(loaded->bytes);
    free(loaded->symbols);
  }
  free(executable);
}

RL_STANDIN_EXPORT hsa_status_t hsa_executable_destroy(
    hsa_executable_t executable) {
  if (!rl_standin_live()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  rl_standin_executable_t* target = rl_standin_executable(executable);
  if (!target) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  pthread_mutex_lock(&rl_standin.lock);
  rl_standin_executable_free_locked(target);
  pthread_mutex_unlock(&rl_standin.lock);
  return HSA_STATUS_SUCCESS;
}

void rl_standin_loader_release_all_locked(void) {
  while (rl_standin_executables) {
    rl_standin_executable_free_locked(rl_standin_executables);
  }
}
