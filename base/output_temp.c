// Temporaries of atomic output writes (base/output_temp.h).
#include "base/output_temp.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/output_file.h"

// Live temporaries the signal handler may unlink. A writer fills |path|
// while the slot is CLAIMED and publishes it with a release store of ARMED;
// the handler reads the state with an acquire load, so it never sees a
// half-written path. Eight concurrent writers is far more than any redline
// process runs; a ninth writes without signal cleanup.
enum { RL_OUTPUT_SLOT_FREE, RL_OUTPUT_SLOT_CLAIMED, RL_OUTPUT_SLOT_ARMED };
#define RL_OUTPUT_TEMP_SLOTS 8
static struct {
  atomic_int state;
  char path[PATH_MAX];
} rl_output_slots[RL_OUTPUT_TEMP_SLOTS];

// The signals whose default action kills the process and which a user sends
// to stop a tool (Ctrl-C, kill, a closed terminal).
static const int rl_output_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define RL_OUTPUT_SIGNAL_COUNT 3

// Handler bookkeeping, guarded by |rl_output_lock| (never taken by the
// handler): how many temporaries are registered, and the dispositions that
// were in place before the first one. |installed[i]| is false for a signal
// the process ignores: an ignored signal stays ignored.
static pthread_mutex_t rl_output_lock = PTHREAD_MUTEX_INITIALIZER;
static int rl_output_registered;
static struct sigaction rl_output_previous[RL_OUTPUT_SIGNAL_COUNT];
static bool rl_output_installed[RL_OUTPUT_SIGNAL_COUNT];

// Async-signal-safe: unlinks every armed temporary, restores the previous
// disposition of |signal_number| and raises it again. The signal is blocked
// while this handler runs, so the re-raised one is delivered as soon as it
// returns: the process terminates as if the handler had never existed, or
// the program's own handler runs.
static void rl_output_temp_on_signal(int signal_number) {
  int saved_errno = errno;
  for (int i = 0; i < RL_OUTPUT_TEMP_SLOTS; ++i) {
    if (atomic_load_explicit(&rl_output_slots[i].state,
                             memory_order_acquire) == RL_OUTPUT_SLOT_ARMED) {
      unlink(rl_output_slots[i].path);
    }
  }
  for (int i = 0; i < RL_OUTPUT_SIGNAL_COUNT; ++i) {
    // |rl_output_previous[i]| was saved before this handler was installed.
    if (rl_output_signals[i] == signal_number) {
      sigaction(signal_number, &rl_output_previous[i], NULL);
    }
  }
  raise(signal_number);
  errno = saved_errno;
}

static void rl_output_temp_install_locked(void) {
  struct sigaction action;
  memset(&action, 0, sizeof(action));
  action.sa_handler = rl_output_temp_on_signal;
  action.sa_flags = SA_RESTART;
  sigfillset(&action.sa_mask);
  for (int i = 0; i < RL_OUTPUT_SIGNAL_COUNT; ++i) {
    rl_output_installed[i] = false;
    if (sigaction(rl_output_signals[i], NULL, &rl_output_previous[i]) != 0 ||
        rl_output_previous[i].sa_handler == SIG_IGN) {
      continue;
    }
    rl_output_installed[i] =
        sigaction(rl_output_signals[i], &action, NULL) == 0;
  }
}

// Restores the previous dispositions, except where the program replaced our
// handler meanwhile (its choice wins).
static void rl_output_temp_uninstall_locked(void) {
  for (int i = 0; i < RL_OUTPUT_SIGNAL_COUNT; ++i) {
    struct sigaction current;
    if (!rl_output_installed[i] ||
        sigaction(rl_output_signals[i], NULL, &current) != 0) {
      continue;
    }
    if (current.sa_handler == rl_output_temp_on_signal) {
      sigaction(rl_output_signals[i], &rl_output_previous[i], NULL);
    }
    rl_output_installed[i] = false;
  }
}

// Claims a registry slot (or returns -1) and installs the handler with the
// first registration.
static int rl_output_temp_register(void) {
  pthread_mutex_lock(&rl_output_lock);
  int slot = -1;
  for (int i = 0; i < RL_OUTPUT_TEMP_SLOTS && slot < 0; ++i) {
    int expected = RL_OUTPUT_SLOT_FREE;
    if (atomic_compare_exchange_strong(&rl_output_slots[i].state, &expected,
                                       RL_OUTPUT_SLOT_CLAIMED)) {
      slot = i;
    }
  }
  if (slot >= 0 && rl_output_registered++ == 0) rl_output_temp_install_locked();
  pthread_mutex_unlock(&rl_output_lock);
  return slot;
}

void rl_output_temp_release(rl_output_temp_t* temp) {
  if (temp->slot < 0) return;
  pthread_mutex_lock(&rl_output_lock);
  atomic_store_explicit(&rl_output_slots[temp->slot].state, RL_OUTPUT_SLOT_FREE,
                        memory_order_release);
  if (--rl_output_registered == 0) rl_output_temp_uninstall_locked();
  pthread_mutex_unlock(&rl_output_lock);
  temp->slot = -1;
}

// Six name characters from a per-process counter mixed with the clock, so
// two threads (or two attempts after EEXIST) never pick the same name.
static void rl_output_temp_suffix(char out[7]) {
  static const char alphabet[] =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  static atomic_uint_fast64_t counter;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  uint64_t value = (uint64_t)now.tv_nsec * 0x9E3779B97F4A7C15ull ^
                   (atomic_fetch_add(&counter, 1) + 1) * 0xBF58476D1CE4E5B9ull;
  for (int i = 0; i < 6; ++i) {
    out[i] = alphabet[value % 62];
    value /= 62;
  }
  out[6] = '\0';
}

// The destination's base name is cut so the temporary's name stays within
// NAME_MAX (255): the marker, a PID and the suffix need under 40 bytes.
#define RL_OUTPUT_TEMP_BASE_MAX 200

rl_status_t rl_output_temp_create(const char* directory, const char* base,
                                  mode_t mode, rl_output_temp_t* out_temp) {
  out_temp->fd = -1;
  out_temp->slot = rl_output_temp_register();
  int error = EEXIST;
  for (int attempt = 0; attempt < 100 && error == EEXIST; ++attempt) {
    char suffix[7];
    rl_output_temp_suffix(suffix);
    int length = snprintf(out_temp->path, sizeof(out_temp->path),
                          "%s/.%.*s" RL_OUTPUT_FILE_TEMP_MARKER "%ld.%s",
                          directory, RL_OUTPUT_TEMP_BASE_MAX, base,
                          (long)getpid(), suffix);
    if (length < 0 || (size_t)length >= sizeof(out_temp->path)) {
      error = ENAMETOOLONG;
      break;
    }
    // Armed before the file exists: a signal between open() and arming
    // would otherwise leave it behind. Unlinking a name that does not exist
    // yet is harmless, and the PID in the name keeps it ours.
    if (out_temp->slot >= 0) {
      memcpy(rl_output_slots[out_temp->slot].path, out_temp->path,
             (size_t)length + 1);
      atomic_store_explicit(&rl_output_slots[out_temp->slot].state,
                            RL_OUTPUT_SLOT_ARMED, memory_order_release);
    }
    out_temp->fd = open(out_temp->path,
                        O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                        mode);
    error = out_temp->fd < 0 ? errno : 0;
    if (error && out_temp->slot >= 0) {
      atomic_store_explicit(&rl_output_slots[out_temp->slot].state,
                            RL_OUTPUT_SLOT_CLAIMED, memory_order_release);
    }
  }
  if (!error) return RL_OK;
  rl_output_temp_release(out_temp);
  return RL_STATUS(RL_STATUS_IO, "cannot create a temporary file in %s: %s",
                   directory, strerror(error));
}

bool rl_output_temp_parse_name(const char* name, pid_t* out_pid) {
  *out_pid = 0;
  if (name[0] != '.') return false;
  const char* marker = NULL;
  for (const char* at = strstr(name, RL_OUTPUT_FILE_TEMP_MARKER); at;
       at = strstr(at + 1, RL_OUTPUT_FILE_TEMP_MARKER)) {
    marker = at;
  }
  if (!marker || marker == name) return false;
  const char* digits = marker + strlen(RL_OUTPUT_FILE_TEMP_MARKER);
  long pid = 0;
  const char* at = digits;
  for (; *at >= '0' && *at <= '9' && at - digits < 10; ++at) {
    pid = pid * 10 + (*at - '0');
  }
  if (at == digits || *at != '.' || strlen(at + 1) != 6 || pid <= 0) {
    return false;
  }
  *out_pid = (pid_t)pid;
  return true;
}

int rl_output_temp_sweep(const char* directory, int stale_seconds) {
  DIR* stream = opendir(directory);
  if (!stream) return 0;
  int removed = 0;
  time_t now = time(NULL);
  for (struct dirent* entry; (entry = readdir(stream));) {
    pid_t pid = 0;
    if (!rl_output_temp_parse_name(entry->d_name, &pid) || pid == getpid() ||
        kill(pid, 0) == 0 || errno != ESRCH) {
      continue;
    }
    struct stat st;
    if (fstatat(dirfd(stream), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
        !S_ISREG(st.st_mode) || now - st.st_mtime <= stale_seconds) {
      continue;
    }
    removed += unlinkat(dirfd(stream), entry->d_name, 0) == 0;
  }
  closedir(stream);
  return removed;
}
