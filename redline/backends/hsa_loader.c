// Implementation of redline/backends/hsa_loader.h. The table's names and
// descriptions follow the comments of Debian's hsa/hsa.h (hsa_status_t) and
// hsa/hsa_ext_amd.h (the AMD additions 40..44).
#include "redline/backends/hsa_loader.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const rl_dl_symbol_t rl_hsa_symbols[] = {
#define RL_HSA_SYMBOL(name) {#name, offsetof(rl_hsa_functions_t, name)},
#include "redline/backends/hsa_symbols.h"
#undef RL_HSA_SYMBOL
};

static const char* const rl_hsa_default_paths[] = {
    "libhsa-runtime64.so.1",
    "/opt/rocm/lib/libhsa-runtime64.so.1",
    NULL,
};

rl_status_t rl_hsa_api_open(rl_hsa_api_t* api, const char* explicit_path) {
  memset(api, 0, sizeof(*api));
  RL_RETURN_IF_ERROR(rl_dl_library_open(&api->library, "libhsa-runtime64",
                                        explicit_path, RL_HSA_LIBRARY_ENV,
                                        rl_hsa_default_paths));
  rl_status_t status = rl_dl_library_resolve(
      &api->library, "libhsa-runtime64", rl_hsa_symbols,
      sizeof(rl_hsa_symbols) / sizeof(rl_hsa_symbols[0]), &api->fn,
      sizeof(api->fn));
  if (status) rl_dl_library_close(&api->library);
  return status;
}

void rl_hsa_api_close(rl_hsa_api_t* api) {
  rl_dl_library_close(&api->library);
  memset(&api->fn, 0, sizeof(api->fn));
}

#define RL_HSA_ROW(status, code, description) \
  {(hsa_status_t)(status), #status, RL_STATUS_##code, description}

static const rl_hsa_error_info_t rl_hsa_errors[] = {
    RL_HSA_ROW(HSA_STATUS_SUCCESS, OK, "the function succeeded"),
    RL_HSA_ROW(HSA_STATUS_INFO_BREAK, OK,
               "a traversal was interrupted by its callback"),
    RL_HSA_ROW(HSA_STATUS_ERROR, UNAVAILABLE, "a generic error occurred"),
    RL_HSA_ROW(HSA_STATUS_ERROR_INVALID_ARGUMENT, INVALID_ARGUMENT,
               "one of the actual arguments does not meet a precondition"),
    RL_HSA_ROW(HSA_STATUS_ERROR_INVALID_QUEUE_CREATION, UNAVAILABLE,
               "the requested queue cannot be created"),
    RL_HSA_ROW(HSA_STATUS_ERROR_INVALID_ALLOCATION, OUT_OF_MEMORY,
               "the requested allocation is not valid"),
    RL_HSA_ROW(HSA_STATUS_ERROR_INVALID_AGENT, INTERNAL,
               "the agent is invalid"),
    RL_HSA_ROW(HSA_STATUS_ERROR_INVALID_REGION, INTERNAL,
               "the memory region is invalid"),
    RL_HSA_ROW(HSA_STATUS_ERROR_INVALID_SIGNAL, INTERNAL,
               "the signal is invalid"),
    RL_HSA_ROW(HSA_STATUS_ERROR_INVALID_QUEUE, INTERNAL,
               "the queue is invalid"),
    RL_HSA_ROW(HSA_STATUS_ERROR_OUT_OF_RESOURCES, UNAVAILABLE,
               "the runtime failed to allocate the necessary resources"),
    RL_HSA_ROW(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, POISONED,
               "the AQL packet is malformed"),
    RL_HSA_ROW(HSA_STATUS_ERROR_RESOURCE_FREE, INTERNAL,
               "an error occurred while releasing resources"),
    RL_HSA_ROW(HSA_STATUS_ERROR_NOT_INITIALIZED, INTERNAL,
               "an API other than hsa_init was called while the runtime's "
               "reference count is zero"),
    RL_HSA_ROW(HSA_STATUS_ERROR_REFCOUNT_OVERFLOW, UNAVAILABLE,
               "the runtime's reference count overflowed"),
    RL_HSA_ROW(HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS, CONTRACT,
               "the arguments are not compatible (e.g. a code object for "
               "another ISA)"),
    RL_HSA_ROW(HSA_STATUS_ERROR_INVALID_INDEX, INTERNAL, "the index is invalid"),
    RL_HSA_ROW(HSA_STATUS_ERROR_INVALID_ISA, CONTRACT,
               "the instruction set architecture is invalid"),
    RL_HSA_ROW(HSA_STATUS_ERROR_INVALID_ISA_NAME, CONTRACT,
               "the ISA name is invalid"),
    RL_HSA_ROW(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, INVALID_INPUT,
               "the code object is invalid"),
    RL_HSA_ROW(HSA_STATUS_ERROR_INVALID_EXECUTABLE, INTERNAL,
               "the executable is invalid"),
    RL_HSA_ROW(HSA_STATUS_ERROR_FROZEN_EXECUTABLE, INTERNAL,
               "the executable is frozen"),
    RL_HSA_ROW(HSA_STATUS_ERROR_INVALID_SYMBOL_NAME, NOT_FOUND,
               "there is no symbol with the given name"),
    RL_HSA_ROW(HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED, INVALID_INPUT,
               "the variable is already defined"),
    RL_HSA_ROW(HSA_STATUS_ERROR_VARIABLE_UNDEFINED, INVALID_INPUT,
               "the variable is undefined"),
    RL_HSA_ROW(HSA_STATUS_ERROR_EXCEPTION, POISONED,
               "an HSAIL operation resulted in a hardware exception"),
    RL_HSA_ROW(HSA_STATUS_ERROR_INVALID_CODE_SYMBOL, NOT_FOUND,
               "the code object symbol is invalid"),
    RL_HSA_ROW(HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL, NOT_FOUND,
               "the executable symbol is invalid"),
    RL_HSA_ROW(HSA_STATUS_ERROR_INVALID_FILE, IO, "the file descriptor is invalid"),
    RL_HSA_ROW(HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER, INTERNAL,
               "the code object reader is invalid"),
    RL_HSA_ROW(HSA_STATUS_ERROR_INVALID_CACHE, INTERNAL, "the cache is invalid"),
    RL_HSA_ROW(HSA_STATUS_ERROR_INVALID_WAVEFRONT, INTERNAL,
               "the wavefront is invalid"),
    RL_HSA_ROW(HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP, INTERNAL,
               "the signal group is invalid"),
    RL_HSA_ROW(HSA_STATUS_ERROR_INVALID_RUNTIME_STATE, UNAVAILABLE,
               "the runtime is not in the configured state"),
    RL_HSA_ROW(HSA_STATUS_ERROR_FATAL, UNAVAILABLE,
               "the queue received an error that may require process "
               "termination"),
    RL_HSA_ROW(HSA_STATUS_ERROR_INVALID_MEMORY_POOL, INTERNAL,
               "the memory pool is invalid"),
    RL_HSA_ROW(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION, POISONED,
               "an agent accessed memory beyond the maximum legal address"),
    RL_HSA_ROW(HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION, POISONED,
               "an agent executed an invalid shader instruction"),
    RL_HSA_ROW(HSA_STATUS_ERROR_MEMORY_FAULT, POISONED,
               "an agent attempted to access an inaccessible address"),
    RL_HSA_ROW(HSA_STATUS_CU_MASK_REDUCED, INTERNAL,
               "the CU mask was set but reduced to the CUs of the process"),
};

static const rl_hsa_error_info_t rl_hsa_error_unknown = {
    (hsa_status_t)-1, "HSA_STATUS_UNKNOWN", RL_STATUS_UNAVAILABLE,
    "a status this redline does not know (a newer runtime)"};

const rl_hsa_error_info_t* rl_hsa_error_info(hsa_status_t status) {
  for (size_t i = 0; i < sizeof(rl_hsa_errors) / sizeof(rl_hsa_errors[0]);
       ++i) {
    if (rl_hsa_errors[i].status == status) return &rl_hsa_errors[i];
  }
  return &rl_hsa_error_unknown;
}

rl_status_t rl_hsa_check(const rl_hsa_api_t* api, hsa_status_t status,
                         const char* call, const char* file, int line) {
  if (status == HSA_STATUS_SUCCESS || status == HSA_STATUS_INFO_BREAK) {
    return RL_OK;
  }
  const rl_hsa_error_info_t* info = rl_hsa_error_info(status);
  const char* text = NULL;
  if (api && api->fn.hsa_status_string &&
      api->fn.hsa_status_string(status, &text) != HSA_STATUS_SUCCESS) {
    text = NULL;
  }
  return rl_status_make(info->code, file, line, "%s: %s (0x%x): %s%s%s%s",
                        call, info->name, (unsigned)status, info->description,
                        text ? " (runtime: " : "", text ? text : "",
                        text ? ")" : "");
}
