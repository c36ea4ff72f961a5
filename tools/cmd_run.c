// `redline run [--processor GFX] [--executor isa|ref] [--capture FILE
// [--window SPEC]] [--trace FILE] [--timeout-ms N] [--device-memory BYTES]
// -- PROGRAM [ARGS...]`:
// runs an unmodified HIP program on the simulated GPU. The program's
// libamdhip64 (soname .so.5 or .so.6) is the HIP runtime over the
// simulator (redline/hip_sim/hip_sim.h), found first through
// LD_LIBRARY_PATH = the private library directory (LIBDIR/redline next to
// an installed CLI, build/lib/redline in the build tree); with --capture
// the interposer libredline_capture.so from the same directory is
// preloaded and writes FILE (REDLINE_CAPTURE_OUT, and
// REDLINE_CAPTURE_WINDOW from --window; capture/interposer/).
// --trace FILE has the runtime write every launch's device span as a
// Chrome/Perfetto trace at exit (REDLINE_HIP_TRACE).
// --device-memory BYTES (K/M/G suffix) is the simulated device's memory
// (REDLINE_HIP_MEMORY; default 16G): hipMalloc beyond it fails.
//
// --timeout-ms N bounds every launch's wait (REDLINE_HIP_TIMEOUT_MS,
// default 10000): a launch that outlives it fails in the program
// (hipErrorLaunchFailure) and its work-group is stopped.
//
// The exit status is the program's (128 + N when signal N killed it; 127
// when it could not be started; 7 when a launch was stopped after its
// bound: the summary names the kernel). At exit one summary line on stderr:
//   redline run: PROGRAM exited 0: 2 kernels, 5 launches, device time
//   0.084 ms (gfx1100, isa); capture out.rlc written, complete (5 launches)
// from the runtime's report (REDLINE_HIP_REPORT, a temporary file) and the
// capture file itself; it says when the program never loaded the runtime
// or the capture is missing or incomplete, and why.
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "redline/base/number.h"
#include "redline/capture_file.h"
#include "tools/cli.h"

typedef struct rl_run_s {
  const char* processor;
  const char* executor;
  const char* capture;
  const char* window;
  const char* trace;  // --trace: REDLINE_HIP_TRACE for the runtime
  const char* timeout_ms;  // --timeout-ms: REDLINE_HIP_TIMEOUT_MS
  const char* device_memory;  // --device-memory: REDLINE_HIP_MEMORY
  char** program;  // argv of the program
  char lib_dir[4096];
  char report[64];
} rl_run_t;

// A size option's value (redline/base/number.h), else a usage error.
static int rl_run_size(const char* flag, const char* value) {
  uint64_t bytes = 0;
  rl_status_t status = rl_number_parse_size(value, &bytes);
  if (!status) return RL_EXIT_OK;
  int exit_code = rl_cli_usage("run: %s: %s", flag, rl_status_message(status));
  rl_status_free(status);
  return exit_code;
}

static int rl_run_parse(int argc, char** argv, rl_run_t* run) {
  int i = 1;
  for (; i < argc; ++i) {
    const char* flag = argv[i];
    if (rl_cli_is(flag, "--")) {
      ++i;
      break;
    }
    if (flag[0] != '-') break;  // the program, without "--"
    if (i + 1 >= argc) return rl_cli_usage("run: %s needs a value", flag);
    const char* value = argv[++i];
    if (rl_cli_is(flag, "--processor")) {
      int exit_code = rl_cli_processor("run", flag, value);
      if (exit_code) return exit_code;
      run->processor = value;
    } else if (rl_cli_is(flag, "--executor")) {
      if (!rl_cli_is(value, "isa") && !rl_cli_is(value, "ref")) {
        return rl_cli_usage("run: --executor expects isa or ref, got '%s'",
                            value);
      }
      run->executor = value;
    } else if (rl_cli_is(flag, "--capture")) {
      run->capture = value;
    } else if (rl_cli_is(flag, "--window")) {
      run->window = value;
    } else if (rl_cli_is(flag, "--trace")) {
      run->trace = value;
    } else if (rl_cli_is(flag, "--timeout-ms")) {
      uint64_t ms = 0;  // the runtime takes it in ns: refuse what wraps
      int code = rl_cli_number_u64("run", flag, value, 1,
                                   UINT64_MAX / 1000000u, &ms);
      if (code) return code;
      run->timeout_ms = value;
    } else if (rl_cli_is(flag, "--device-memory")) {
      int exit_code = rl_run_size(flag, value);
      if (exit_code) return exit_code;
      run->device_memory = value;
    } else {
      return rl_cli_usage("run: unknown option '%s'", flag);
    }
  }
  if (i >= argc) return rl_cli_usage("run: no program given (run ... -- PROGRAM)");
  if (run->window && !run->capture) {
    return rl_cli_usage("run: --window needs --capture");
  }
  run->program = argv + i;
  return RL_EXIT_OK;
}

// Prepends |dir| to the colon-separated variable |name|.
static int rl_run_prepend(const char* name, const char* dir) {
  const char* old = getenv(name);
  size_t size = strlen(dir) + (old ? strlen(old) : 0) + 2;
  char* value = malloc(size);
  if (!value) return -1;
  snprintf(value, size, "%s%s%s", dir, old && old[0] ? ":" : "",
           old ? old : "");
  int result = setenv(name, value, 1);
  free(value);
  return result;
}

// The child: the environment, then exec.
static void rl_run_exec(const rl_run_t* run) {
  int failed = rl_run_prepend("LD_LIBRARY_PATH", run->lib_dir);
  failed |= setenv("REDLINE_HIP_REPORT", run->report, 1);
  if (run->processor) failed |= setenv("REDLINE_HIP_PROCESSOR", run->processor, 1);
  if (run->executor) failed |= setenv("REDLINE_HIP_EXECUTOR", run->executor, 1);
  if (run->trace) failed |= setenv("REDLINE_HIP_TRACE", run->trace, 1);
  if (run->timeout_ms) {
    failed |= setenv("REDLINE_HIP_TIMEOUT_MS", run->timeout_ms, 1);
  }
  if (run->device_memory) {
    failed |= setenv("REDLINE_HIP_MEMORY", run->device_memory, 1);
  }
  if (run->capture) {
    char interposer[4096 + 32];
    snprintf(interposer, sizeof(interposer), "%s/libredline_capture.so",
             run->lib_dir);
    failed |= rl_run_prepend("LD_PRELOAD", interposer);
    failed |= setenv("REDLINE_CAPTURE_OUT", run->capture, 1);
    if (run->window) failed |= setenv("REDLINE_CAPTURE_WINDOW", run->window, 1);
  }
  if (failed) {
    fprintf(stderr, "redline: run: cannot set the environment\n");
    _exit(127);
  }
  execvp(run->program[0], run->program);
  fprintf(stderr, "redline: run: cannot start '%s': %s\n", run->program[0],
          strerror(errno));
  _exit(127);
}

// One "key value" of the runtime's report, or |fallback|.
static uint64_t rl_run_report_u64(const char* text, const char* key,
                                  uint64_t fallback) {
  size_t length = strlen(key);
  for (const char* line = text; line && *line;) {
    if (strncmp(line, key, length) == 0 && line[length] == ' ') {
      return strtoull(line + length + 1, NULL, 10);
    }
    line = strchr(line, '\n');
    if (line) ++line;
  }
  return fallback;
}

static void rl_run_report_word(const char* text, const char* key, char* out,
                               size_t size) {
  size_t length = strlen(key);
  snprintf(out, size, "?");
  for (const char* line = text; line && *line;) {
    if (strncmp(line, key, length) == 0 && line[length] == ' ') {
      size_t n = strcspn(line + length + 1, "\n");
      snprintf(out, size, "%.*s", (int)n, line + length + 1);
      return;
    }
    line = strchr(line, '\n');
    if (line) ++line;
  }
}

// The capture part of the summary.
static void rl_run_capture_summary(const rl_run_t* run, char* out,
                                   size_t size) {
  if (!run->capture) {
    out[0] = '\0';
    return;
  }
  rl_capture_t* capture = NULL;
  rl_status_t status = rl_capture_file_read(run->capture, &capture, NULL);
  if (status) {
    snprintf(out, size, "; capture %s not written (%s)", run->capture,
             rl_status_message(status));
    rl_status_free(status);
    return;
  }
  if (rl_capture_incomplete(capture)) {
    snprintf(out, size, "; capture %s written, INCOMPLETE: %s", run->capture,
             capture->incomplete_reason ? capture->incomplete_reason : "?");
  } else {
    snprintf(out, size, "; capture %s written, complete (%u launches)",
             run->capture, capture->launch_count);
  }
  rl_capture_destroy(capture);
}

// Prints the summary; true when the runtime stopped a launch that outlived
// its bound (report line "stopped KERNEL").
static bool rl_run_summary(const rl_run_t* run, const char* outcome) {
  char* text = NULL;
  FILE* file = fopen(run->report, "r");
  if (file) {
    text = calloc(1, 65536);
    if (text) fread(text, 1, 65535, file);
    fclose(file);
  }
  char capture[1024];
  rl_run_capture_summary(run, capture, sizeof(capture));
  if (!text) {
    fprintf(stderr, "redline run: %s %s: no report from the simulator's "
            "HIP runtime (the program did not load it: no HIP call, or "
            "another libamdhip64; or it ended without running its exit "
            "handlers)%s\n", run->program[0], outcome, capture);
    return false;
  }
  char processor[32], executor[16];
  rl_run_report_word(text, "processor", processor, sizeof(processor));
  rl_run_report_word(text, "executor", executor, sizeof(executor));
  uint64_t ticks = rl_run_report_u64(text, "device_ticks", 0);
  char trace[600] = "";
  if (run->trace) {
    snprintf(trace, sizeof(trace), "; trace %s %s", run->trace,
             access(run->trace, R_OK) == 0 ? "written" : "NOT written");
  }
  char stopped[256] = "", kernel[160];
  rl_run_report_word(text, "stopped", kernel, sizeof(kernel));
  if (strcmp(kernel, "?") != 0) {
    snprintf(stopped, sizeof(stopped), "; kernel %s did not finish within "
             "%" PRIu64 " ms and was STOPPED (exit 7)", kernel,
             rl_run_report_u64(text, "timeout_ms", 0));
  }
  fprintf(stderr, "redline run: %s %s: %" PRIu64 " kernels, %" PRIu64
          " launches, device time %.3f ms (%s, %s)%s%s%s%s\n",
          run->program[0], outcome, rl_run_report_u64(text, "kernels", 0),
          rl_run_report_u64(text, "launches", 0), (double)ticks / 1e5,
          processor, executor,
          rl_run_report_u64(text, "failed", 0) ? "; a launch FAILED" : "",
          stopped, capture, trace);
  free(text);
  return stopped[0] != '\0';
}

int rl_cmd_run(int argc, char** argv) {
  rl_run_t run = {0};
  int exit_code = rl_run_parse(argc, argv, &run);
  if (exit_code) return exit_code;
  snprintf(run.lib_dir, sizeof(run.lib_dir), "%s", rl_cli_private_dir());
  snprintf(run.report, sizeof(run.report), "/tmp/redline-run-XXXXXX");
  int fd = mkstemp(run.report);
  if (fd < 0) {
    fprintf(stderr, "redline: run: cannot create a report file: %s\n",
            strerror(errno));
    return RL_EXIT_UNAVAILABLE;
  }
  close(fd);
  unlink(run.report);  // the runtime creates it when it loads
  // Outputs must not name the program; ones left by an earlier run must
  // not pass for this one's.
  const char* program = run.program[0];
  rl_status_t checked = rl_cli_check_output(run.trace, &program, 1);
  if (!checked) checked = rl_cli_check_output(run.capture, &program, 1);
  if (checked) {
    unlink(run.report);
    return rl_cli_fail(checked, "run");
  }
  if (run.capture) unlink(run.capture);
  if (run.trace) unlink(run.trace);
  fflush(NULL);
  pid_t child = fork();
  if (child < 0) {
    fprintf(stderr, "redline: run: fork: %s\n", strerror(errno));
    return RL_EXIT_UNAVAILABLE;
  }
  if (child == 0) rl_run_exec(&run);
  // Signals meant for the program (Ctrl-C) reach it through the process
  // group; redline waits for it either way.
  signal(SIGINT, SIG_IGN);
  signal(SIGQUIT, SIG_IGN);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  char outcome[64];
  if (WIFEXITED(status)) {
    exit_code = WEXITSTATUS(status);
    snprintf(outcome, sizeof(outcome), "exited %d", exit_code);
  } else {
    exit_code = 128 + WTERMSIG(status);
    snprintf(outcome, sizeof(outcome), "killed by signal %d",
             WTERMSIG(status));
  }
  // A launch stopped after its bound: exit 7 (quarantined), whatever the
  // program made of the error its synchronisation returned.
  if ((exit_code != 127 || access(run.report, R_OK) == 0) &&
      rl_run_summary(&run, outcome) && WIFEXITED(status)) {
    exit_code = RL_EXIT_QUARANTINED;
  }
  unlink(run.report);
  return exit_code;
}
