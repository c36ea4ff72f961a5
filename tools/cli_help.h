// tools/cli_help.h — the CLI's command table and everything derived from it:
// `redline help`, the manual pages and the bash completion. One text per
// command (its synopsis and help) is the only source; the manual pages and
// the completion are generated from it at build time (tools/CMakeLists.txt),
// so they cannot drift from what `redline help COMMAND` prints.
#ifndef REDLINE_TOOLS_CLI_HELP_H_
#define REDLINE_TOOLS_CLI_HELP_H_

#include <stddef.h>
#include <stdio.h>

typedef struct rl_cli_command_s {
  const char* name;
  int (*run)(int argc, char** argv);
  // "shadow FILE [--arms LIST] ...": the command line, without "redline ".
  const char* synopsis;
  // The first sentence says what the command does (it becomes the manual
  // page's NAME line); the lines after it that start with two spaces are
  // the options; lines after the options are notes (exit status, environment).
  const char* help;
} rl_cli_command_t;

// The command table (tools/redline_main.c) and the exit-code text shared by
// every page.
extern const rl_cli_command_t rl_cli_commands[];
extern const size_t rl_cli_command_count;
extern const char rl_cli_exit_codes[];

// Writes DIR/redline.1 (the overview: every command's synopsis) and
// DIR/redline-COMMAND.1 for every command, in man(7) format. |version| is
// printed in the page footer. Returns 0, or -1 after printing the path and
// the system error on stderr.
int rl_cli_write_man_pages(const char* dir, const char* version);

// Writes a bash completion script for `redline` to |out|: commands, each
// command's options (taken from its synopsis and help), and the values of
// the options that take one of a fixed set (routes, arms, processors,
// executors, hazard and cache modes, devices; workloads are asked of
// `redline capture --list` when completing).
void rl_cli_write_bash_completion(FILE* out);

#endif  // REDLINE_TOOLS_CLI_HELP_H_
