// sim/hip_sim/hip_sim_rtc_names.h — hiprtc name expressions for
// hip_sim_rtc.c (docs/hip-runtime.md "Run-time compilation"): the
// expressions a program added (hiprtcAddNameExpression), the source text
// that makes the compiler resolve each one, and the lowered (mangled) name
// each resolved to in the compiled code object (hiprtcGetLoweredName).
//
// The program is compiled twice when it has name expressions. Its code
// comes from the source with each expression i ("scale<int>", "&my_var",
// "ns::kern") taken by address in a host variable,
//   static __attribute__((used)) const void* __redline_hiprtc_name_<i> =
//       (const void*)&(<expression>);
// (no "&" added when the expression starts with one): clang instantiates
// the template it names, resolves overloads as C++ does, and emits the
// kernel or device variable, while the code object gains no data (a
// device compile emits no host variable). A second compile, read for the
// names only, makes each a device variable instead,
//   extern "C" __device__ __attribute__((used)) const void*
//       __redline_hiprtc_name_<i> = (const void*)&(<expression>);
// which the linked code object initialises with a dynamic relocation
// whose target is the kernel's entry or the variable's address; the
// lowered name is the kernel (its descriptor symbol without ".kd") or
// variable found there. (Those pointer variables would be relocated data
// a capture cannot record, hence the two compiles.) An expression naming
// a __device__ function has no lowered name. One naming host code fails
// the second compile (a host function: the linker finds the device
// variable's target undefined; a host variable: clang refuses the
// initialiser), and then the whole compile fails with
// HIPRTC_ERROR_COMPILATION, as ROCm 6.1+'s hiprtc does: it compiles the same
// kind of device variable per expression (clr hipamd/src/hiprtc,
// RTCCompileProgram::trackMangledName, "__amdgcn_name_expr_<n>") into the
// program's only compile. rl_rtc_names_blame names the expressions.
// Private to the library; no locking (a program is used by one thread at
// a time, as in HIP).
#ifndef REDLINE_HIP_SIM_HIP_SIM_RTC_NAMES_H_
#define REDLINE_HIP_SIM_HIP_SIM_RTC_NAMES_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct rl_rtc_name_s {
  char* expression;  // as added
  char* lowered;     // NULL before a compile resolved it
} rl_rtc_name_t;

typedef struct rl_rtc_names_s {
  size_t count;
  rl_rtc_name_t* names;  // in the order added, no duplicates
} rl_rtc_names_t;

// Adds |expression| (a copy) unless it is there already; false when out of
// memory.
bool rl_rtc_names_add(rl_rtc_names_t* names, const char* expression);

// The program's source with one generated variable per expression
// appended (see the top of this file: host variables, or device pointer
// variables when |device_pointers|), each behind a #line naming the
// expression so clang's errors name it; NULL when out of memory. The
// caller frees it.
char* rl_rtc_names_source(const rl_rtc_names_t* names, const char* source,
                          bool device_pointers);

// Drops every lowered name (before a compile).
void rl_rtc_names_forget(rl_rtc_names_t* names);

// Reads every expression's lowered name from |code| (|size| bytes), the
// code object compiled from the device-pointer source. Returns NULL on success, else a malloc'd message
// for the program log naming the first expression that resolved to no
// kernel or variable (the others are still resolved).
char* rl_rtc_names_resolve(rl_rtc_names_t* names, const void* code,
                           size_t size);

// A malloc'd message for the program log naming each expression the
// failed device-pointer compile's |log| blames: its generated variable in
// a linker error (a host function) or its "<name expression i" file name
// in a compiler error (a host variable). NULL when the log names none (or
// out of memory).
char* rl_rtc_names_blame(const rl_rtc_names_t* names, const char* log);

// The entry for |expression|, or NULL when it was never added.
const rl_rtc_name_t* rl_rtc_names_find(const rl_rtc_names_t* names,
                                       const char* expression);

void rl_rtc_names_free(rl_rtc_names_t* names);

#endif  // REDLINE_HIP_SIM_HIP_SIM_RTC_NAMES_H_
