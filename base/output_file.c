// Writing output files (base/output_file.h).
// realpath() is an XSI interface, outside the project-wide POSIX level.
#define _XOPEN_SOURCE 700
#include "base/output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/output_temp.h"

static void (*rl_output_test_hook)(const char* temp_path);

void rl_output_file_set_test_hook(void (*hook)(const char* temp_path)) {
  rl_output_test_hook = hook;
}

// Where an output goes once links are followed: |path| is what is written
// (the link's final target, or the given path), |exists| and |st| what
// lstat() found there.
typedef struct rl_output_target_s {
  char path[PATH_MAX];
  bool exists;
  struct stat st;
} rl_output_target_t;

static rl_status_t rl_output_io(const char* what, const char* path, int error) {
  return RL_STATUS(RL_STATUS_IO, "%s %s: %s", what, path, strerror(error));
}

// Recognises the names bash treats as its own descriptors: "/dev/stdout"
// (1), "/dev/stderr" (2), "/dev/fd/N" and "/proc/self/fd/N".
static bool rl_output_fd_alias(const char* path, int* out_fd) {
  *out_fd = -1;
  if (strcmp(path, "/dev/stdout") == 0) *out_fd = 1;
  if (strcmp(path, "/dev/stderr") == 0) *out_fd = 2;
  if (*out_fd >= 0) return true;
  const char* digits = NULL;
  if (strncmp(path, "/dev/fd/", 8) == 0) digits = path + 8;
  if (strncmp(path, "/proc/self/fd/", 14) == 0) digits = path + 14;
  if (!digits || !digits[0] || strlen(digits) > 9) return false;
  int fd = 0;
  for (const char* at = digits; *at; ++at) {
    if (*at < '0' || *at > '9') return false;
    fd = fd * 10 + (*at - '0');
  }
  *out_fd = fd;
  return true;
}

static rl_status_t rl_output_write_all(int fd, const char* path,
                                       const uint8_t* data, size_t size) {
  while (size > 0) {
    ssize_t wrote = write(fd, data, size);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return rl_output_io("cannot write", path, wrote < 0 ? errno : EIO);
    data += wrote;
    size -= (size_t)wrote;
  }
  return RL_OK;
}

// Joins the link text |link| read at |from| into |out| (relative links are
// relative to the directory holding the link).
static bool rl_output_join_link(const char* from, const char* link,
                                char out[PATH_MAX]) {
  if (link[0] == '/') return snprintf(out, PATH_MAX, "%s", link) < PATH_MAX;
  const char* slash = strrchr(from, '/');
  int dir_length = slash ? (int)(slash - from) + 1 : 0;
  return snprintf(out, PATH_MAX, "%.*s%s", dir_length, from, link) < PATH_MAX;
}

// Follows symbolic links from |path| one at a time to what they end at.
static rl_status_t rl_output_resolve(const char* path,
                                     rl_output_target_t* out_target) {
  if (snprintf(out_target->path, PATH_MAX, "%s", path) >= PATH_MAX) {
    return rl_output_io("cannot resolve", path, ENAMETOOLONG);
  }
  for (int links = 0; links <= RL_OUTPUT_FILE_MAX_LINKS; ++links) {
    if (lstat(out_target->path, &out_target->st) != 0) {
      out_target->exists = false;
      if (errno == ENOENT) return RL_OK;
      return rl_output_io("cannot inspect", out_target->path, errno);
    }
    out_target->exists = true;
    if (!S_ISLNK(out_target->st.st_mode)) return RL_OK;
    char link[PATH_MAX];
    ssize_t length = readlink(out_target->path, link, sizeof(link) - 1);
    if (length < 0) return rl_output_io("cannot read link", out_target->path, errno);
    link[length] = '\0';
    char next[PATH_MAX];
    if (!rl_output_join_link(out_target->path, link, next)) {
      return rl_output_io("cannot resolve", path, ENAMETOOLONG);
    }
    memcpy(out_target->path, next, sizeof(next));
  }
  return rl_output_io("cannot resolve", path, ELOOP);
}

// Character devices and FIFOs are written in place. The descriptor is
// checked again after open(), so a path swapped for a regular file between
// lstat() and open() is refused rather than overwritten in place.
static rl_status_t rl_output_write_direct(const char* path, const uint8_t* data,
                                          size_t size) {
  int fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0 && errno == ENXIO) {
    return RL_STATUS(RL_STATUS_IO, "FIFO %s has no reader", path);
  }
  if (fd < 0) return rl_output_io("cannot open", path, errno);
  struct stat st;
  rl_status_t status = RL_OK;
  if (fstat(fd, &st) != 0) {
    status = rl_output_io("cannot inspect", path, errno);
  } else if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode)) {
    status = RL_STATUS(RL_STATUS_IO, "%s changed while it was opened", path);
  } else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
    status = rl_output_io("cannot configure", path, errno);
  }
  if (!status) status = rl_output_write_all(fd, path, data, size);
  if (close(fd) != 0 && !status) status = rl_output_io("cannot close", path, errno);
  return status;
}

// Makes a rename inside |directory| durable.
static rl_status_t rl_output_sync_directory(const char* directory) {
  int fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  rl_status_t status = RL_OK;
  if (fd < 0 || fsync(fd) != 0) {
    status = rl_output_io("renamed, but cannot fsync the directory", directory,
                          errno);
  }
  if (fd >= 0) close(fd);
  return status;
}

// Gives the temporary the replaced file's owner (where permitted: chown
// first, because it clears set-id bits) and permission bits, before any
// byte is written so the data is never more exposed than the old file was.
static rl_status_t rl_output_keep_mode(const rl_output_temp_t* temp,
                                       const struct stat* old) {
  if (old->st_uid != geteuid() || old->st_gid != getegid()) {
    (void)!fchown(temp->fd, old->st_uid, old->st_gid);
  }
  if (fchmod(temp->fd, old->st_mode & 07777) != 0) {
    return rl_output_io("cannot set the mode of", temp->path, errno);
  }
  return RL_OK;
}

// Fills, syncs and closes the temporary, then renames it over |path|.
static rl_status_t rl_output_commit(rl_output_temp_t* temp, const char* path,
                                    const struct stat* old, const uint8_t* data,
                                    size_t size) {
  rl_status_t status = old ? rl_output_keep_mode(temp, old) : RL_OK;
  if (!status && rl_output_test_hook) rl_output_test_hook(temp->path);
  if (!status) status = rl_output_write_all(temp->fd, temp->path, data, size);
  if (!status && fsync(temp->fd) != 0) {
    status = rl_output_io("cannot fsync", temp->path, errno);
  }
  if (close(temp->fd) != 0 && !status) {
    status = rl_output_io("cannot close", temp->path, errno);
  }
  temp->fd = -1;
  if (!status && rename(temp->path, path) != 0) {
    status = rl_output_io("cannot rename the temporary file over", path, errno);
  }
  return status;
}

// Replaces (or creates) the regular file |path| atomically; |old| is its
// lstat() or NULL when there is none.
static rl_status_t rl_output_write_atomic(const char* path,
                                          const struct stat* old,
                                          const uint8_t* data, size_t size) {
  char directory[PATH_MAX];
  const char* slash = strrchr(path, '/');
  const char* base = slash ? slash + 1 : path;
  if (!slash) {
    strcpy(directory, ".");
  } else {
    snprintf(directory, sizeof(directory), "%.*s",
             slash == path ? 1 : (int)(slash - path), path);
  }
  if (!base[0]) return RL_STATUS(RL_STATUS_IO, "%s names a directory", path);
  rl_output_temp_sweep(directory, RL_OUTPUT_FILE_STALE_SECONDS);
  rl_output_temp_t temp;
  RL_RETURN_IF_ERROR(rl_status_annotate(
      rl_output_temp_create(directory, base, old ? 0600 : 0666, &temp),
      "writing %s", path));
  rl_status_t status = rl_output_commit(&temp, path, old, data, size);
  if (status) {
    status = rl_status_annotate(status, "writing %s", path);
    if (temp.fd >= 0) close(temp.fd);
    unlink(temp.path);
  }
  rl_output_temp_release(&temp);
  return status ? status : rl_output_sync_directory(directory);
}

static const char* rl_output_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISBLK(mode)) return "a block device";
  return "not a file, device or FIFO";
}

// Writes the resolved |target| by what is there (the table on the header).
static rl_status_t rl_output_write_target(const rl_output_target_t* target,
                                          const uint8_t* data, size_t size) {
  mode_t mode = target->st.st_mode;
  if (!target->exists || S_ISREG(mode)) {
    return rl_output_write_atomic(target->path,
                                  target->exists ? &target->st : NULL, data,
                                  size);
  }
  if (S_ISCHR(mode) || S_ISFIFO(mode)) {
    return rl_output_write_direct(target->path, data, size);
  }
  return RL_STATUS(RL_STATUS_IO, "%s is %s: refusing to write it",
                   target->path, rl_output_kind(mode));
}

rl_status_t rl_output_file_write(const char* path, const void* data,
                                 size_t size) {
  if (!path || !path[0]) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "output path is empty");
  }
  int fd = -1;
  if (rl_output_fd_alias(path, &fd)) {
    return rl_output_write_all(fd, path, data, size);
  }
  rl_output_target_t* target = calloc(1, sizeof(*target));
  if (!target) return rl_status_out_of_memory();
  rl_status_t status = rl_output_resolve(path, target);
  if (!status) status = rl_output_write_target(target, data, size);
  if (status && strcmp(target->path, path) != 0) {
    status = rl_status_annotate(status, "%s (a symbolic link to %s)", path,
                                target->path);
  }
  free(target);
  return status;
}

// The canonical path an output that does not exist yet would get: the
// real path of its (resolved) directory plus its base name.
static bool rl_output_canonical(const char* path, char out[PATH_MAX]) {
  rl_output_target_t target;
  rl_status_t status = rl_output_resolve(path, &target);
  if (status) {
    rl_status_free(status);
    return false;
  }
  char* slash = strrchr(target.path, '/');
  const char* base = slash ? slash + 1 : target.path;
  if (slash) *slash = '\0';
  char directory[PATH_MAX];
  if (!realpath(slash ? (slash == target.path ? "/" : target.path) : ".",
                directory)) {
    return false;
  }
  return snprintf(out, PATH_MAX, "%s/%s", strcmp(directory, "/") ? directory : "",
                  base) < PATH_MAX;
}

rl_status_t rl_output_file_check_not_input(const char* output_path,
                                           const char* input_path) {
  struct stat input;
  if (!output_path || !input_path || stat(input_path, &input) != 0) {
    return RL_OK;
  }
  struct stat output;
  int fd = -1;
  bool same = false;
  if (rl_output_fd_alias(output_path, &fd) ? fstat(fd, &output) == 0
                                           : stat(output_path, &output) == 0) {
    same = output.st_dev == input.st_dev && output.st_ino == input.st_ino &&
           S_ISREG(input.st_mode);
  } else if (fd < 0) {
    char canonical_output[PATH_MAX], canonical_input[PATH_MAX];
    same = rl_output_canonical(output_path, canonical_output) &&
           realpath(input_path, canonical_input) &&
           strcmp(canonical_output, canonical_input) == 0;
  }
  if (!same) return RL_OK;
  return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                   "output %s is the input %s: refusing to overwrite it",
                   output_path, input_path);
}
