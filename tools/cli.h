// tools/cli.h — shared plumbing of the redline CLI: subcommand table, file
// reading, error reporting and JSON output. Only tools/ prints; every
// command turns a failed rl_status_t into a message on stderr and the exit
// code documented in `redline help` (tools/exit_code.h: the only mapping).
#ifndef REDLINE_TOOLS_CLI_H_
#define REDLINE_TOOLS_CLI_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "redline/status.h"
#include "tools/exit_code.h"

// Reads the whole regular file at |path| into a malloc'd buffer
// (base/file.h: anything else is refused before it is read, and
// every error names the path once, so callers give the command as context).
rl_status_t rl_cli_read_file(const char* path, uint8_t** out_data,
                             size_t* out_size);

// Prints "redline: <context>: <message>" on stderr, frees |status| and
// returns its exit code.
int rl_cli_fail(rl_status_t status, const char* context);

// Prints "redline: <message>" and a hint to `redline help <command>` on
// stderr; returns RL_EXIT_USAGE.
int rl_cli_usage(const char* format, ...) __attribute__((format(printf, 1, 2)));

// Prints |root| (formatted) and a newline on stdout, then deletes it.
// Returns RL_EXIT_OK, or RL_EXIT_UNAVAILABLE when printing ran out of memory.
int rl_cli_print_json(cJSON* root);

// Writes |root| and a newline to |path| by the output-file rules
// (base/output_file.h: atomic replacement of a regular file, a link
// followed, a device or FIFO written in place); deletes |root|. Flushes
// stdio first, so text already printed precedes JSON sent to /dev/stdout.
rl_status_t rl_cli_write_json(cJSON* root, const char* path);

// Refuses |output_path| when it names the same file as one of the
// |input_count| |input_paths| (RL_STATUS_INVALID_ARGUMENT, exit 2; see
// rl_output_file_check_not_input). Every command that writes a file calls
// it before doing any work, so a mistyped command line never destroys its
// own input.
rl_status_t rl_cli_check_output(const char* output_path,
                                const char* const* input_paths,
                                size_t input_count);

// Returns true when argv[i] equals |flag|.
bool rl_cli_is(const char* arg, const char* flag);

// Parses |text|, the value of option |flag| of |command|, with the one
// number parser (base/number.h: decimal or 0x-hex, no whitespace or
// sign tricks, overflow refused) and requires |min| <= value <= |max|.
// Returns RL_EXIT_OK, or RL_EXIT_USAGE after printing, for example,
// "redline: replay: --repeat: ' -1' is not a non-negative decimal or
// 0x-hexadecimal number". Every numeric option goes through these two, each
// with its own range.
int rl_cli_number_u64(const char* command, const char* flag, const char* text,
                      uint64_t min, uint64_t max, uint64_t* out_value);
int rl_cli_number_i64(const char* command, const char* flag, const char* text,
                      int64_t min, int64_t max, int64_t* out_value);

// The processors redline runs, in the order help texts list them.
extern const char* const rl_cli_processors[];
extern const size_t rl_cli_processor_count;

// Returns true when |arg| names the processor option: --processor, or its
// alias --target (docs/cli.md). Every command that takes a processor
// accepts both spellings; help texts show --processor only.
bool rl_cli_is_processor_flag(const char* arg);

// Checks that |processor|, given with |flag| (--processor, --target), is one
// redline runs: gfx1100, gfx1151 or gfx1201. Returns RL_EXIT_OK, or
// RL_EXIT_USAGE after printing the message.
int rl_cli_processor(const char* command, const char* flag,
                     const char* processor);

// Checks a --cache-model value: off, report or strict (docs/cache-model.md).
// Returns RL_EXIT_OK, or RL_EXIT_USAGE after printing the message.
int rl_cli_cache_model(const char* command, const char* value);

// --sim-threads N (run, shadow, bench, demo): 1..RL_SIM_THREADS_MAX host
// threads per simulated dispatch, set as REDLINE_SIM_THREADS for every
// simulated device the process (or a `redline run` program) opens
// (docs/cli.md). Returns RL_EXIT_OK, or RL_EXIT_USAGE after printing the
// message.
int rl_cli_sim_threads(const char* command, const char* flag,
                       const char* value);

// Directory holding the built code objects: $REDLINE_KERNELS_DIR, else
// ../LIBDIR/redline/kernels next to an installed CLI, else the build-time
// default (RL_DEFAULT_KERNELS_DIR).
const char* rl_cli_kernels_dir(void);

// The private library directory (the HIP runtime over the simulator,
// libamdhip64.so.6/.so.5, and the interposer libredline_capture.so):
// ../LIBDIR/redline next to an installed CLI, else the build tree's
// build/lib/redline (RL_BUILD_PRIVATE_DIR).
const char* rl_cli_private_dir(void);

// Subcommands. Each receives argv starting at the subcommand name.
int rl_cmd_kernels(int argc, char** argv);
int rl_cmd_inspect(int argc, char** argv);
int rl_cmd_capture(int argc, char** argv);
int rl_cmd_infer(int argc, char** argv);
int rl_cmd_replay(int argc, char** argv);
int rl_cmd_lower(int argc, char** argv);
int rl_cmd_disasm(int argc, char** argv);
int rl_cmd_doctor(int argc, char** argv);
int rl_cmd_shadow(int argc, char** argv);
int rl_cmd_bench(int argc, char** argv);
int rl_cmd_demo(int argc, char** argv);
int rl_cmd_run(int argc, char** argv);
int rl_cmd_help(int argc, char** argv);

#endif  // REDLINE_TOOLS_CLI_H_
