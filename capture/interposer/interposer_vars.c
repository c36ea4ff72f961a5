// capture/interposer/interposer_vars.c — code object variables as capture
// buffers (capture/interposer/interposer_internal.h): `__device__` and
// `__constant__` globals a kernel reaches through its code object or a
// program passes by their hipGetSymbolAddress pointer.
//
// Every variable of a module becomes a buffer aliasing it
// (rl_funnel_variable, redline/capture.h) at the first recorded launch
// after the module is known, so its initial contents are its bytes when
// the window's first launch is issued (or, for a module loaded inside the
// window, before its first launch), like any buffer's. The device address
// comes from the runtime: hipGetSymbolAddress of the host handle
// __hipRegisterVar gave (a fat binary's variables) or hipModuleGetGlobal
// (a module's).
#include <stdio.h>
#include <string.h>

#include "capture/interposer/interposer_internal.h"
#include "base/array.h"

void __hipRegisterVar(void** modules, void* var, char* hostVar,
                      char* deviceVar, int ext, size_t size, int constant,
                      int global);

RL_IP_EXPORT void __hipRegisterVar(void** modules, void* var, char* hostVar,
                                   char* deviceVar, int ext, size_t size,
                                   int constant, int global) {
  RL_IP_ENTER();
  RL_IP_REAL(__hipRegisterVar);
  if (real___hipRegisterVar) {
    real___hipRegisterVar(modules, var, hostVar, deviceVar, ext, size,
                          constant, global);
  }
  rl_ip_module_t* m =
      rl_ip_on ? rl_ip_module_find(ip, (hipModule_t)modules) : NULL;
  if (m && var && deviceVar && ip->var_count < RL_IP_MAX_VARS) {
    rl_ip_var_t* v = &ip->vars[ip->var_count++];
    v->module = (uint32_t)(m - ip->modules);
    v->host = var;
    snprintf(v->name, sizeof(v->name), "%s", deviceVar);
  }
  rl_ip_leave(hipSuccess);
}

// The device address of variable |name| of module |m| in the runtime; 0
// when the runtime does not say (a fat binary's variable nobody
// registered). Lock held.
static uint64_t rl_ip_var_address(rl_interposer_t* ip, const rl_ip_module_t* m,
                                  const char* name) {
  RL_IP_REAL(hipGetSymbolAddress);
  RL_IP_REAL(hipModuleGetGlobal);
  uint32_t index = (uint32_t)(m - ip->modules);
  if (m->fat_binary) {
    for (uint32_t i = 0; i < ip->var_count; ++i) {
      const rl_ip_var_t* v = &ip->vars[i];
      void* device = NULL;
      if (v->module == index && strcmp(v->name, name) == 0 &&
          real_hipGetSymbolAddress &&
          real_hipGetSymbolAddress(&device, v->host) == hipSuccess) {
        return (uint64_t)(uintptr_t)device;
      }
    }
    return 0;
  }
  hipDeviceptr_t device = NULL;
  size_t bytes = 0;
  if (!real_hipModuleGetGlobal ||
      real_hipModuleGetGlobal(&device, &bytes, m->module, name) != hipSuccess) {
    return 0;
  }
  return (uint64_t)(uintptr_t)device;
}

// Registers the variables of module |m| as buffers; lock held.
static void rl_ip_module_variables(rl_interposer_t* ip, rl_ip_module_t* m) {
  m->variables_recorded = true;
  for (uint32_t i = 0; i < m->parsed->variable_count; ++i) {
    const rl_code_object_variable_t* variable = &m->parsed->variables[i];
    uint64_t address = rl_ip_var_address(ip, m, variable->name);
    if (!address) continue;  // not addressable from the host: no pointer
    char name[RL_CAPTURE_NAME_MAX];
    snprintf(name, sizeof(name), "%s", variable->name);
    uint32_t existing = 0;
    if (rl_capture_find_buffer(rl_funnel_capture(ip->funnel), name,
                               &existing)) {
      snprintf(name, sizeof(name), "%.200s@co%u", variable->name,
               m->code_object);
    }
    uint32_t index = 0;
    rl_status_t status =
        rl_funnel_variable(ip->funnel, name, m->code_object, variable->name,
                           address, RL_BUFFER_ROLE_STATE, &index);
    if (status) {
      char what[RL_CAPTURE_NAME_MAX + 64];
      snprintf(what, sizeof(what), "variable %s", variable->name);
      rl_ip_fail(status, what);
      rl_ip_note(ip, 0, "variable %s of code object %u was not recorded",
                 variable->name, m->code_object);
    }
  }
}

void rl_ip_record_variables(rl_interposer_t* ip) {
  for (uint32_t m = 0; m < ip->module_count; ++m) {
    if (!ip->modules[m].variables_recorded && ip->modules[m].parsed) {
      rl_ip_module_variables(ip, &ip->modules[m]);
    }
  }
}

// A write into a variable while the window is open is not recorded yet
// (a copy kernel into the variable's buffer would be the way): the
// capture is marked incomplete rather than replaying without it. Before
// the window it is part of the initial contents. Lock held.
static void rl_ip_symbol_write(rl_interposer_t* ip, const void* symbol,
                               const char* call) {
  if (!ip->funnel || !rl_ip_in_window(ip)) return;
  const char* name = "?";
  for (uint32_t i = 0; i < ip->var_count; ++i) {
    if (ip->vars[i].host == symbol) name = ip->vars[i].name;
  }
  rl_ip_note(ip, 0, "%s(%s) inside the window is not recorded", call, name);
}

RL_IP_EXPORT hipError_t hipMemcpyToSymbol(const void* symbol, const void* src,
                                          size_t size, size_t offset,
                                          hipMemcpyKind kind) {
  RL_IP_ENTER();
  RL_IP_REAL(hipMemcpyToSymbol);
  if (!real_hipMemcpyToSymbol) return rl_ip_leave(hipErrorNotSupported);
  if (rl_ip_on) rl_ip_symbol_write(ip, symbol, "hipMemcpyToSymbol");
  return rl_ip_leave(real_hipMemcpyToSymbol(symbol, src, size, offset, kind));
}

RL_IP_EXPORT hipError_t hipMemcpyToSymbolAsync(const void* symbol,
                                               const void* src, size_t size,
                                               size_t offset,
                                               hipMemcpyKind kind,
                                               hipStream_t stream) {
  RL_IP_ENTER();
  RL_IP_REAL(hipMemcpyToSymbolAsync);
  if (!real_hipMemcpyToSymbolAsync) return rl_ip_leave(hipErrorNotSupported);
  if (rl_ip_on) rl_ip_symbol_write(ip, symbol, "hipMemcpyToSymbolAsync");
  return rl_ip_leave(
      real_hipMemcpyToSymbolAsync(symbol, src, size, offset, kind, stream));
}
