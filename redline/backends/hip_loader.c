// Implementation of redline/backends/hip_loader.h. Names and descriptions
// follow the comments of Debian's hip/hip_runtime_api.h (hipError_t).
#include "redline/backends/hip_loader.h"

#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

static const rl_dl_symbol_t rl_hip_symbols[] = {
#define RL_HIP_SYMBOL(name) {#name, offsetof(rl_hip_functions_t, name)},
#include "redline/backends/hip_symbols.h"
#undef RL_HIP_SYMBOL
};

static const char* const rl_hip_default_paths[] = {
    "libamdhip64.so.6",
    "libamdhip64.so.5",
    "/opt/rocm/lib/libamdhip64.so.6",
    "/opt/rocm/lib/libamdhip64.so.5",
    NULL,
};

rl_status_t rl_hip_api_open(rl_hip_api_t* api, const char* explicit_path) {
  memset(api, 0, sizeof(*api));
  RL_RETURN_IF_ERROR(rl_dl_library_open(&api->library, "libamdhip64",
                                        explicit_path, RL_HIP_LIBRARY_ENV,
                                        rl_hip_default_paths));
  rl_status_t status = rl_dl_library_resolve(
      &api->library, "libamdhip64", rl_hip_symbols,
      sizeof(rl_hip_symbols) / sizeof(rl_hip_symbols[0]), &api->fn,
      sizeof(api->fn));
  if (status) {
    rl_dl_library_close(&api->library);
    return status;
  }
  *(void**)&api->progress_events =
      dlsym(api->library.handle, RL_HIP_SIM_PROGRESS);
  return RL_OK;
}

void rl_hip_api_close(rl_hip_api_t* api) {
  rl_dl_library_close(&api->library);
  memset(&api->fn, 0, sizeof(api->fn));
  api->progress_events = NULL;
}

#define RL_HIP_ROW(error, code, description) \
  {error, #error, RL_STATUS_##code, description}

static const rl_hip_error_info_t rl_hip_errors[] = {
    RL_HIP_ROW(hipSuccess, OK, "no error"),
    RL_HIP_ROW(hipErrorInvalidValue, INVALID_ARGUMENT,
               "a parameter passed to the call is invalid"),
    RL_HIP_ROW(hipErrorOutOfMemory, OUT_OF_MEMORY, "out of device memory"),
    RL_HIP_ROW(hipErrorNotInitialized, UNAVAILABLE,
               "the runtime failed to initialise"),
    RL_HIP_ROW(hipErrorDeinitialized, UNAVAILABLE,
               "the runtime is shutting down"),
    RL_HIP_ROW(hipErrorInvalidConfiguration, INVALID_ARGUMENT,
               "the launch configuration is invalid"),
    RL_HIP_ROW(hipErrorInvalidSymbol, NOT_FOUND, "the symbol is invalid"),
    RL_HIP_ROW(hipErrorInvalidDevicePointer, INVALID_ARGUMENT,
               "the device pointer is invalid"),
    RL_HIP_ROW(hipErrorInvalidMemcpyDirection, INVALID_ARGUMENT,
               "the copy direction is invalid"),
    RL_HIP_ROW(hipErrorInsufficientDriver, UNAVAILABLE,
               "the kernel driver is too old for this runtime"),
    RL_HIP_ROW(hipErrorInvalidDeviceFunction, NOT_FOUND,
               "the kernel is not valid for this device"),
    RL_HIP_ROW(hipErrorNoDevice, UNAVAILABLE, "no HIP device is available"),
    RL_HIP_ROW(hipErrorInvalidDevice, UNAVAILABLE,
               "the device ordinal is invalid (without a GPU hipInit "
               "reports this)"),
    RL_HIP_ROW(hipErrorInvalidImage, INVALID_INPUT,
               "the code object image is invalid"),
    RL_HIP_ROW(hipErrorInvalidContext, INTERNAL, "the context is invalid"),
    RL_HIP_ROW(hipErrorNoBinaryForGpu, CONTRACT,
               "the code object has no code for this GPU"),
    RL_HIP_ROW(hipErrorInvalidKernelFile, INVALID_INPUT,
               "the kernel file is invalid"),
    RL_HIP_ROW(hipErrorFileNotFound, IO, "the file was not found"),
    RL_HIP_ROW(hipErrorSharedObjectInitFailed, UNAVAILABLE,
               "a shared object failed to initialise"),
    RL_HIP_ROW(hipErrorInvalidHandle, INTERNAL,
               "the resource handle is invalid"),
    RL_HIP_ROW(hipErrorIllegalState, INTERNAL,
               "a resource is not in a valid state for the operation"),
    RL_HIP_ROW(hipErrorNotFound, NOT_FOUND, "the named symbol was not found"),
    RL_HIP_ROW(hipErrorNotReady, INTERNAL,
               "asynchronous work has not completed yet"),
    RL_HIP_ROW(hipErrorIllegalAddress, POISONED,
               "a kernel accessed an illegal address"),
    RL_HIP_ROW(hipErrorLaunchOutOfResources, PREPARE,
               "the launch needs more resources than available"),
    RL_HIP_ROW(hipErrorLaunchTimeOut, QUARANTINED, "the launch timed out"),
    RL_HIP_ROW(hipErrorAssert, POISONED, "a kernel called assert"),
    RL_HIP_ROW(hipErrorLaunchFailure, POISONED,
               "an exception occurred on the device"),
    RL_HIP_ROW(hipErrorNotSupported, UNSUPPORTED,
               "the call is not supported by this runtime"),
    RL_HIP_ROW(hipErrorStreamCaptureUnsupported, UNSUPPORTED,
               "the operation is not permitted while the stream captures"),
    RL_HIP_ROW(hipErrorStreamCaptureInvalidated, POISONED,
               "the capture sequence was invalidated by an earlier error"),
    RL_HIP_ROW(hipErrorStreamCaptureUnmatched, INVALID_ARGUMENT,
               "the capture was not initiated in this stream"),
    RL_HIP_ROW(hipErrorStreamCaptureWrongThread, INVALID_ARGUMENT,
               "the capture was begun on another thread"),
    RL_HIP_ROW(hipErrorGraphExecUpdateFailure, PREPARE,
               "the graph update was not performed"),
    RL_HIP_ROW(hipErrorUnknown, UNAVAILABLE, "an unknown error"),
    RL_HIP_ROW(hipErrorRuntimeMemory, UNAVAILABLE,
               "an HSA runtime memory call failed"),
    RL_HIP_ROW(hipErrorRuntimeOther, UNAVAILABLE,
               "an HSA runtime call failed"),
};

static const rl_hip_error_info_t rl_hip_error_unknown = {
    hipErrorUnknown, "hipErrorUnknownCode", RL_STATUS_UNAVAILABLE,
    "an error code this redline does not know (a newer runtime)"};

const rl_hip_error_info_t* rl_hip_error_info(hipError_t error) {
  for (size_t i = 0; i < sizeof(rl_hip_errors) / sizeof(rl_hip_errors[0]);
       ++i) {
    if (rl_hip_errors[i].error == error) return &rl_hip_errors[i];
  }
  return &rl_hip_error_unknown;
}

rl_status_t rl_hip_check(const rl_hip_api_t* api, hipError_t error,
                         const char* call, const char* file, int line) {
  if (error == hipSuccess) return RL_OK;
  const rl_hip_error_info_t* info = rl_hip_error_info(error);
  const char* text =
      api && api->fn.hipGetErrorString ? api->fn.hipGetErrorString(error) : NULL;
  return rl_status_make(info->code, file, line, "%s: %s (%d): %s%s%s%s", call,
                        info->name, (int)error, info->description,
                        text ? " (runtime: " : "", text ? text : "",
                        text ? ")" : "");
}
