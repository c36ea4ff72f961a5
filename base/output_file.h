// base/output_file.h — the one way redline writes an output file (a
// capture, a JSON report). Every writer in capture/, redline/ and tools/
// goes through rl_output_file_write(), so an output path never turns a
// device, a FIFO or a symbolic link into a regular file, never leaves a
// half-written file behind, and never silently changes the mode of the file
// it replaces. Private to redline targets.
//
// What is found at the path decides how it is written:
//
//   nothing            A new regular file is created atomically (see below)
//                      with mode 0666 & ~umask, as any ordinary tool would.
//   regular file       Replaced atomically. The old file's permission bits
//                      (st_mode & 07777) are kept, and so are its owner and
//                      group where the process may set them (root may).
//   symbolic link      Followed, never replaced: the chain is resolved one
//                      link at a time (at most RL_OUTPUT_FILE_MAX_LINKS) and
//                      what it ends at is written by these same rules. A
//                      regular target is replaced atomically in its own
//                      directory, so the link stays a link to the new file.
//                      A dangling link creates its target, as a shell's `>`
//                      does. Following rather than refusing keeps the common
//                      "results/latest.json -> run-42.json" layouts working.
//   /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N
//                      Written to the open descriptor N itself, as bash
//                      does: a redirected stdout keeps its file, its offset
//                      and whatever else was written to it.
//   character device,  Opened and written in place: no temporary, no rename,
//   FIFO               no fsync (/dev/null and /dev/full stay devices). A
//                      FIFO is opened non-blocking, so a FIFO nobody reads
//                      is an immediate RL_STATUS_IO error ("has no reader")
//                      instead of a hang; once open, writes block normally.
//   directory, socket, Refused with RL_STATUS_IO naming the path and what
//   block device       it is; nothing is changed. (A block device is refused
//                      because a report written over a disk is never what the
//                      caller meant.)
//
// Atomic replacement: the bytes go to a temporary file in the destination's
// directory named ".NAME.redline-tmp.PID.XXXXXX" (NAME is the destination's
// base name, PID the writer's process id), which is fsync'ed and renamed
// over the destination; then the directory is fsync'ed. On any error the
// temporary is removed and the destination is left byte-for-byte unchanged.
// Rename is the atomic step: a reader sees either the old or the new file.
//
// Temporaries are cleaned up three ways:
//   - on every error path, by the writer itself;
//   - on SIGINT, SIGTERM and SIGHUP while a temporary exists: a handler,
//     installed only for the duration of the write (and not at all for a
//     signal the process ignores), unlinks every live temporary, restores
//     the signal's previous disposition and re-raises it, so the process
//     dies (or its own handler runs) exactly as it would have;
//   - SIGKILL and crashes cannot be caught, so every atomic write first
//     sweeps its directory: a temporary of this naming pattern is removed
//     when its PID is no longer alive (kill(pid, 0) fails with ESRCH) and it
//     was last modified more than RL_OUTPUT_FILE_STALE_SECONDS ago. The age
//     bound protects a temporary whose PID belongs to another PID namespace.
//
// Errors (all name the path as given, and the resolved target when a
// symbolic link was followed):
//   RL_STATUS_INVALID_ARGUMENT  empty path, or an output that is an input
//                               (rl_output_file_check_not_input);
//   RL_STATUS_IO                anything the file system refused, with the
//                               strerror text: "cannot write /dev/full: No
//                               space left on device", "FIFO /tmp/f has no
//                               reader", "/tmp is a directory".
//
// Thread-safety: writes from several threads are safe, to different paths or
// the same one (the last rename wins). The signal handler and the registry
// of live temporaries are process-wide; a handler installed by the program
// while a write is in flight is left in place.
#ifndef REDLINE_BASE_OUTPUT_FILE_H_
#define REDLINE_BASE_OUTPUT_FILE_H_

#include <stddef.h>

#include "redline/status.h"

// The longest chain of symbolic links followed (Linux's own limit).
#define RL_OUTPUT_FILE_MAX_LINKS 40

// A dead writer's temporary older than this many seconds is swept.
#define RL_OUTPUT_FILE_STALE_SECONDS 60

// The marker in every temporary's name: ".NAME" RL_OUTPUT_FILE_TEMP_MARKER
// "PID.XXXXXX".
#define RL_OUTPUT_FILE_TEMP_MARKER ".redline-tmp."

// Writes the |size| bytes at |data| to |path| by the rules above.
rl_status_t rl_output_file_write(const char* path, const void* data,
                                 size_t size);

// Refuses an output that would overwrite an input: returns
// RL_STATUS_INVALID_ARGUMENT ("output X is the input Y: refusing to
// overwrite it") when |output_path| and |input_path| name the same regular
// file — the same device and inode after following links, which covers hard
// links and /dev/fd aliases — or, when the output does not exist yet, the
// same canonical path. Returns RL_OK otherwise, including when the input does
// not exist (reading it will report that). Changes nothing on disk.
rl_status_t rl_output_file_check_not_input(const char* output_path,
                                           const char* input_path);

// Testing only: |hook| (NULL to remove) is called by every atomic write with
// the temporary's path after the temporary was created and registered for
// signal cleanup and before any byte is written, so a test can stop or kill
// the writer mid-write. Process-wide; not for concurrent use.
void rl_output_file_set_test_hook(void (*hook)(const char* temp_path));

#endif  // REDLINE_BASE_OUTPUT_FILE_H_
