// error_strings.hip — hipGetErrorString returns HIP's descriptions, not the
// enum names hipGetErrorName returns.
// Rule: HIP API reference, hipGetErrorString ("Return handy text string
// message to explain the error which occurred"); the text is ROCm CLR's
// (hipamd/src/hip_error.cpp).
#include "conformance.h"

static bool same(const char* a, const char* b) { return std::strcmp(a, b) == 0; }

int main() {
  const struct { hipError_t error; const char* name; const char* text; } rows[] = {
      {hipSuccess, "hipSuccess", "no error"},
      {hipErrorInvalidValue, "hipErrorInvalidValue", "invalid argument"},
      {hipErrorOutOfMemory, "hipErrorOutOfMemory", "out of memory"},
      {hipErrorInvalidConfiguration, "hipErrorInvalidConfiguration",
       "invalid configuration argument"},
      {hipErrorInvalidHandle, "hipErrorInvalidHandle", "invalid resource handle"},
      {hipErrorNotReady, "hipErrorNotReady", "device not ready"},
      {hipErrorLaunchFailure, "hipErrorLaunchFailure", "unspecified launch failure"},
      {hipErrorNotSupported, "hipErrorNotSupported", "operation not supported"},
      {hipErrorStreamCaptureUnjoined, "hipErrorStreamCaptureUnjoined",
       "capturing stream has unjoined work"},
  };
  for (const auto& row : rows) {
    EXPECT(same(hipGetErrorString(row.error), row.text),
           "hipGetErrorString(%s) = \"%s\", expected \"%s\"", row.name,
           hipGetErrorString(row.error), row.text);
    EXPECT(same(hipGetErrorName(row.error), row.name),
           "hipGetErrorName(%d) = \"%s\"", (int)row.error,
           hipGetErrorName(row.error));
  }
  conformance_ok("error_strings");
  return 0;
}
