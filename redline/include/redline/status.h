// redline/status.h — the status and error model used by every redline module.
//
// A status is either RL_OK (a NULL pointer: the success path allocates nothing)
// or a heap object carrying:
//   - a fixed code (rl_status_code_t) naming the class of what failed
//     (documented below; the CLI decides which exit code each class gets,
//     in tools/exit_code.h, not here);
//   - a message saying what was expected and what was found;
//   - context prepended by callers on the way up (file offset, section,
//     launch index, kernel symbol...), so the final text reads
//     "capture.rlc: section LAUNCHES, byte 212: launch 3: kernarg size 24, expected 28";
//   - the source file and line where it was raised.
//
// Ownership: a function returning a non-OK status transfers it to the caller,
// who must either return it further (RL_RETURN_IF_ERROR), annotate and return
// it, or release it with rl_status_free(). Library code never prints or exits;
// only tools/ turns a status into text on stderr and an exit code.
//
// Thread-safety: a status is a plain value owned by one thread at a time. The
// out-of-memory status is a shared static that rl_status_free() ignores, so
// reporting allocation failure never allocates.
#ifndef REDLINE_STATUS_H_
#define REDLINE_STATUS_H_

#include <stdarg.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

// Status codes: what failed. The numbers are stable (the Python binding and
// the shadow JSON report carry them) but mean nothing beyond the class; a
// program's exit code is the caller's choice (the CLI's: tools/exit_code.h).
typedef enum rl_status_code_e {
  RL_STATUS_OK = 0,
  // A comparison found a divergence or mismatch.
  RL_STATUS_MISMATCH = 1,
  // The caller used the API or the CLI wrongly: bad flag, bad value.
  RL_STATUS_INVALID_ARGUMENT = 2,
  // An input file (capture, code object) is malformed or corrupt.
  RL_STATUS_INVALID_INPUT = 3,
  // A replay contract does not hold: ISA, digest, sizes, ranges.
  RL_STATUS_CONTRACT = 4,
  // Prepare failed: lowering, loading, allocation of replay resources.
  RL_STATUS_PREPARE = 5,
  // A replay failed and the replay object is poisoned until re-capture.
  RL_STATUS_POISONED = 6,
  // Queue state unknown after a failure: nothing may run on it.
  RL_STATUS_QUARANTINED = 7,
  // No usable device or runtime library.
  RL_STATUS_UNAVAILABLE = 8,
  // Well-formed input using something redline does not support.
  RL_STATUS_UNSUPPORTED = 9,
  // The operating system refused a file operation.
  RL_STATUS_IO = 10,
  // A named thing (kernel symbol, buffer, parameter) does not exist.
  RL_STATUS_NOT_FOUND = 11,
  // Memory allocation failed.
  RL_STATUS_OUT_OF_MEMORY = 12,
  // A redline invariant broke: a bug, never a user error.
  RL_STATUS_INTERNAL = 13,
} rl_status_code_t;

typedef struct rl_status_s* rl_status_t;
#define RL_OK ((rl_status_t)0)

// Creates a status with |code| and a printf-style message. Use RL_STATUS().
rl_status_t rl_status_make(rl_status_code_t code, const char* file, int line,
                           const char* format, ...)
    __attribute__((format(printf, 4, 5)));
rl_status_t rl_status_makev(rl_status_code_t code, const char* file, int line,
                            const char* format, va_list args);

#define RL_STATUS(code, ...) \
  rl_status_make((code), __FILE__, __LINE__, __VA_ARGS__)

// Returns |status| from the enclosing function when it is not OK.
#define RL_RETURN_IF_ERROR(expr)       \
  do {                                 \
    rl_status_t rl_status_ = (expr);   \
    if (rl_status_) return rl_status_; \
  } while (0)

// Prepends "<context>: " to the message of |status| and returns it. OK stays
// OK (so `return rl_status_annotate(f(), "launch %u", i);` is safe).
rl_status_t rl_status_annotate(rl_status_t status, const char* format, ...)
    __attribute__((format(printf, 2, 3)));

// Joins a cleanup error into a primary one instead of dropping it: returns
// |primary| with "; also: <secondary message>" appended, or |secondary| when
// |primary| is OK. Consumes |secondary|.
rl_status_t rl_status_join(rl_status_t primary, rl_status_t secondary);

// Accessors; all accept RL_OK (code OK, message "OK", file "", line 0).
rl_status_code_t rl_status_code(rl_status_t status);
const char* rl_status_message(rl_status_t status);
const char* rl_status_file(rl_status_t status);
int rl_status_line(rl_status_t status);
bool rl_status_is(rl_status_t status, rl_status_code_t code);

// Stable upper-case name of |code| ("INVALID_INPUT").
const char* rl_status_code_name(rl_status_code_t code);

// Releases |status|; RL_OK and the static out-of-memory status are ignored.
void rl_status_free(rl_status_t status);

// Returns the shared out-of-memory status (never allocates).
rl_status_t rl_status_out_of_memory(void);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_STATUS_H_
