// base/file.h — reading a whole input file, refusing anything that
// is not a regular file before a single byte is read. Private to redline and
// tools/.
//
// The file is opened with O_NONBLOCK, so opening a FIFO, a terminal or a
// device never blocks; fstat() on that descriptor (not a stat() of the path,
// which could be swapped before the open) then decides, and only a regular
// file is read, in blocking mode. A FIFO given as a capture would otherwise
// block forever in open() waiting for a writer.
//
// Errors name |path| once and are the only place that does, so callers add
// context without repeating it:
//   RL_STATUS_IO "cannot open PATH: No such file or directory"
//   RL_STATUS_IO "PATH is not a regular file (a FIFO)"
//   RL_STATUS_IO "cannot read PATH: <errno text>"
//   RL_STATUS_OUT_OF_MEMORY when the contents do not fit host memory.
//
// Thread-safety: none needed; the function shares nothing.
#ifndef REDLINE_BASE_FILE_H_
#define REDLINE_BASE_FILE_H_

#include <stddef.h>
#include <stdint.h>

#include "redline/status.h"

// Reads the whole regular file |path| into a new malloc'd buffer (at least
// one byte is allocated, so an empty file gives a non-NULL buffer of size 0).
// The caller frees *|out_data|. Outputs are cleared on entry and on failure.
rl_status_t rl_file_read_regular(const char* path, uint8_t** out_data,
                                 size_t* out_size);

#endif  // REDLINE_BASE_FILE_H_
