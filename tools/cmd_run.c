// `redline run [--processor GFX] [--executor isa|ref] [--capture FILE
// [--window SPEC | --steps K [--skip-steps M] [--step-start KERNEL]
// [--verify-steps N]]]
// [--trace FILE] [--timeout-ms N] [--device-memory BYTES]
// -- PROGRAM [ARGS...]`:
// runs an unmodified HIP program on the simulated GPU. The program's
// libamdhip64 (soname .so.5 or .so.6) is the HIP runtime over the
// simulator (sim/hip_sim/hip_sim.h), found first through
// LD_LIBRARY_PATH = the private library directory (LIBDIR/redline next to
// an installed CLI, build/lib/redline in the build tree); with --capture
// the interposer libredline_capture.so from the same directory is
// preloaded and writes FILE (REDLINE_CAPTURE_OUT, and
// REDLINE_CAPTURE_WINDOW from --window; capture/interposer/).
// --steps K records K steps of equal structure (REDLINE_CAPTURE_STEPS and
// the rest, capture/interposer/interposer_steps.c): cut at --step-start,
// or at the period a first, recording-free run of the program finds
// (tools/run_steps.h); a refusal (report "refused ...") exits 4.
// --trace FILE has the runtime write every launch's device span as a
// Chrome/Perfetto trace at exit (REDLINE_HIP_TRACE).
// --device-memory BYTES (K/M/G suffix) is the simulated device's memory
// (REDLINE_HIP_MEMORY; default 16G): hipMalloc beyond it fails.
//
// --timeout-ms N bounds every launch's stall (REDLINE_HIP_TIMEOUT_MS,
// default 10000): a launch none of whose work-groups completes for N ms
// fails in the program (hipErrorLaunchFailure) and its work-group is
// stopped; a launch that keeps completing work-groups runs as long as it
// needs.
//
// The exit status is the program's (128 + N when signal N killed it; 127
// when it could not be started; 7 when a launch was stopped after its
// bound: the summary names the kernel); a bad option value is a usage
// error (2) before anything starts or is touched. At exit one summary line
// on stderr:
//   redline run: PROGRAM exited 0: 2 kernels, 5 launches, device time
//   0.084 ms (gfx1100, isa); capture out.rlc written, complete (5 launches)
// from the runtime's report (REDLINE_HIP_REPORT) and the interposer's
// (REDLINE_CAPTURE_REPORT), two files in a private directory (mkdtemp, mode
// 0700) removed at the end; it says when the program never loaded the
// runtime or the capture is missing or incomplete, and why.
//
// Outputs: run never removes or truncates FILE itself. The interposer and
// the runtime write the capture and the trace inside the program's process
// through the one output writer (base/output_file.h), so an
// existing file is replaced only once the new one is complete, a symbolic
// link is followed, a FIFO or device is written in place, and a failed
// write (a full disk) leaves the old file as it was. Only the program's
// own process writes them (REDLINE_RUN_PID; base/run_owner.h): a
// child it forks or execs records nothing.
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture/recording/capture_window_spec.h"
#include "base/number.h"
#include "base/output_file.h"
#include "tools/cli.h"
#include "tools/run_steps.h"

typedef struct rl_run_s {
  const char* processor;
  const char* executor;
  const char* capture;
  const char* window;
  const char* trace;  // --trace: REDLINE_HIP_TRACE for the runtime
  const char* timeout_ms;  // --timeout-ms: REDLINE_HIP_TIMEOUT_MS
  const char* device_memory;  // --device-memory: REDLINE_HIP_MEMORY
  const char* hazards;         // --hazards: REDLINE_HIP_HAZARDS
  const char* seed;            // --seed: REDLINE_HIP_SEED
  const char* cache_model;     // --cache-model: REDLINE_HIP_CACHE_MODEL
  const char* max_work_items;  // --max-work-items: REDLINE_HIP_MAX_WORK_ITEMS
  const char* max_dispatches;  // --max-dispatches: REDLINE_HIP_MAX_DISPATCHES
  // --capture-max-launches: REDLINE_CAPTURE_MAX_LAUNCHES (the interposer's)
  const char* capture_max_launches;
  // --steps K [--skip-steps M] [--step-start KERNEL] (tools/run_steps.h)
  const char* steps;
  const char* skip_steps;
  const char* step_start;
  const char* verify_steps;  // --verify-steps N: REDLINE_CAPTURE_VERIFY_STEPS
  uint64_t step_count, skip_count, verify_count;
  bool surveying;         // this pass lists the launch sequence only
  char step_window[96];   // the capture pass's items: window
  char step_period[32];
  char survey[4096 + 16];
  char** program;  // argv of the program
  char lib_dir[4096];
  char dir[4096];                  // private directory of the two reports
  char report[4096 + 16];          // the runtime's (REDLINE_HIP_REPORT)
  char capture_report[4096 + 16];  // the interposer's
} rl_run_t;

// A size option's value (base/number.h), else a usage error.
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
    if (rl_cli_is_processor_flag(flag)) {
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
    } else if (rl_cli_is(flag, "--steps")) {
      int code = rl_cli_number_u64("run", flag, value, 2, 4096,
                                   &run->step_count);
      if (code) return code;
      run->steps = value;
    } else if (rl_cli_is(flag, "--skip-steps")) {
      int code = rl_cli_number_u64("run", flag, value, 0, UINT32_MAX,
                                   &run->skip_count);
      if (code) return code;
      run->skip_steps = value;
    } else if (rl_cli_is(flag, "--verify-steps")) {
      int code = rl_cli_number_u64("run", flag, value, 0, 4096,
                                   &run->verify_count);
      if (code) return code;
      run->verify_steps = value;
    } else if (rl_cli_is(flag, "--step-start")) {
      if (!value[0] || strlen(value) >= 128) {
        return rl_cli_usage("run: --step-start expects a kernel name of 1 "
                            "to 127 bytes");
      }
      run->step_start = value;
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
    } else if (rl_cli_is(flag, "--hazards")) {
      if (!rl_cli_is(value, "sequential") && !rl_cli_is(value, "adversarial")) {
        return rl_cli_usage("run: --hazards expects sequential or "
                            "adversarial, got '%s'", value);
      }
      run->hazards = value;
    } else if (rl_cli_is(flag, "--sim-threads")) {
      int exit_code = rl_cli_sim_threads("run", flag, value);
      if (exit_code) return exit_code;
    } else if (rl_cli_is(flag, "--cache-model")) {
      int exit_code = rl_cli_cache_model("run", value);
      if (exit_code) return exit_code;
      run->cache_model = value;
    } else if (rl_cli_is(flag, "--seed")) {
      uint64_t seed = 0;
      int code = rl_cli_number_u64("run", flag, value, 0, UINT64_MAX, &seed);
      if (code) return code;
      run->seed = value;
    } else if (rl_cli_is(flag, "--capture-max-launches")) {
      uint64_t n = 0;
      rl_status_t parsed = rl_number_parse_size(value, &n);
      rl_status_free(parsed);
      if (parsed != RL_OK) {
        return rl_cli_usage("run: %s expects a positive number (K, M or G "
                            "suffix allowed), got '%s'", flag, value);
      }
      run->capture_max_launches = value;
    } else if (rl_cli_is(flag, "--max-work-items") ||
               rl_cli_is(flag, "--max-dispatches")) {
      // The budgets' syntax (tools/cli_limits.c): a positive number with an
      // optional K, M or G suffix, as replay and shadow take them.
      bool items = rl_cli_is(flag, "--max-work-items");
      uint64_t n = 0;
      rl_status_t parsed = rl_number_parse_size(value, &n);
      rl_status_free(parsed);
      if (parsed != RL_OK || (!items && n > UINT32_MAX)) {
        return rl_cli_usage("run: %s expects a positive number (K, M or G "
                            "suffix allowed), got '%s'", flag, value);
      }
      if (items) {
        run->max_work_items = value;
      } else {
        run->max_dispatches = value;
      }
    } else {
      return rl_cli_usage("run: unknown option '%s'", flag);
    }
  }
  if (i >= argc) return rl_cli_usage("run: no program given (run ... -- PROGRAM)");
  if (run->window && !run->capture) {
    return rl_cli_usage("run: --window needs --capture");
  }
  if (run->capture_max_launches && !run->capture) {
    return rl_cli_usage("run: --capture-max-launches needs --capture");
  }
  if (run->steps && !run->capture) {
    return rl_cli_usage("run: --steps needs --capture");
  }
  if ((run->skip_steps || run->step_start || run->verify_steps) &&
      !run->steps) {
    return rl_cli_usage("run: %s needs --steps",
                        run->skip_steps   ? "--skip-steps"
                        : run->step_start ? "--step-start"
                                          : "--verify-steps");
  }
  if (run->steps && run->window) {
    return rl_cli_usage("run: --steps sets the window itself (drop --window)");
  }
  if (run->window) {
    rl_capture_window_spec_t spec;
    rl_status_t status = rl_capture_window_spec_parse(run->window, &spec);
    if (status) {
      int code = rl_cli_usage("run: --window: %s", rl_status_message(status));
      rl_status_free(status);
      return code;
    }
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

// The step capture's variables (capture/interposer/interposer_steps.c).
static int rl_run_steps_env(const rl_run_t* run) {
  if (run->surveying) return setenv("REDLINE_CAPTURE_SURVEY", run->survey, 1);
  if (!run->steps) return 0;
  int failed = setenv("REDLINE_CAPTURE_STEPS", run->steps, 1);
  if (run->skip_steps) {
    failed |= setenv("REDLINE_CAPTURE_SKIP_STEPS", run->skip_steps, 1);
  }
  if (run->verify_steps) {
    failed |= setenv("REDLINE_CAPTURE_VERIFY_STEPS", run->verify_steps, 1);
  }
  if (run->step_start) {
    failed |= setenv("REDLINE_CAPTURE_STEP_START", run->step_start, 1);
  } else {
    failed |= setenv("REDLINE_CAPTURE_WINDOW", run->step_window, 1);
    failed |= setenv("REDLINE_CAPTURE_STEP_PERIOD", run->step_period, 1);
  }
  return failed;
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
  // exec keeps the pid: only the program writes the outputs.
  char pid[32];
  snprintf(pid, sizeof(pid), "%ld", (long)getpid());
  failed |= setenv("REDLINE_RUN_PID", pid, 1);
  if (run->device_memory) {
    failed |= setenv("REDLINE_HIP_MEMORY", run->device_memory, 1);
  }
  const char* const passed[][2] = {
      {"REDLINE_HIP_HAZARDS", run->hazards},
      {"REDLINE_HIP_SEED", run->seed},
      {"REDLINE_HIP_CACHE_MODEL", run->cache_model},
      {"REDLINE_HIP_MAX_WORK_ITEMS", run->max_work_items},
      {"REDLINE_HIP_MAX_DISPATCHES", run->max_dispatches}};
  for (size_t i = 0; i < sizeof(passed) / sizeof(passed[0]); ++i) {
    if (passed[i][1]) failed |= setenv(passed[i][0], passed[i][1], 1);
  }
  if (run->capture) {
    char interposer[4096 + 32];
    snprintf(interposer, sizeof(interposer), "%s/libredline_capture.so",
             run->lib_dir);
    failed |= rl_run_prepend("LD_PRELOAD", interposer);
    failed |= setenv("REDLINE_CAPTURE_OUT", run->capture, 1);
    failed |= setenv("REDLINE_CAPTURE_REPORT", run->capture_report, 1);
    if (run->window) failed |= setenv("REDLINE_CAPTURE_WINDOW", run->window, 1);
    if (run->capture_max_launches) {
      failed |= setenv("REDLINE_CAPTURE_MAX_LAUNCHES",
                       run->capture_max_launches, 1);
    }
    failed |= rl_run_steps_env(run);
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

// Reads at most |size| - 1 bytes of |path| into |out| ("" when absent).
static void rl_run_read_small(const char* path, char* out, size_t size) {
  out[0] = '\0';
  FILE* file = fopen(path, "r");
  if (!file) return;
  size_t n = fread(out, 1, size - 1, file);
  out[n] = '\0';
  fclose(file);
  out[strcspn(out, "\n")] = '\0';
}

// The capture part of the summary, from the interposer's report (never
// from FILE: it may be a FIFO or a device, or the older file a failed
// write kept).
static void rl_run_capture_summary(const rl_run_t* run, char* out,
                                   size_t size) {
  if (!run->capture) {
    out[0] = '\0';
    return;
  }
  char line[4096 + 512];
  rl_run_read_small(run->capture_report, line, sizeof(line));
  unsigned launches = 0;
  int offset = 0;
  if (run->surveying) {
    snprintf(out, size, "; launch sequence listed (%.100s)", line);
  } else if (strncmp(line, "failed ", 7) == 0) {
    snprintf(out, size, "; capture %s NOT written (%.1000s)", run->capture,
             line + 7);
  } else if (strncmp(line, "refused ", 8) == 0) {
    snprintf(out, size, "; capture %s NOT written, steps REFUSED: %.1000s",
             run->capture, line + 8);
  } else if (sscanf(line, "written %u complete%n", &launches, &offset) == 1 &&
             offset > 0) {
    snprintf(out, size, "; capture %s written, complete (%u launches)",
             run->capture, launches);
  } else if (sscanf(line, "written %u incomplete %n", &launches, &offset) ==
                 1 &&
             offset > 0) {
    snprintf(out, size, "; capture %s written, INCOMPLETE: %.1000s",
             run->capture, line + offset);
  } else {
    snprintf(out, size,
             "; capture %s NOT written (the program made no HIP "
             "call the interposer saw, or ended without its exit handlers)",
             run->capture);
  }
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
  char capture[8192];
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
  char trace[1200] = "";
  if (run->trace) {
    char word[600];
    rl_run_report_word(text, "trace", word, sizeof(word));
    snprintf(trace, sizeof(trace), "; trace %s %s", run->trace,
             strcmp(word, "written") == 0 ? "written" : "NOT written");
    if (strncmp(word, "failed ", 7) == 0) {
      snprintf(trace + strlen(trace), sizeof(trace) - strlen(trace), " (%s)",
               word + 7);
    }
  }
  char stopped[400] = "", kernel[160];
  rl_run_report_word(text, "stopped", kernel, sizeof(kernel));
  uint64_t wg_total = rl_run_report_u64(text, "stopped_wg_total", 0);
  if (strcmp(kernel, "?") != 0 && wg_total) {
    snprintf(stopped, sizeof(stopped), "; kernel %s made no progress for "
             "%" PRIu64 " ms (%" PRIu64 " of %" PRIu64 " work-groups done) "
             "and was STOPPED (exit 7)", kernel,
             rl_run_report_u64(text, "timeout_ms", 0),
             rl_run_report_u64(text, "stopped_wg_done", 0), wg_total);
  } else if (strcmp(kernel, "?") != 0) {
    snprintf(stopped, sizeof(stopped), "; kernel %s did not finish within "
             "%" PRIu64 " ms and was STOPPED (exit 7)", kernel,
             rl_run_report_u64(text, "timeout_ms", 0));
  }
  // The launch that failed, by its index and kernel (report line
  // "failed_launch #N KERNEL: MESSAGE").
  char failed[4200] = "", which[4096];  // the whole message (hip_sim.h)
  rl_run_report_word(text, "failed_launch", which, sizeof(which));
  if (strcmp(which, "?") != 0) {
    size_t name = strcspn(which, " ");
    const char* rest = which + name + (which[name] ? 1 : 0);
    size_t kernel_length = strcspn(rest, ":");
    snprintf(failed, sizeof(failed), "; launch %.*s (%.*s) FAILED%s",
             (int)name, which, (int)kernel_length, rest,
             rest + kernel_length);
  } else if (rl_run_report_u64(text, "failed", 0)) {
    snprintf(failed, sizeof(failed), "; a launch FAILED");
  }
  fprintf(stderr, "redline run: %s %s: %" PRIu64 " kernels, %" PRIu64
          " launches, device time %.3f ms (%s, %s)%s%s%s%s\n",
          run->program[0], outcome, rl_run_report_u64(text, "kernels", 0),
          rl_run_report_u64(text, "launches", 0), (double)ticks / 1e5,
          processor, executor, failed, stopped, capture, trace);
  free(text);
  return stopped[0] != '\0';
}

// Refuses outputs that name the program or each other, before anything is
// touched (exit 2).
static int rl_run_check_outputs(const rl_run_t* run) {
  const char* program = run->program[0];
  rl_status_t checked = rl_cli_check_output(run->trace, &program, 1);
  if (!checked) checked = rl_cli_check_output(run->capture, &program, 1);
  if (checked) return rl_cli_fail(checked, "run");
  if (run->trace && run->capture) {
    checked = rl_output_file_check_not_input(run->trace, run->capture);
    if (checked) {
      rl_status_free(checked);
      return rl_cli_usage(
          "run: --trace and --capture name the same file "
          "'%s'",
          run->trace);
    }
  }
  return RL_EXIT_OK;
}

// The private directory of the reports: nobody else can create, replace
// or read a name in it (the names are then safe to pass by path).
static int rl_run_make_dir(rl_run_t* run) {
  const char* tmp = getenv("TMPDIR");
  snprintf(run->dir, sizeof(run->dir), "%s/redline-run-XXXXXX",
           tmp && tmp[0] ? tmp : "/tmp");
  if (!mkdtemp(run->dir)) {
    fprintf(stderr,
            "redline: run: cannot create a private directory %s: "
            "%s\n",
            run->dir, strerror(errno));
    return RL_EXIT_UNAVAILABLE;
  }
  snprintf(run->report, sizeof(run->report), "%s/report", run->dir);
  snprintf(run->capture_report, sizeof(run->capture_report), "%s/capture",
           run->dir);
  return RL_EXIT_OK;
}

static void rl_run_remove_dir(const rl_run_t* run) {
  if (run->survey[0]) unlink(run->survey);
  unlink(run->report);
  unlink(run->capture_report);
  rmdir(run->dir);
}

// True when the interposer refused the step capture (report "refused").
static bool rl_run_steps_refused(const rl_run_t* run) {
  char line[64];
  rl_run_read_small(run->capture_report, line, sizeof(line));
  return run->steps && strncmp(line, "refused ", 8) == 0;
}

// Runs the program once and prints the summary; the exit code.
static int rl_run_pass(rl_run_t* run) {
  fflush(NULL);
  pid_t child = fork();
  if (child < 0) {
    fprintf(stderr, "redline: run: fork: %s\n", strerror(errno));
    return RL_EXIT_UNAVAILABLE;
  }
  if (child == 0) rl_run_exec(run);
  // Signals meant for the program (Ctrl-C) reach it through the process
  // group; redline waits for it either way.
  signal(SIGINT, SIG_IGN);
  signal(SIGQUIT, SIG_IGN);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  char outcome[64];
  int exit_code = 0;
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
  if ((exit_code != 127 || access(run->report, R_OK) == 0) &&
      rl_run_summary(run, outcome) && WIFEXITED(status)) {
    exit_code = RL_EXIT_QUARANTINED;
  }
  // Steps of unequal structure: the program ran fine, the capture did not.
  if (exit_code == 0 && rl_run_steps_refused(run)) exit_code = RL_EXIT_CONTRACT;
  return exit_code;
}

// --steps without --step-start: a survey run finds the step first.
static int rl_run_survey(rl_run_t* run) {
  snprintf(run->survey, sizeof(run->survey), "%s/survey", run->dir);
  fprintf(stderr, "redline run: --steps: listing the program's launch "
          "sequence first (run 1 of 2; --step-start runs it once)\n");
  run->surveying = true;
  int exit_code = rl_run_pass(run);
  run->surveying = false;
  if (!exit_code) {
    // The verified steps are recorded too (their parameter values).
    exit_code = rl_run_steps_plan(run->survey, run->skip_count,
                                  run->step_count + run->verify_count,
                                  run->step_window,
                                  sizeof(run->step_window), run->step_period,
                                  sizeof(run->step_period));
  }
  unlink(run->survey);
  unlink(run->report);
  unlink(run->capture_report);
  return exit_code;
}

int rl_cmd_run(int argc, char** argv) {
  rl_run_t run = {0};
  int exit_code = rl_run_parse(argc, argv, &run);
  if (!exit_code) exit_code = rl_run_check_outputs(&run);
  if (exit_code) return exit_code;
  snprintf(run.lib_dir, sizeof(run.lib_dir), "%s", rl_cli_private_dir());
  exit_code = rl_run_make_dir(&run);
  if (exit_code) return exit_code;
  if (run.steps && !run.step_start) exit_code = rl_run_survey(&run);
  if (!exit_code) exit_code = rl_run_pass(&run);
  rl_run_remove_dir(&run);
  return exit_code;
}
