// redline/funnel.h — the recording funnel: the one typed path through which
// a program issues its launches, and which records exactly the bytes that
// are launched.
//
// The funnel drives a device (rl_funnel_device_t below) — the record-only
// device here, later the simulated GPU or HIP — so a recording run is also
// an ordinary eager run. For each call it updates an rl_capture_t through
// the validating builders of redline/capture.h:
//
//   load_code_object  parses and keeps the bytes, loads them on the device
//   kernel            resolves a kernel of a loaded code object
//   buffer            allocates on the device, zero-fills, registers the
//                     buffer with its address range and role
//   upload / read     write / read device memory through a buffer
//   param             declares a named dynamic value with admitted range
//   launch            assembles the kernarg, types every pointer, checks the
//                     bindings, records the launch, then runs it
//   region / window   declare what shadow runs compare and walk
//   finish            hands the capture to the caller
//
// Launch arguments. rl_funnel_launch() takes one rl_funnel_arg_t per
// *explicit* metadata argument of the kernel, in metadata order. Hidden
// arguments (value_kind hidden_*) are filled as HIP's runtime fills them for
// a grid of whole work-groups:
//   hidden_block_count_{x,y,z}   u32  grid[axis] (work-groups per axis)
//   hidden_group_size_{x,y,z}    u16  block[axis]
//   hidden_remainder_{x,y,z}     u16  0 (the grid is whole work-groups)
//   hidden_grid_dims             u16  3 (HIP always dispatches 3-D)
//   hidden_dynamic_lds_size      u32  the launch's dynamic LDS bytes
//   any other hidden_* kind           zero
// The kernarg is kernarg_segment_size bytes, zero outside the arguments.
// Each explicit argument is typed:
//   pointer   a device address for a global_buffer argument. A non-null
//             pointer must fall inside a registered buffer (otherwise the
//             launch fails at record time naming the launch index, the
//             argument index and the address); null (0) is allowed and gets
//             no pointer slot. Its effect is, strongest first: the explicit
//             declaration at this call (rl_funnel_arg_pointer_declared), the
//             compiler's access qualifier (metadata, when effect_known), or
//             unknown = read-write. The extent is the whole buffer unless
//             declared.
//   scalar    u32/i32/f32 (4 bytes) or u64/i64/f64 (8 bytes); the size must
//             equal the metadata argument's size. An integer scalar may
//             carry a binding expression over a parameter: the value must
//             equal the expression at the parameters' current values.
//   bytes     raw bytes, exactly the metadata argument's size (structs).
// Grid axes may be bound the same way (rl_funnel_launch_options_t); a bound
// axis also binds the kernel's hidden_block_count_<axis> argument, if any,
// to the same expression, so gridDim follows the replayed grid.
//
// Initial contents. A buffer's recorded initial contents are its device
// contents when the first launch after its registration is issued (or at
// finish when no launch follows); the funnel reads them back from the
// device then. Uploading to a buffer after that point is refused
// (RL_STATUS_UNSUPPORTED): a replay starts from the initial contents, so a
// host write between launches could not be reproduced.
//
// Parameters. The capture holds one value per parameter. rl_funnel_set_param
// may change a value until a recorded launch binds that parameter; after
// that it fails, because the recorded kernarg bytes hold the old value.
//
// Errors. Every check runs before anything is recorded: a failed call leaves
// the capture unchanged (a launch the device refuses is removed again) and
// the funnel usable. After rl_funnel_finish() every call except destroy
// fails with RL_STATUS_INVALID_ARGUMENT.
//
// Thread-safety: none; one thread drives a funnel.
#ifndef REDLINE_FUNNEL_H_
#define REDLINE_FUNNEL_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "redline/capture.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// What the funnel hands the device for one launch. Pointers stay valid for
// the duration of the call only.
typedef struct rl_funnel_dispatch_s {
  uint32_t launch_index;       // index of the launch in the capture
  uint32_t code_object;        // capture code-object index
  uint64_t code_object_handle; // what the device's load_code_object returned
  const rl_code_object_kernel_t* kernel;  // descriptor, metadata, name
  uint32_t grid[3];   // work-groups per axis
  uint32_t block[3];  // work-items per work-group per axis
  uint32_t dynamic_lds;
  const uint8_t* kernarg;  // kernarg_size exact bytes
  uint32_t kernarg_size;
} rl_funnel_dispatch_t;

// A device the funnel drives: a value type holding |self| and the functions
// called with it (like an allocator handle). Addresses are device addresses.
// Every function returns a status; the funnel annotates failures.
typedef struct rl_funnel_device_s {
  void* self;
  // Loads |size| bytes of a code object; *|out_handle| identifies it in
  // later dispatches.
  rl_status_t (*load_code_object)(void* self, const void* bytes, size_t size,
                                  uint64_t* out_handle);
  // Allocates |size| bytes aligned to |alignment| (a power of two).
  rl_status_t (*allocate)(void* self, uint64_t size, uint64_t alignment,
                          uint64_t* out_address);
  rl_status_t (*write)(void* self, uint64_t address, const void* data,
                       uint64_t size);
  rl_status_t (*read)(void* self, uint64_t address, void* data,
                      uint64_t size);
  // Runs one launch (asynchronously or not; read() must observe it).
  rl_status_t (*launch)(void* self, const rl_funnel_dispatch_t* dispatch);
  // Releases |self| and everything the device allocated.
  void (*destroy)(void* self);
} rl_funnel_device_t;

// The record-only device. It hands out distinct, aligned, fake device
// addresses starting at RL_FUNNEL_NULL_DEVICE_BASE with at least
// RL_FUNNEL_NULL_DEVICE_GAP unmapped bytes between allocations (so an address
// just past a buffer is in no buffer), keeps a zero-initialised host shadow
// of every allocation so write() and read() work, and accepts code objects
// and launches without executing anything: buffers keep the contents the
// host wrote. Reads and writes must stay inside one allocation.
#define RL_FUNNEL_NULL_DEVICE_BASE 0x7f0000000000ull
#define RL_FUNNEL_NULL_DEVICE_GAP 0x10000ull

// Fills *|out_device| with a new record-only device; release it with
// rl_funnel_device_destroy().
rl_status_t rl_funnel_null_device_create(rl_funnel_device_t* out_device);

// The number of launches the record-only |device| has accepted; 0 for any
// other device.
uint32_t rl_funnel_null_device_launch_count(const rl_funnel_device_t* device);

// Calls |device|->destroy and clears |device|. NULL functions are allowed.
void rl_funnel_device_destroy(rl_funnel_device_t* device);

typedef enum rl_funnel_arg_type_e {
  RL_FUNNEL_ARG_POINTER = 0,
  RL_FUNNEL_ARG_U32 = 1,
  RL_FUNNEL_ARG_I32 = 2,
  RL_FUNNEL_ARG_F32 = 3,
  RL_FUNNEL_ARG_U64 = 4,
  RL_FUNNEL_ARG_I64 = 5,
  RL_FUNNEL_ARG_F64 = 6,
  RL_FUNNEL_ARG_BYTES = 7,
  RL_FUNNEL_ARG_TYPE_COUNT_ = 8,
} rl_funnel_arg_type_t;

// One explicit launch argument. Build it with the helpers below.
typedef struct rl_funnel_arg_s {
  rl_funnel_arg_type_t type;
  union {
    uint64_t pointer;
    uint32_t u32;
    int32_t i32;
    float f32;
    uint64_t u64;
    int64_t i64;
    double f64;
    struct {
      const void* data;
      uint32_t size;
    } bytes;
  } value;
  // Pointers only: an explicit effect over [pointer + extent_offset,
  // + extent_size); extent_size 0 declares the effect over the whole buffer.
  bool declared;
  rl_effect_t effect;
  uint64_t extent_offset;
  uint64_t extent_size;
  // U32/I32/U64/I64 only: the value is |binding| at the current parameters.
  bool bound;
  rl_expr_t binding;
} rl_funnel_arg_t;

static inline rl_funnel_arg_t rl_funnel_arg_pointer(uint64_t address) {
  rl_funnel_arg_t arg = {.type = RL_FUNNEL_ARG_POINTER};
  arg.value.pointer = address;
  return arg;
}

static inline rl_funnel_arg_t rl_funnel_arg_pointer_declared(
    uint64_t address, rl_effect_t effect, uint64_t extent_offset,
    uint64_t extent_size) {
  rl_funnel_arg_t arg = rl_funnel_arg_pointer(address);
  arg.declared = true;
  arg.effect = effect;
  arg.extent_offset = extent_offset;
  arg.extent_size = extent_size;
  return arg;
}

static inline rl_funnel_arg_t rl_funnel_arg_u32(uint32_t value) {
  rl_funnel_arg_t arg = {.type = RL_FUNNEL_ARG_U32};
  arg.value.u32 = value;
  return arg;
}

static inline rl_funnel_arg_t rl_funnel_arg_i32(int32_t value) {
  rl_funnel_arg_t arg = {.type = RL_FUNNEL_ARG_I32};
  arg.value.i32 = value;
  return arg;
}

static inline rl_funnel_arg_t rl_funnel_arg_f32(float value) {
  rl_funnel_arg_t arg = {.type = RL_FUNNEL_ARG_F32};
  arg.value.f32 = value;
  return arg;
}

static inline rl_funnel_arg_t rl_funnel_arg_u64(uint64_t value) {
  rl_funnel_arg_t arg = {.type = RL_FUNNEL_ARG_U64};
  arg.value.u64 = value;
  return arg;
}

static inline rl_funnel_arg_t rl_funnel_arg_i64(int64_t value) {
  rl_funnel_arg_t arg = {.type = RL_FUNNEL_ARG_I64};
  arg.value.i64 = value;
  return arg;
}

static inline rl_funnel_arg_t rl_funnel_arg_f64(double value) {
  rl_funnel_arg_t arg = {.type = RL_FUNNEL_ARG_F64};
  arg.value.f64 = value;
  return arg;
}

static inline rl_funnel_arg_t rl_funnel_arg_bytes(const void* data,
                                                  uint32_t size) {
  rl_funnel_arg_t arg = {.type = RL_FUNNEL_ARG_BYTES};
  arg.value.bytes.data = data;
  arg.value.bytes.size = size;
  return arg;
}

// A u32 whose value is |expr| at the current parameter values.
static inline rl_funnel_arg_t rl_funnel_arg_u32_bound(uint32_t value,
                                                      rl_expr_t expr) {
  rl_funnel_arg_t arg = rl_funnel_arg_u32(value);
  arg.bound = true;
  arg.binding = expr;
  return arg;
}

// Optional per-launch settings; a zeroed struct (or NULL) binds nothing.
typedef struct rl_funnel_launch_options_s {
  // When grid_bound[axis], grid[axis] must equal grid_binding[axis] at the
  // current parameter values, and replay recomputes it from the binding.
  bool grid_bound[3];
  rl_expr_t grid_binding[3];
  // A cooperative launch (rl_capture_launch_t.cooperative).
  bool cooperative;
} rl_funnel_launch_options_t;

typedef struct rl_funnel_s rl_funnel_t;

// Creates a funnel recording workload |workload| on |device|. The funnel
// copies the device handle but does not own it: destroy the device after
// the funnel.
rl_status_t rl_funnel_create(const char* workload,
                             const rl_funnel_device_t* device,
                             rl_funnel_t** out_funnel);

// Destroys |funnel| and the capture it still holds (if not finished).
void rl_funnel_destroy(rl_funnel_t* funnel);

// Adds a code object (parsed and copied) and loads it on the device.
rl_status_t rl_funnel_load_code_object(rl_funnel_t* funnel, const void* bytes,
                                       size_t size, uint32_t* out_code_object);

// Resolves kernel |name| of code object |code_object|.
rl_status_t rl_funnel_kernel(rl_funnel_t* funnel, uint32_t code_object,
                             const char* name, uint32_t* out_kernel);

// Allocates |size| bytes aligned to |alignment| on the device, zero-fills
// them and registers buffer |name|. *|out_address| is its device address.
rl_status_t rl_funnel_buffer(rl_funnel_t* funnel, const char* name,
                             uint64_t size, uint64_t alignment,
                             rl_buffer_role_t role, bool keep_address,
                             uint32_t* out_buffer, uint64_t* out_address);

// Marks |buffer| as one the replay must place at its capture address
// (rl_capture_buffer_t.keep_address): a launch passed an address inside it
// where no pointer slot is (a pointer member of a struct argument), which a
// replay cannot patch. Fails on an unknown buffer or a finished funnel.
rl_status_t rl_funnel_keep_address(rl_funnel_t* funnel, uint32_t buffer);

// Registers buffer |name| as an alias of the whole variable |symbol| of code
// object |code_object| (redline/capture.h, rl_capture_buffer_t.symbol),
// which the device holds at |address| (the caller knows it: HIP's
// hipGetSymbolAddress or hipModuleGetGlobal). Nothing is allocated or
// written; the initial contents are read at the next launch like any
// buffer's. Fails (naming the buffer) on an unknown symbol.
rl_status_t rl_funnel_variable(rl_funnel_t* funnel, const char* name,
                               uint32_t code_object, const char* symbol,
                               uint64_t address, rl_buffer_role_t role,
                               uint32_t* out_buffer);

// Writes |size| bytes at |offset| of |buffer| (see "Initial contents").
rl_status_t rl_funnel_upload(rl_funnel_t* funnel, uint32_t buffer,
                             uint64_t offset, const void* data, uint64_t size);

// Reads |size| bytes at |offset| of |buffer| from the device.
rl_status_t rl_funnel_read(rl_funnel_t* funnel, uint32_t buffer,
                           uint64_t offset, void* data, uint64_t size);

// Declares parameter |name| with admitted range [|min|, |max|) and current
// value |value|.
rl_status_t rl_funnel_param(rl_funnel_t* funnel, const char* name, int64_t min,
                            int64_t max, int64_t value, uint32_t* out_param);

// Changes the current value of parameter |param| (see "Parameters").
rl_status_t rl_funnel_set_param(rl_funnel_t* funnel, uint32_t param,
                                int64_t value);

// Records and runs one launch of |kernel| (see "Launch arguments").
// |options| may be NULL. On success *|out_launch| is the launch index;
// |out_launch| may be NULL.
rl_status_t rl_funnel_launch(rl_funnel_t* funnel, uint32_t kernel,
                             const uint32_t grid[3], const uint32_t block[3],
                             uint32_t dynamic_lds, const rl_funnel_arg_t* args,
                             uint32_t arg_count,
                             const rl_funnel_launch_options_t* options,
                             uint32_t* out_launch);

rl_status_t rl_funnel_region(rl_funnel_t* funnel, const char* name,
                             uint32_t buffer, uint64_t offset, uint64_t size,
                             rl_region_type_t type, uint32_t* out_region);

rl_status_t rl_funnel_window(rl_funnel_t* funnel, uint32_t param,
                             int64_t start, uint32_t count, int64_t stride,
                             uint32_t* out_window);

// The capture recorded so far (read-only; owned by the funnel).
const rl_capture_t* rl_funnel_capture(const rl_funnel_t* funnel);

// Snapshots the initial contents still pending, validates the whole capture
// and transfers it to *|out_capture| (the caller destroys it). The funnel is
// finished afterwards, also when validation fails.
rl_status_t rl_funnel_finish(rl_funnel_t* funnel, rl_capture_t** out_capture);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_FUNNEL_H_
