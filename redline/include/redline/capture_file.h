// redline/capture_file.h — the capture file (.rlc): a capture (capture.h)
// serialised so that it replays in another process, and read back with
// every byte checked. The full specification is docs/capture-format.md;
// this header is the contract of the code.
//
// Layout: a 64-byte header, then sections. Everything is little-endian
// except digests, which are stored in the canonical big-endian XXH128 form
// so a hex dump shows the digits rl_digest128_format prints.
//
//   header   magic "\x89RLC\r\n\x1a\n", format major.minor, header size,
//            flags, section count, file size, capture identity, reserved,
//            XXH3-64 of the header bytes before the checksum
//   section  kind u32, flags u32 (bit 0: required), payload length u64,
//            checksum u64, payload, zero padding to a multiple of 8 bytes
//
// The section checksum is XXH3-64 of the payload seeded with XXH3-64 of the
// section's first 16 header bytes, so kind, flags and length are covered
// too. With the header checksum, the file-size field and the rule that
// padding and reserved bytes are zero, every byte of a file is checked:
// any single flipped byte, and any truncation, is an error.
//
// Format 1.0 writes, in this order: META, CODE_OBJECTS, KERNELS, BUFFERS,
// BUFFER_DATA, PARAMS, LAUNCHES, REGIONS, WINDOWS, END. All of them are
// required. An incomplete capture (rl_capture_incomplete) also has an
// INCOMPLETE section right before END: u32 bypassed launches, string
// reason. It is flagged required, so a reader that predates it refuses
// the file instead of replaying a capture that missed work; the identity
// does not cover it. A capture with program-state hashes
// (rl_capture_t.program_states) has a PROGRAM_STATE section after WINDOWS
// (and INCOMPLETE): u32 count, then per entry i64 pos, u32 region, u32 zero,
// the digest; flagged optional (a reader that predates it skips it: the
// replay does not depend on it), not covered by the identity. Sections of kinds a reader does not know may appear anywhere
// before END: a reader skips them when their required flag is clear and
// rejects the file (RL_STATUS_UNSUPPORTED) when it is set.
//
// Versioning: a minor version adds only optional sections (and, possibly,
// header bytes past offset 56, covered by the header checksum); any reader
// of the same major version reads the file. A new major version is
// incompatible: this reader rejects it with RL_STATUS_UNSUPPORTED.
//
// Identity: XXH3-128 over the canonical encoding of the capture's content
// (see rl_capture_identity). It does not depend on how buffer contents are
// compressed, on the writer's version string or on optional sections, and
// it is stored in the header and re-checked by the reader after decoding.
//
// Errors: readers return RL_STATUS_INVALID_INPUT for any malformed or
// corrupt input and RL_STATUS_UNSUPPORTED for a newer major version, unknown
// header flags or an unknown required section. Messages name the section,
// the absolute file offset and the reason:
//   "section LAUNCHES, byte 12384: launch 0: slot count 700 needs at least
//    28000 bytes, 484 are left"
// File-system failures are RL_STATUS_IO with the path and strerror text.
//
// Thread-safety: the functions share no state; a capture passed to the
// writer must not be modified while it is written.
#ifndef REDLINE_CAPTURE_FILE_H_
#define REDLINE_CAPTURE_FILE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "redline/capture.h"
#include "redline/digest.h"
#include "redline/limits.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Format constants
//===----------------------------------------------------------------------===//

#define RL_CAPTURE_FILE_MAGIC "\x89RLC\r\n\x1a\n"
#define RL_CAPTURE_FILE_MAGIC_SIZE 8
#define RL_CAPTURE_FILE_VERSION_MAJOR 1
#define RL_CAPTURE_FILE_VERSION_MINOR 0
// The header size this writer emits; readers accept larger headers of the
// same major version (multiples of 8, at most RL_CAPTURE_FILE_HEADER_MAX).
#define RL_CAPTURE_FILE_HEADER_SIZE 64
#define RL_CAPTURE_FILE_HEADER_MAX 4096
#define RL_CAPTURE_FILE_SECTION_HEADER_SIZE 24
// Sections start at multiples of this many bytes.
#define RL_CAPTURE_FILE_ALIGNMENT 8
// The most sections a file may have (the reader reports each one in
// rl_capture_file_info_t without allocating).
#define RL_CAPTURE_FILE_MAX_SECTIONS 64
// The string the writer stores in META.
#define RL_CAPTURE_FILE_WRITER "redline 0.1.0"

// Section flag bit 0: a reader that does not know the kind must reject the
// file. Bits 1..31 are reserved and must be zero.
#define RL_CAPTURE_SECTION_FLAG_REQUIRED 0x1u

typedef enum rl_capture_section_kind_e {
  RL_CAPTURE_SECTION_META = 1,
  RL_CAPTURE_SECTION_CODE_OBJECTS = 2,
  RL_CAPTURE_SECTION_KERNELS = 3,
  RL_CAPTURE_SECTION_BUFFERS = 4,
  RL_CAPTURE_SECTION_BUFFER_DATA = 5,
  RL_CAPTURE_SECTION_PARAMS = 6,
  RL_CAPTURE_SECTION_LAUNCHES = 7,
  RL_CAPTURE_SECTION_REGIONS = 8,
  RL_CAPTURE_SECTION_WINDOWS = 9,
  RL_CAPTURE_SECTION_INCOMPLETE = 10,  // only in incomplete captures
  // Only in captures with scaled expressions or pointer-offset bindings:
  // between PARAMS and LAUNCHES (docs/capture-format.md).
  RL_CAPTURE_SECTION_BINDING_EXT = 11,
  RL_CAPTURE_SECTION_PROGRAM_STATE = 12,  // optional: program_states
  RL_CAPTURE_SECTION_ISSUED = 13,         // optional: as-issued arguments
  // Only in captures with cooperative launches: after WINDOWS, required
  // (a reader without it must refuse the file, docs/capture-format.md).
  RL_CAPTURE_SECTION_COOPERATIVE = 14,
  // Only in captures with descriptor bindings (a texture object's image
  // address): after WINDOWS, required (docs/capture-format.md).
  RL_CAPTURE_SECTION_DESCRIPTORS = 16,
  RL_CAPTURE_SECTION_END = 0xFFFF,
} rl_capture_section_kind_t;

// How one buffer's contents are stored in BUFFER_DATA.
typedef enum rl_capture_encoding_e {
  RL_CAPTURE_ENCODING_RAW = 0,
  RL_CAPTURE_ENCODING_ZSTD = 1,  // one zstd frame with its content size
} rl_capture_encoding_t;

// "META", "LAUNCHES", ...; "UNKNOWN" for kinds this reader does not know.
const char* rl_capture_section_kind_name(uint32_t kind);

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

typedef enum rl_capture_compression_e {
  RL_CAPTURE_COMPRESSION_ZSTD = 0,  // default
  RL_CAPTURE_COMPRESSION_NONE = 1,
} rl_capture_compression_t;

// Writer options. A zero-initialised struct (or NULL) means the defaults:
// zstd at level 3 and buffer contents included.
typedef struct rl_capture_write_options_s {
  rl_capture_compression_t compression;
  // zstd level; 0 means 3. Must lie in [ZSTD_minCLevel(), ZSTD_maxCLevel()].
  // A buffer whose compressed form is not smaller is stored raw.
  int zstd_level;
  // Drop every buffer's initial contents: the file is smaller but replays
  // only where the caller supplies the contents. The identity in the header
  // is that of the capture without contents.
  bool omit_contents;
} rl_capture_write_options_t;

// Encodes |capture| into a new heap buffer: *|out_bytes| (free() it) holds
// *|out_size| bytes. |options| may be NULL (defaults). Invalid |options| are
// RL_STATUS_INVALID_ARGUMENT; the capture is validated first
// (rl_capture_validate) and an invalid one fails with that status. On
// failure nothing is allocated. Outputs are cleared on entry.
rl_status_t rl_capture_file_encode(const rl_capture_t* capture,
                                   const rl_capture_write_options_t* options,
                                   uint8_t** out_bytes, size_t* out_size);

// Writes |capture| to |path| by redline's output-file rules
// (base/output_file.h): a regular file (or none) is replaced
// atomically through a temporary ".NAME.redline-tmp.PID.XXXXXX" in the same
// directory, fsync'ed and renamed, then the directory is fsync'ed; a
// replaced file keeps its mode, a new one gets 0666 & ~umask. A symbolic
// link is followed (its target is replaced), a character device or FIFO is
// written in place, a directory, socket or block device is refused. On any
// error the temporary file is removed and an existing file at |path| is left
// untouched. |options| may be NULL (defaults).
rl_status_t rl_capture_file_write(const rl_capture_t* capture, const char* path,
                                  const rl_capture_write_options_t* options);

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

// One section as found in a file.
typedef struct rl_capture_file_section_s {
  uint32_t kind;
  uint32_t flags;
  uint64_t offset;          // absolute offset of the section header
  uint64_t payload_offset;  // absolute offset of the payload
  uint64_t payload_length;
  uint64_t checksum;
  bool known;  // false: an optional section this reader skipped
} rl_capture_file_section_t;

// What a reader learnt about a file besides the capture itself.
typedef struct rl_capture_file_info_s {
  uint16_t version_major;
  uint16_t version_minor;
  uint32_t header_size;
  uint32_t flags;
  uint64_t file_size;
  rl_digest128_t identity;
  char writer[RL_CAPTURE_NAME_MAX];  // META's writer string
  // Sections in file order; on failure, those read before the error.
  uint32_t section_count;
  rl_capture_file_section_t sections[RL_CAPTURE_FILE_MAX_SECTIONS];
} rl_capture_file_info_t;

// Decodes a capture file held in memory (|size| bytes at |data|). Every
// offset, length, count and index is checked before use, and no allocation
// is sized from a count before the count is checked against the bytes left.
// The model is built through the rl_capture_add_*() functions, finished by
// rl_capture_validate(), and its identity is compared with the header's.
// On success *|out_capture| owns the capture (rl_capture_destroy). On
// failure it is NULL. |out_info| may be NULL; it is cleared on entry.
rl_status_t rl_capture_file_read_memory(const void* data, size_t size,
                                        rl_capture_t** out_capture,
                                        rl_capture_file_info_t* out_info);

// Reads the file at |path| and decodes it as rl_capture_file_read_memory()
// does. Anything but a regular file (a FIFO, a directory, a device) is
// refused with RL_STATUS_IO before it is read, without blocking on it.
// Every message names |path| exactly once: I/O errors say "cannot open
// PATH: ..." or "PATH is not a regular file (a FIFO)", messages of decoding
// errors start with "PATH: ", so callers must not add the path again.
rl_status_t rl_capture_file_read(const char* path, rl_capture_t** out_capture,
                                 rl_capture_file_info_t* out_info);

// Budgets (redline/limits.h). The two readers above apply the default
// limits; these take |limits| (NULL: the defaults). The sum of every
// buffer's contents after decompression is checked against
// max_decompressed_bytes when BUFFER_DATA starts, before any buffer is
// decompressed or allocated; a file over it is RL_STATUS_INVALID_INPUT:
//   "capture buffer 3 'w': 1073741824 bytes decompressed bring the total to
//    1073741824, over the limit of 268435456 (max_decompressed_bytes,
//    --max-decompressed)"
rl_status_t rl_capture_file_read_memory_limited(
    const void* data, size_t size, const rl_limits_t* limits,
    rl_capture_t** out_capture, rl_capture_file_info_t* out_info);
rl_status_t rl_capture_file_read_limited(const char* path,
                                         const rl_limits_t* limits,
                                         rl_capture_t** out_capture,
                                         rl_capture_file_info_t* out_info);

//===----------------------------------------------------------------------===//
// Identity
//===----------------------------------------------------------------------===//

// Computes the identity of |capture|: XXH3-128 (seed 0) of, for each data
// section kind in file order (META .. WINDOWS), the kind (u32), the length
// of its canonical payload (u64) and that payload. The canonical payload is
// the one the writer emits with these differences: META leaves out the
// writer string, and BUFFER_DATA stores every buffer raw. Two captures with
// equal content have equal identities whatever options wrote them.
rl_status_t rl_capture_identity(const rl_capture_t* capture,
                                rl_digest128_t* out_identity);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_CAPTURE_FILE_H_
