// tools/cli.h — shared plumbing of the redline CLI: subcommand table, file
// reading, error reporting and JSON output. Only tools/ prints; every
// command turns a failed rl_status_t into a message on stderr and the exit
// code documented in `redline help` (rl_status_exit_code()).
#ifndef REDLINE_TOOLS_CLI_H_
#define REDLINE_TOOLS_CLI_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "redline/status.h"

// Exit codes (docs/cli.md). Equal to rl_status_exit_code() of each class.
enum {
  RL_EXIT_OK = 0,
  RL_EXIT_MISMATCH = 1,
  RL_EXIT_USAGE = 2,
  RL_EXIT_INVALID_INPUT = 3,
  RL_EXIT_CONTRACT = 4,
  RL_EXIT_PREPARE = 5,
  RL_EXIT_POISONED = 6,
  RL_EXIT_QUARANTINED = 7,
  RL_EXIT_UNAVAILABLE = 8,
};

// Reads the whole file at |path| into a malloc'd buffer (RL_STATUS_IO on
// failure, naming the path and the errno text).
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
// (redline/base/output_file.h: atomic replacement of a regular file, a link
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

// Parses an unsigned/signed decimal or 0x-hex integer; false on junk.
bool rl_cli_parse_u64(const char* text, uint64_t* out_value);
bool rl_cli_parse_i64(const char* text, int64_t* out_value);

// Directory holding the built code objects: $REDLINE_KERNELS_DIR, else the
// build-time default (RL_DEFAULT_KERNELS_DIR).
const char* rl_cli_kernels_dir(void);

// Subcommands. Each receives argv starting at the subcommand name.
int rl_cmd_kernels(int argc, char** argv);
int rl_cmd_inspect(int argc, char** argv);
int rl_cmd_capture(int argc, char** argv);
int rl_cmd_replay(int argc, char** argv);
int rl_cmd_lower(int argc, char** argv);
int rl_cmd_disasm(int argc, char** argv);
int rl_cmd_doctor(int argc, char** argv);
int rl_cmd_shadow(int argc, char** argv);
int rl_cmd_bench(int argc, char** argv);
int rl_cmd_demo(int argc, char** argv);
int rl_cmd_help(int argc, char** argv);

#endif  // REDLINE_TOOLS_CLI_H_
