// sim/hip_sim/hip_sim_rtc.c — hiprtc, HIP's run-time compiler, in the
// runtime over the simulator (hip_sim.h; docs/hip-runtime.md "Run-time
// compilation"). Debian's libamdhip64.so.5 exports the hiprtc entries
// itself (there is no separate libhiprtc in HIP 5.2), so they live here.
//
// hiprtcCompileProgram writes the source and the program's named headers to
// a fresh temporary folder and runs redline-hipcc (Debian's clang-19 with
// the device libraries) as a subprocess: `--genco -O3 -x hip -include
// hip/hip_runtime.h --offload-arch=<the simulated processor>` then the
// caller's options, so a later -O or -D wins. --gpu-architecture=, -arch=
// and --offload-arch= name the processor (a ":feature" tail is dropped).
// The driver's stdout and stderr become the program log; its exit status
// the result: 0 HIPRTC_SUCCESS (the code object, one AMDGPU ELF for
// hipModuleLoadData), 2 (a usage error, e.g. an unsupported processor)
// HIPRTC_ERROR_INVALID_OPTION, 3 or a driver that cannot be started (a
// tool not installed) HIPRTC_ERROR_INTERNAL_ERROR, anything else
// HIPRTC_ERROR_COMPILATION. Never a crash: every failure is a code and a log.
//
// The driver is $REDLINE_HIPRTC_HIPCC when set, else redline-hipcc of the
// build tree beside this library (lib/redline/../../tools), else the
// installed one (RL_HIPRTC_INSTALLED_HIPCC). The child runs without
// LD_PRELOAD, so a capture's interposer never records the compiler.
// Name expressions (hiprtcAddNameExpression, hiprtcGetLoweredName) are
// compiled into the source and read back from the code object
// (hip_sim_rtc_names.h); their errors append a line to the program log,
// and one naming host code fails the compile (HIPRTC_ERROR_COMPILATION,
// as ROCm's hiprtc).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/hip_sim/hip_sim_internal.h"
#include "sim/hip_sim/hip_sim_rtc_names.h"
#include <hip/hiprtc.h>

extern char** environ;

#define RL_RTC_MAGIC 0x72746370u  // "rtcp"

struct _hiprtcProgram {
  uint32_t magic;
  char* source;
  char* name;
  int header_count;
  char** headers;        // their text
  char** include_names;  // the names #include uses
  char* log;             // NUL-terminated, "" before a compile
  uint8_t* code;
  size_t code_size;
  bool compiled;          // hiprtcCompileProgram was called
  rl_rtc_names_t names;   // the name expressions added
};

static char* rtc_strdup(const char* s) { return s ? strdup(s) : NULL; }

static bool rtc_valid(hiprtcProgram prog) {
  return prog && prog->magic == RL_RTC_MAGIC;
}

RL_HIP_EXPORT const char* hiprtcGetErrorString(hiprtcResult result) {
  switch (result) {
    case HIPRTC_SUCCESS: return "HIPRTC_SUCCESS";
    case HIPRTC_ERROR_OUT_OF_MEMORY: return "HIPRTC_ERROR_OUT_OF_MEMORY";
    case HIPRTC_ERROR_PROGRAM_CREATION_FAILURE:
      return "HIPRTC_ERROR_PROGRAM_CREATION_FAILURE";
    case HIPRTC_ERROR_INVALID_INPUT: return "HIPRTC_ERROR_INVALID_INPUT";
    case HIPRTC_ERROR_INVALID_PROGRAM: return "HIPRTC_ERROR_INVALID_PROGRAM";
    case HIPRTC_ERROR_INVALID_OPTION: return "HIPRTC_ERROR_INVALID_OPTION";
    case HIPRTC_ERROR_COMPILATION: return "HIPRTC_ERROR_COMPILATION";
    case HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE:
      return "HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE";
    case HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION:
      return "HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION";
    case HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION:
      return "HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION";
    case HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID:
      return "HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID";
    case HIPRTC_ERROR_INTERNAL_ERROR: return "HIPRTC_ERROR_INTERNAL_ERROR";
  }
  return "Invalid HIPRTC error code";
}

// The HIP version this runtime stands in for (Debian's 5.2).
RL_HIP_EXPORT hiprtcResult hiprtcVersion(int* major, int* minor) {
  if (!major || !minor) return HIPRTC_ERROR_INVALID_INPUT;
  *major = 5;
  *minor = 2;
  return HIPRTC_SUCCESS;
}

static void rtc_free(hiprtcProgram p) {
  if (!p) return;
  for (int i = 0; i < p->header_count; i++) {
    if (p->headers) free(p->headers[i]);
    if (p->include_names) free(p->include_names[i]);
  }
  free(p->headers);
  free(p->include_names);
  free(p->source);
  free(p->name);
  free(p->log);
  free(p->code);
  rl_rtc_names_free(&p->names);
  p->magic = 0;
  free(p);
}

RL_HIP_EXPORT hiprtcResult hiprtcCreateProgram(hiprtcProgram* prog,
                                               const char* src,
                                               const char* name,
                                               int numHeaders,
                                               const char** headers,
                                               const char** includeNames) {
  if (!prog || !src || numHeaders < 0 ||
      (numHeaders > 0 && (!headers || !includeNames))) {
    return HIPRTC_ERROR_INVALID_INPUT;
  }
  *prog = NULL;
  hiprtcProgram p = calloc(1, sizeof(*p));
  if (!p) return HIPRTC_ERROR_OUT_OF_MEMORY;
  p->magic = RL_RTC_MAGIC;
  p->source = rtc_strdup(src);
  p->name = rtc_strdup(name && name[0] ? name : "default_program");
  p->log = rtc_strdup("");
  p->header_count = numHeaders;
  if (numHeaders > 0) {
    p->headers = calloc((size_t)numHeaders, sizeof(char*));
    p->include_names = calloc((size_t)numHeaders, sizeof(char*));
  }
  bool ok = p->source && p->name && p->log &&
            (numHeaders == 0 || (p->headers && p->include_names));
  for (int i = 0; ok && i < numHeaders; i++) {
    if (!headers[i] || !includeNames[i]) {
      rtc_free(p);
      return HIPRTC_ERROR_INVALID_INPUT;
    }
    p->headers[i] = rtc_strdup(headers[i]);
    p->include_names[i] = rtc_strdup(includeNames[i]);
    ok = p->headers[i] && p->include_names[i];
  }
  if (!ok) {
    rtc_free(p);
    return HIPRTC_ERROR_OUT_OF_MEMORY;
  }
  *prog = p;
  return HIPRTC_SUCCESS;
}

RL_HIP_EXPORT hiprtcResult hiprtcDestroyProgram(hiprtcProgram* prog) {
  if (!prog) return HIPRTC_ERROR_INVALID_INPUT;
  if (!rtc_valid(*prog)) return HIPRTC_ERROR_INVALID_PROGRAM;
  rtc_free(*prog);
  *prog = NULL;
  return HIPRTC_SUCCESS;
}

// |fmt| formatted into a new allocation, or NULL.
static char* rtc_vformat(const char* fmt, va_list ap) {
  char* text = NULL;
  if (vasprintf(&text, fmt, ap) < 0) text = NULL;
  return text;
}

// Replaces the log with printf-formatted text.
static void rtc_set_log(hiprtcProgram p, const char* fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void rtc_set_log(hiprtcProgram p, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char* text = rtc_vformat(fmt, ap);
  va_end(ap);
  if (!text) return;
  free(p->log);
  p->log = text;
}

// Appends printf-formatted text to the log (a name expression's error
// keeps the compiler's output before it).
static void rtc_append_log(hiprtcProgram p, const char* fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void rtc_append_log(hiprtcProgram p, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char* text = rtc_vformat(fmt, ap);
  va_end(ap);
  if (!text) return;
  rtc_set_log(p, "%s%s", p->log ? p->log : "", text);
  free(text);
}

// |dir|/|name| in |out|; false when it does not fit.
static bool rtc_join(char* out, size_t size, const char* dir,
                     const char* name) {
  int n = snprintf(out, size, "%s/%s", dir, name);
  return n >= 0 && (size_t)n < size;
}

// Writes |text| to |root|/|rel|, creating the folders of |rel|.
static bool rtc_write_file(const char* root, const char* rel,
                           const char* text) {
  char path[PATH_MAX];
  if (!rtc_join(path, sizeof(path), root, rel)) return false;
  // Folders of an include name such as "sub/header.h".
  for (char* s = path + strlen(root) + 1; (s = strchr(s, '/')); s++) {
    *s = '\0';
    if (mkdir(path, 0700) != 0 && errno != EEXIST) return false;
    *s = '/';
  }
  FILE* f = fopen(path, "w");
  if (!f) return false;
  size_t n = strlen(text);
  bool ok = fwrite(text, 1, n, f) == n;
  return fclose(f) == 0 && ok;
}

// Reads a whole file; NULL on failure.
static uint8_t* rtc_read_file(const char* path, size_t* out_size) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  uint8_t* data = NULL;
  size_t size = 0, cap = 0;
  for (;;) {
    if (size == cap) {
      cap = cap ? cap * 2 : 65536;
      uint8_t* grown = realloc(data, cap + 1);
      if (!grown) {
        free(data);
        fclose(f);
        return NULL;
      }
      data = grown;
    }
    size_t got = fread(data + size, 1, cap - size, f);
    size += got;
    if (got == 0) break;
  }
  fclose(f);
  data[size] = '\0';
  *out_size = size;
  return data;
}

// The driver to run (see the top of this file), in |out|.
static bool rtc_find_driver(char* out, size_t out_size) {
  const char* env = getenv("REDLINE_HIPRTC_HIPCC");
  if (env && env[0]) {
    snprintf(out, out_size, "%s", env);
    return true;
  }
  Dl_info info;
  if (dladdr((void*)rtc_find_driver, &info) && info.dli_fname) {
    char lib[PATH_MAX];
    snprintf(lib, sizeof(lib), "%s", info.dli_fname);
    char* slash = strrchr(lib, '/');
    if (slash) {
      *slash = '\0';
      snprintf(out, out_size, "%s/../../tools/redline-hipcc", lib);
      if (access(out, X_OK) == 0) return true;
    }
  }
#ifdef RL_HIPRTC_INSTALLED_HIPCC
  snprintf(out, out_size, "%s", RL_HIPRTC_INSTALLED_HIPCC);
  return access(out, X_OK) == 0;
#else
  return false;
#endif
}

// The simulated processor ("gfx1100"), starting the runtime if needed.
static bool rtc_processor(char* out, size_t out_size) {
  pthread_mutex_lock(&rl_hip.lock);
  hipError_t started = rl_hip_start_locked();
  if (!started) snprintf(out, out_size, "%s", rl_hip.processor);
  rl_hip_leave(started);
  return started == hipSuccess && out[0];
}

// The processor an option names, or NULL: --gpu-architecture=X,
// -arch=X, --offload-arch=X (X without its ":feature" tail, in |buf|).
static const char* rtc_arch_option(const char* opt, char* buf, size_t size) {
  static const char* const prefixes[] = {"--gpu-architecture=", "-arch=",
                                         "--offload-arch=",
                                         "--amdgpu-target="};
  for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
    size_t n = strlen(prefixes[i]);
    if (strncmp(opt, prefixes[i], n) == 0) {
      snprintf(buf, size, "%s", opt + n);
      char* colon = strchr(buf, ':');
      if (colon) *colon = '\0';
      return buf;
    }
  }
  return NULL;
}

// Every variable of the environment but LD_PRELOAD (NULL-terminated).
static char** rtc_child_environ(void) {
  size_t n = 0;
  while (environ && environ[n]) n++;
  char** env = calloc(n + 1, sizeof(char*));
  if (!env) return NULL;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (strncmp(environ[i], "LD_PRELOAD=", 11) != 0) env[k++] = environ[i];
  }
  return env;
}

// Removes the temporary folder's files (the names this file wrote).
static void rtc_remove_tree(const char* dir) {
  // Every path below |dir| is ours (mkdtemp); no shell is involved.
  pid_t pid;
  char* argv[] = {"rm", "-rf", (char*)dir, NULL};
  char* empty_env[] = {NULL};
  if (posix_spawnp(&pid, "rm", NULL, NULL, argv, empty_env) == 0) {
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
}

// Runs the driver in |dir| (the program's files written there).
static hiprtcResult rtc_run(hiprtcProgram p, const char* dir, int numOptions,
                            const char** options) {
  char driver[PATH_MAX];
  if (!rtc_find_driver(driver, sizeof(driver))) {
    rtc_set_log(p,
                "hiprtc: redline-hipcc not found (set REDLINE_HIPRTC_HIPCC "
                "to the redline-hipcc driver)\n");
    return HIPRTC_ERROR_INTERNAL_ERROR;
  }
  char arch[64] = "";
  if (!rtc_processor(arch, sizeof(arch))) snprintf(arch, sizeof(arch), "gfx1100");
  char arch_buf[64];
  for (int i = 0; i < numOptions; i++) {
    if (options[i] && rtc_arch_option(options[i], arch_buf, sizeof(arch_buf))) {
      snprintf(arch, sizeof(arch), "%s", arch_buf);
    }
  }
  // The source file keeps the program's name for the log; "-x hip" makes
  // it HIP whatever its extension.
  const char* base = strrchr(p->name, '/');
  base = base ? base + 1 : p->name;
  char src_rel[NAME_MAX + 1];
  snprintf(src_rel, sizeof(src_rel), "%s", base[0] ? base : "program.hip");
  char src[PATH_MAX], code[PATH_MAX], log[PATH_MAX], arch_opt[96],
      include_opt[PATH_MAX + 2];
  if (!rtc_join(src, sizeof(src), dir, src_rel) ||
      !rtc_join(code, sizeof(code), dir, "code.o") ||
      !rtc_join(log, sizeof(log), dir, "log.txt")) {
    rtc_set_log(p, "hiprtc: a path below %s is too long\n", dir);
    return HIPRTC_ERROR_INTERNAL_ERROR;
  }
  snprintf(arch_opt, sizeof(arch_opt), "--offload-arch=%s", arch);
  snprintf(include_opt, sizeof(include_opt), "-I%s", dir);

  size_t argc_max = (size_t)numOptions + 16;
  char** argv = calloc(argc_max, sizeof(char*));
  char** env = rtc_child_environ();
  if (!argv || !env) {
    free(argv);
    free(env);
    rtc_set_log(p, "hiprtc: out of memory\n");
    return HIPRTC_ERROR_OUT_OF_MEMORY;
  }
  size_t k = 0;
  argv[k++] = driver;
  argv[k++] = "--genco";
  argv[k++] = arch_opt;
  argv[k++] = "-O3";
  argv[k++] = include_opt;
  argv[k++] = "-include";
  argv[k++] = "hip/hip_runtime.h";
  for (int i = 0; i < numOptions; i++) {
    char ignored[64];
    if (!options[i] || rtc_arch_option(options[i], ignored, sizeof(ignored))) {
      continue;
    }
    argv[k++] = (char*)options[i];
  }
  argv[k++] = "-x";
  argv[k++] = "hip";
  argv[k++] = src;
  argv[k++] = "-o";
  argv[k++] = code;
  argv[k] = NULL;

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log,
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  pid_t pid;
  int spawned = posix_spawn(&pid, driver, &actions, NULL, argv, env);
  posix_spawn_file_actions_destroy(&actions);
  free(argv);
  free(env);
  if (spawned != 0) {
    rtc_set_log(p, "hiprtc: cannot run %s: %s\n", driver, strerror(spawned));
    return HIPRTC_ERROR_INTERNAL_ERROR;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      rtc_set_log(p, "hiprtc: waiting for %s: %s\n", driver, strerror(errno));
      return HIPRTC_ERROR_INTERNAL_ERROR;
    }
  }
  size_t log_size = 0;
  uint8_t* text = rtc_read_file(log, &log_size);
  free(p->log);
  p->log = text ? (char*)text : strdup("");
  if (!WIFEXITED(status)) {
    rtc_set_log(p, "%shiprtc: %s stopped by signal %d\n", p->log ? p->log : "",
                driver, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return HIPRTC_ERROR_INTERNAL_ERROR;
  }
  int rc = WEXITSTATUS(status);
  if (rc == 2) return HIPRTC_ERROR_INVALID_OPTION;
  if (rc == 3 || rc == 126 || rc == 127) return HIPRTC_ERROR_INTERNAL_ERROR;
  if (rc != 0) return HIPRTC_ERROR_COMPILATION;
  size_t code_size = 0;
  uint8_t* bytes = rtc_read_file(code, &code_size);
  if (!bytes || code_size == 0) {
    free(bytes);
    rtc_set_log(p, "%shiprtc: %s wrote no code object\n", p->log ? p->log : "",
                driver);
    return HIPRTC_ERROR_INTERNAL_ERROR;
  }
  free(p->code);
  p->code = bytes;
  p->code_size = code_size;
  return HIPRTC_SUCCESS;
}

// The second compile (hip_sim_rtc_names.h): the source with device
// pointer variables, compiled in |dir| over the program's file |src_name|,
// its code read for the lowered names and dropped. The program's code and
// log stay. When it fails (an expression naming host code, which device
// code cannot take the address of) the program's compile fails as ROCm's
// hiprtc's does: the result (HIPRTC_ERROR_COMPILATION for the compiler's
// refusal), no code, and a log naming the expressions, then this
// compile's log.
static hiprtcResult rtc_resolve_names(hiprtcProgram prog, const char* dir,
                                      const char* src_name, int numOptions,
                                      const char** options) {
  char* source = rl_rtc_names_source(&prog->names, prog->source, true);
  bool written = source && rtc_write_file(dir, src_name, source);
  free(source);
  if (!written) {
    rtc_append_log(prog, "hiprtc: cannot write the name expressions' "
                         "source below %s\n", dir);
    return HIPRTC_SUCCESS;  // the code stands; no expression has a name
  }
  char* log = prog->log;
  uint8_t* code = prog->code;
  size_t code_size = prog->code_size;
  prog->log = strdup("");
  prog->code = NULL;
  prog->code_size = 0;
  hiprtcResult r = rtc_run(prog, dir, numOptions, options);
  char* message =
      r == HIPRTC_SUCCESS
          ? rl_rtc_names_resolve(&prog->names, prog->code, prog->code_size)
          : rl_rtc_names_blame(&prog->names, prog->log);
  char* names_log = prog->log;
  free(prog->code);
  prog->log = log;
  prog->code = code;
  prog->code_size = code_size;
  if (r != HIPRTC_SUCCESS) {
    free(prog->code);
    prog->code = NULL;
    prog->code_size = 0;
    rtc_append_log(prog,
                   "%shiprtc: the compile that reads the name expressions' "
                   "lowered names failed (%s):\n%s",
                   message ? message : "", hiprtcGetErrorString(r),
                   names_log ? names_log : "");
  } else if (message) {
    rtc_append_log(prog, "%s", message);
  }
  free(names_log);
  free(message);
  return r;
}

RL_HIP_EXPORT hiprtcResult hiprtcCompileProgram(hiprtcProgram prog,
                                                int numOptions,
                                                const char** options) {
  if (!rtc_valid(prog)) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (numOptions < 0 || (numOptions > 0 && !options)) {
    return HIPRTC_ERROR_INVALID_INPUT;
  }
  free(prog->code);
  prog->code = NULL;
  prog->code_size = 0;
  prog->compiled = true;
  rl_rtc_names_forget(&prog->names);
  char* source = rl_rtc_names_source(&prog->names, prog->source, false);
  if (!source) {
    rtc_set_log(prog, "hiprtc: out of memory\n");
    return HIPRTC_ERROR_OUT_OF_MEMORY;
  }
  const char* tmp = getenv("TMPDIR");
  char dir[PATH_MAX];
  snprintf(dir, sizeof(dir), "%s/redline-hiprtc-XXXXXX",
           tmp && tmp[0] ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    rtc_set_log(prog, "hiprtc: cannot create a temporary folder %s: %s\n", dir,
                strerror(errno));
    free(source);
    return HIPRTC_ERROR_INTERNAL_ERROR;
  }
  const char* base = strrchr(prog->name, '/');
  base = base ? base + 1 : prog->name;
  const char* src_name = base[0] ? base : "program.hip";
  bool written = rtc_write_file(dir, src_name, source);
  free(source);
  for (int i = 0; written && i < prog->header_count; i++) {
    written = prog->include_names[i][0] != '/' &&
              !strstr(prog->include_names[i], "..") &&
              rtc_write_file(dir, prog->include_names[i], prog->headers[i]);
  }
  hiprtcResult result;
  if (!written) {
    rtc_set_log(prog,
                "hiprtc: cannot write the program or a header (an include "
                "name must be a relative path without \"..\") below %s\n",
                dir);
    result = HIPRTC_ERROR_INVALID_INPUT;
  } else {
    result = rtc_run(prog, dir, numOptions, options);
  }
  // An expression without a lowered name (a __device__ function) is
  // reported by hiprtcGetLoweredName; one naming host code fails the
  // compile.
  if (result == HIPRTC_SUCCESS && prog->names.count > 0) {
    result = rtc_resolve_names(prog, dir, src_name, numOptions, options);
  }
  rtc_remove_tree(dir);
  return result;
}

RL_HIP_EXPORT hiprtcResult hiprtcAddNameExpression(hiprtcProgram prog,
                                                   const char* name_expression) {
  if (!rtc_valid(prog)) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!name_expression || !name_expression[0]) {
    return HIPRTC_ERROR_INVALID_INPUT;
  }
  if (prog->compiled) {
    rtc_append_log(prog,
                   "hiprtc: name expression \"%s\" added after "
                   "hiprtcCompileProgram (add every name expression "
                   "before compiling)\n",
                   name_expression);
    return HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION;
  }
  if (!rl_rtc_names_add(&prog->names, name_expression)) {
    return HIPRTC_ERROR_OUT_OF_MEMORY;
  }
  return HIPRTC_SUCCESS;
}

// The lowered name stays valid until the program is destroyed.
RL_HIP_EXPORT hiprtcResult hiprtcGetLoweredName(hiprtcProgram prog,
                                                const char* name_expression,
                                                const char** lowered_name) {
  if (!rtc_valid(prog)) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!name_expression || !lowered_name) return HIPRTC_ERROR_INVALID_INPUT;
  *lowered_name = NULL;
  if (!prog->code) {
    rtc_append_log(prog,
                   "hiprtc: no lowered name for \"%s\" before a successful "
                   "hiprtcCompileProgram\n",
                   name_expression);
    return HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION;
  }
  const rl_rtc_name_t* name = rl_rtc_names_find(&prog->names, name_expression);
  if (!name || !name->lowered) {
    rtc_append_log(prog,
                   "hiprtc: name expression \"%s\" %s\n", name_expression,
                   name ? "names no kernel or variable of the compiled code"
                        : "was not added with hiprtcAddNameExpression before "
                          "the compile");
    return HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID;
  }
  *lowered_name = name->lowered;
  return HIPRTC_SUCCESS;
}

RL_HIP_EXPORT hiprtcResult hiprtcGetProgramLogSize(hiprtcProgram prog,
                                                   size_t* logSizeRet) {
  if (!rtc_valid(prog)) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!logSizeRet) return HIPRTC_ERROR_INVALID_INPUT;
  *logSizeRet = strlen(prog->log ? prog->log : "") + 1;
  return HIPRTC_SUCCESS;
}

RL_HIP_EXPORT hiprtcResult hiprtcGetProgramLog(hiprtcProgram prog,
                                               char* log) {
  if (!rtc_valid(prog)) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!log) return HIPRTC_ERROR_INVALID_INPUT;
  const char* text = prog->log ? prog->log : "";
  memcpy(log, text, strlen(text) + 1);
  return HIPRTC_SUCCESS;
}

RL_HIP_EXPORT hiprtcResult hiprtcGetCodeSize(hiprtcProgram prog,
                                             size_t* codeSizeRet) {
  if (!rtc_valid(prog)) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!codeSizeRet) return HIPRTC_ERROR_INVALID_INPUT;
  *codeSizeRet = prog->code_size;
  return HIPRTC_SUCCESS;
}

RL_HIP_EXPORT hiprtcResult hiprtcGetCode(hiprtcProgram prog, char* code) {
  if (!rtc_valid(prog)) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!code) return HIPRTC_ERROR_INVALID_INPUT;
  if (!prog->code) return HIPRTC_ERROR_INVALID_PROGRAM;
  memcpy(code, prog->code, prog->code_size);
  return HIPRTC_SUCCESS;
}
