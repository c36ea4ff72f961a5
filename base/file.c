// Reading whole regular files without blocking on others (base/file.h).
#include "base/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// The kind of a non-regular file, for the message.
static const char* rl_file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a file";
}

// Opens |path| without blocking and keeps the descriptor only when it is a
// regular file, switched back to blocking reads; *|out_size| its size.
static rl_status_t rl_file_open_regular(const char* path, int* out_fd,
                                        size_t* out_size) {
  *out_fd = -1;
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    return RL_STATUS(RL_STATUS_IO, "cannot open %s: %s", path, strerror(errno));
  }
  struct stat st;
  rl_status_t status = RL_OK;
  if (fstat(fd, &st) != 0) {
    status = RL_STATUS(RL_STATUS_IO, "cannot stat %s: %s", path,
                       strerror(errno));
  } else if (!S_ISREG(st.st_mode)) {
    status = RL_STATUS(RL_STATUS_IO, "%s is not a regular file (%s)", path,
                       rl_file_kind(st.st_mode));
  } else if ((uint64_t)st.st_size > (uint64_t)SIZE_MAX - 1) {
    status = rl_status_out_of_memory();
  } else {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
      status = RL_STATUS(RL_STATUS_IO, "cannot read %s: %s", path,
                         strerror(errno));
    }
  }
  if (status) {
    close(fd);
    return status;
  }
  *out_fd = fd;
  *out_size = (size_t)st.st_size;
  return RL_OK;
}

rl_status_t rl_file_read_regular(const char* path, uint8_t** out_data,
                                 size_t* out_size) {
  *out_data = NULL;
  *out_size = 0;
  int fd = -1;
  size_t size = 0;
  RL_RETURN_IF_ERROR(rl_file_open_regular(path, &fd, &size));
  uint8_t* data = malloc(size ? size : 1);
  rl_status_t status = data ? RL_OK : rl_status_out_of_memory();
  for (size_t done = 0; !status && done < size;) {
    ssize_t got = read(fd, data + done, size - done);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      status = RL_STATUS(RL_STATUS_IO, "cannot read %s: %s", path,
                         got < 0 ? strerror(errno) : "file shrank");
    }
    done += got > 0 ? (size_t)got : 0;
  }
  close(fd);
  if (status) {
    free(data);
    return status;
  }
  *out_data = data;
  *out_size = size;
  return RL_OK;
}
