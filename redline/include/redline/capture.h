// redline/capture.h — the capture model: the typed launches of one decode
// step and everything needed to replay them in another process.
//
// A capture holds, in index order (indices are stable and are what every
// cross-reference uses):
//   code objects  bytes, XXH3-128 digest, the parsed model (code_object.h)
//   kernels       a symbol in a code object
//   buffers       id == index; size, alignment, role, the device address at
//                 capture, whether the address must be kept, optional
//                 initial contents (so the capture replays stand-alone);
//                 a buffer may alias a code object's variable instead of
//                 being an allocation (rl_capture_buffer_t.symbol)
//   parameters    named dynamic values (e.g. "pos") with an admitted range
//   launches      kernel, grid (in work-groups), block, dynamic LDS, the
//                 exact kernarg bytes, a typed pointer slot for every pointer
//                 argument and a scalar binding for every dynamic value
//   regions       named byte ranges of buffers that shadow runs compare
//   windows       the parameter values a shadow or bench run walks
//
// Building: rl_capture_create(), then the rl_capture_add_*() functions. Each
// add validates what it can see at that point (indices refer to existing
// objects, sizes fit) and copies its input, so callers keep ownership of what
// they pass. rl_capture_validate() checks the whole model again (the file
// reader builds through the same add functions and then validates).
//
// Binding expressions: value = op(s × param + add, operand), s the scale
// (rl_expr_scale: 0 reads as 1, so every zero-initialised expression is
// param + add), where op is
//   RL_EXPR_ADD       s×param + add                    (operand unused, 0)
//   RL_EXPR_DIV       (s×param + add) / operand        (floor, operand > 0)
//   RL_EXPR_MOD       (s×param + add) % operand        (operand > 0)
//   RL_EXPR_CEIL_DIV  ceil((s×param + add) / operand)  (operand > 0)
// evaluated in signed 64-bit arithmetic; a negative or overflowing result is
// an error at evaluation. A kernarg binding writes the low |size| bytes
// (4 or 8) little-endian at its kernarg offset; a grid binding sets the
// work-group count of one axis; a pointer-offset binding sets the byte
// offset of pointer slot |offset| in its buffer (the slot's pointer is then
// the buffer's address + the value; the slot's extent must cover every
// admitted value's access, step_infer.h sets it so).
//
// Thread-safety: none; a capture is built by one thread, then read-only.
#ifndef REDLINE_CAPTURE_H_
#define REDLINE_CAPTURE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "redline/code_object.h"
#include "redline/digest.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RL_CAPTURE_NAME_MAX 256  // longest name (buffer, region, parameter...)
// Longest kernel name or variable symbol: ELF symbols of C++ code (a
// templated kernel's mangled name, as rocPRIM's and hipCUB's are) run past
// RL_CAPTURE_NAME_MAX; this bound only guards against corrupt files.
#define RL_CAPTURE_SYMBOL_MAX 4096

typedef enum rl_buffer_role_e {
  RL_BUFFER_ROLE_WEIGHTS = 0,
  RL_BUFFER_ROLE_STATE = 1,
  RL_BUFFER_ROLE_SCRATCH = 2,
  RL_BUFFER_ROLE_IO = 3,
  RL_BUFFER_ROLE_WORKSPACE = 4,
  RL_BUFFER_ROLE_COUNT_ = 5,
} rl_buffer_role_t;

// Where a pointer slot's effect came from. By strength: declared,
// metadata, observed, unknown (the values are the file format's, numbered
// as they were added).
typedef enum rl_effect_source_e {
  RL_EFFECT_SOURCE_DECLARED = 0,  // explicit declaration at the record call
  RL_EFFECT_SOURCE_METADATA = 1,  // .actual_access / .access in the metadata
  RL_EFFECT_SOURCE_UNKNOWN = 2,   // neither: read-write of the whole buffer
  // Neither, but the capture run observed the launch on the simulator: the
  // effect and extent are what its work-groups loaded and stored through
  // the slot's buffer (capture/recording/observed_effects.h).
  RL_EFFECT_SOURCE_OBSERVED = 3,
  RL_EFFECT_SOURCE_COUNT_ = 4,
} rl_effect_source_t;

typedef enum rl_expr_op_e {
  RL_EXPR_ADD = 0,
  RL_EXPR_DIV = 1,
  RL_EXPR_MOD = 2,
  RL_EXPR_CEIL_DIV = 3,
  RL_EXPR_OP_COUNT_ = 4,
} rl_expr_op_t;

typedef struct rl_expr_s {
  uint32_t param;    // parameter index
  int64_t add;       // k in (s × param + k)
  rl_expr_op_t op;
  int64_t operand;   // d or m; 0 for RL_EXPR_ADD
  // s in (s × param + k); 0 means 1 (the field came after the others, and
  // a constant needs no binding). Read it through rl_expr_scale.
  int64_t scale;
} rl_expr_t;

// The multiplier of |expr|'s parameter (its |scale|, 0 read as 1).
static inline int64_t rl_expr_scale(const rl_expr_t* expr) {
  return expr->scale ? expr->scale : 1;
}

typedef enum rl_binding_target_e {
  RL_BINDING_KERNARG = 0,  // |offset| = kernarg byte offset, |size| 4 or 8
  RL_BINDING_GRID = 1,     // |offset| = axis 0..2, |size| 4
  // |offset| = pointer slot index, |size| 8: the slot's byte offset in its
  // buffer (0..buffer size).
  RL_BINDING_POINTER_OFFSET = 2,
  RL_BINDING_TARGET_COUNT_ = 3,
} rl_binding_target_t;

typedef struct rl_scalar_binding_s {
  rl_binding_target_t target;
  uint32_t offset;
  uint32_t size;
  rl_expr_t expr;
} rl_scalar_binding_t;

// A pointer argument: where it points and what the kernel may do there.
// Most sit on a global_buffer argument; an "embedded" slot sits on an
// 8-byte-aligned word inside a by-value argument (a pointer member of a
// struct or iterator) whose value lay inside a recorded buffer at capture,
// and that buffer keeps its address (keep_address), so patching the slot
// rewrites the recorded value whether or not the word was a pointer
// (docs/capture-interposer.md "Pointers inside struct arguments").
typedef struct rl_pointer_slot_s {
  uint32_t kernarg_offset;  // where the 8-byte pointer sits in the kernarg
  uint32_t buffer;          // buffer index
  uint64_t offset;          // the pointer value minus the buffer's base
  rl_effect_t effect;
  rl_effect_source_t source;
  // The byte range of the buffer the kernel may touch through this slot:
  // [extent_offset, extent_offset + extent_size). Without a declaration it
  // is the whole buffer (conservative).
  uint64_t extent_offset;
  uint64_t extent_size;
} rl_pointer_slot_t;

typedef struct rl_capture_code_object_s {
  uint8_t* bytes;
  size_t size;
  rl_digest128_t digest;        // XXH3-128 of bytes
  rl_code_object_t* parsed;     // owned
} rl_capture_code_object_t;

typedef struct rl_capture_kernel_s {
  uint32_t code_object;
  char* name;  // kernel name without ".kd"
  const rl_code_object_kernel_t* info;  // points into the parsed code object
} rl_capture_kernel_t;

typedef struct rl_capture_buffer_s {
  char* name;
  uint64_t size;
  uint64_t alignment;  // power of two
  rl_buffer_role_t role;
  uint64_t capture_address;  // device address during capture
  bool keep_address;         // replay must place it at capture_address
  uint8_t* initial;          // |size| bytes or NULL (contents not captured)
  // A code object variable (kind "variable", docs/capture-format.md) when
  // |symbol| is non-NULL: the buffer is not an allocation but the bytes
  // [symbol_offset, symbol_offset + size) of variable |symbol| (a
  // `__device__` or `__constant__` global, rl_code_object_variable_t) of
  // code object |code_object|. Every route binds it to where its own load
  // of that code object holds the variable (load base + the variable's
  // image address + symbol_offset), so the kernels that address the
  // variable through the code object and the pointers recorded in
  // kernargs see the same bytes; |initial| is written there like any
  // buffer's. Such a buffer never keeps its address, and the variable's
  // bytes must not be patched by a relocation (their captured value would
  // be an address of the capture's load). Every launch of a kernel of
  // |code_object| is assumed to read and write all of it (hazard.h).
  uint32_t code_object;
  char* symbol;
  uint64_t symbol_offset;
} rl_capture_buffer_t;

// True when |buffer| aliases a code object variable.
static inline bool rl_capture_buffer_is_variable(
    const rl_capture_buffer_t* buffer) {
  return buffer->symbol != NULL;
}

// The layout of an image resource descriptor whose base address a
// descriptor binding patches (docs/capture-format.md, DESCRIPTORS).
typedef enum rl_descriptor_layout_e {
  // The gfx11/gfx12 image descriptor (T#, 8 dwords): BASE_ADDRESS =
  // address[39:8] in dword 0, BASE_ADDRESS_HI = address[47:40] in bits
  // 7:0 of dword 1; the image's address is 256-byte aligned.
  RL_DESCRIPTOR_IMAGE_GFX11 = 0,
  RL_DESCRIPTOR_LAYOUT_COUNT_ = 1,
} rl_descriptor_layout_t;

#define RL_DESCRIPTOR_IMAGE_SIZE 32u   // bytes of a T#
#define RL_DESCRIPTOR_IMAGE_ALIGN 256u // the base address is address >> 8

// A descriptor binding: buffer |buffer| holds, at byte |offset|, an image
// descriptor (|layout|) whose base address is image buffer |image|'s
// address + |image_offset| (a texture object's T#, which a kernel reads
// through its hipTextureObject_t pointer). Every route writes the
// descriptor's address fields for where it placed |image|, after the
// buffer's initial contents (capture_descriptor.c, rl_descriptor_patch);
// the other fields stay the recorded bytes.
typedef struct rl_capture_descriptor_s {
  uint32_t buffer;
  uint64_t offset;
  rl_descriptor_layout_t layout;
  uint32_t image;
  uint64_t image_offset;
} rl_capture_descriptor_t;

typedef struct rl_capture_param_s {
  char* name;
  int64_t min;  // admitted range is [min, max)
  int64_t max;
  int64_t capture_value;  // the value the recorded kernarg bytes hold
} rl_capture_param_t;

typedef struct rl_capture_launch_s {
  uint32_t kernel;
  uint32_t grid[3];   // work-groups per axis
  uint32_t block[3];  // work-items per work-group per axis
  uint32_t dynamic_lds;  // bytes of dynamic group segment
  uint32_t kernarg_size;
  uint8_t* kernarg;   // exact bytes, kernarg_size of them
  uint32_t slot_count;
  rl_pointer_slot_t* slots;  // ordered by kernarg_offset
  uint32_t binding_count;
  rl_scalar_binding_t* bindings;
  // A cooperative launch (hipLaunchCooperativeKernel): its work-groups may
  // wait for each other (grid sync), so a replay must keep all of them
  // resident at once (file section COOPERATIVE, docs/capture-format.md).
  bool cooperative;
} rl_capture_launch_t;

typedef enum rl_region_type_e {
  RL_REGION_BYTES = 0,
  RL_REGION_U32 = 1,
  RL_REGION_I32 = 2,
  RL_REGION_F32 = 3,
  RL_REGION_F16 = 4,
  RL_REGION_BF16 = 5,
  RL_REGION_TYPE_COUNT_ = 6,
} rl_region_type_t;

typedef struct rl_capture_region_s {
  char* name;
  uint32_t buffer;
  uint64_t offset;
  uint64_t size;
  rl_region_type_t type;  // element type, for max-abs-difference reports
} rl_capture_region_t;

// Walks |param| through start, start + stride, ... (|count| values).
typedef struct rl_capture_window_s {
  uint32_t param;
  int64_t start;
  uint32_t count;
  int64_t stride;
} rl_capture_window_t;

// The program's own state after one step, recorded while it ran
// (`redline run --steps K --verify-steps N`, docs/real-engines.md): the
// XXH3-128 of region |region|'s bytes as the program left them when the
// step at position |pos| ended (when the next step started). Not covered
// by the identity: stored in the optional PROGRAM_STATE section
// (capture_file.h), for a shadow to compare against.
typedef struct rl_capture_program_state_s {
  int64_t pos;
  uint32_t region;
  rl_digest128_t digest;
} rl_capture_program_state_t;

// The value parameter |param| had at the step at position |pos| of the
// program's run (a free per-step parameter such as the token), recorded
// with the program state so a replay can feed the program's own values.
// Stored in PROGRAM_STATE too.
typedef struct rl_capture_program_param_s {
  int64_t pos;
  uint32_t param;
  int64_t value;
} rl_capture_program_param_t;

typedef struct rl_capture_s {
  char* workload;  // free-form name of what was captured ("vecchain")
  char* target;    // exact target of all code objects
  uint32_t code_object_count, code_object_capacity;
  rl_capture_code_object_t* code_objects;
  uint32_t kernel_count, kernel_capacity;
  rl_capture_kernel_t* kernels;
  uint32_t buffer_count, buffer_capacity;
  rl_capture_buffer_t* buffers;
  uint32_t param_count, param_capacity;
  rl_capture_param_t* params;
  uint32_t launch_count, launch_capacity;
  rl_capture_launch_t* launches;
  uint32_t region_count, region_capacity;
  rl_capture_region_t* regions;
  uint32_t window_count, window_capacity;
  rl_capture_window_t* windows;
  // Completeness. A capture that missed work the program did (the
  // LD_PRELOAD interposer: a HIP entry point it does not understand, a
  // buffer used after it was freed) is marked incomplete:
  // |bypassed_launches| launches ran without being recorded and
  // |incomplete_reason| says why (NULL when complete). Such a capture is
  // kept for inspection but every replay refuses it
  // (rl_capture_incomplete_status: RL_STATUS_CONTRACT "capture incomplete:
  // REASON", or "N launches bypassed (REASON)"). Stored in the INCOMPLETE
  // section (capture_file.h).
  uint32_t bypassed_launches;
  char* incomplete_reason;
  // |target| typed, taken once from the first code object's parsed fields
  // (rl_code_object_t processor, gfx_major, xnack, sramecc: the features as
  // e_flags says, so UNSUPPORTED where the processor has none) when it sets
  // |target|; all zero (processor "") while the capture has no code object.
  // Read this instead of parsing |target| again.
  rl_target_t typed_target;
  // As-issued arguments (optional, ISSUED section, docs/capture-format.md):
  // per recorded launch, the explicit arguments as the program passed them
  // to the HIP API, kept by the interposer apart from the kernarg the
  // funnel assembled (capture_issued.h). Ascending by launch; may be empty.
  uint32_t issued_count, issued_capacity;
  struct rl_capture_issued_s* issued;
  // The program's state after each recorded step, ordered by (pos, region)
  // strictly increasing (rl_capture_add_program_state).
  uint32_t program_state_count, program_state_capacity;
  rl_capture_program_state_t* program_states;
  // The free parameters' values at those steps, ordered by (pos, param)
  // strictly increasing (rl_capture_add_program_param).
  uint32_t program_param_count, program_param_capacity;
  rl_capture_program_param_t* program_params;
  // Descriptor bindings (DESCRIPTORS section), ordered by (buffer, offset)
  // strictly increasing, none overlapping (rl_capture_add_descriptor).
  uint32_t descriptor_count, descriptor_capacity;
  rl_capture_descriptor_t* descriptors;
} rl_capture_t;

// The processor |capture|'s code objects run on ("gfx1100"), or |fallback|
// when it has no code object yet.
static inline const char* rl_capture_processor_or(const rl_capture_t* capture,
                                                  const char* fallback) {
  return capture->typed_target.processor[0] ? capture->typed_target.processor
                                            : fallback;
}

// Marks |capture| incomplete: adds |bypassed| launches and, when the
// capture has no reason yet, copies |reason| (the first reason is kept).
rl_status_t rl_capture_mark_incomplete(rl_capture_t* capture,
                                       uint32_t bypassed, const char* reason);

// True when |capture| was marked incomplete.
static inline bool rl_capture_incomplete(const rl_capture_t* capture) {
  return capture->bypassed_launches > 0 || capture->incomplete_reason != NULL;
}

// RL_OK when |capture| is complete; otherwise the RL_STATUS_CONTRACT refusal
// replay and shadow give: "capture incomplete: <reason>", with "N launches
// bypassed (<reason>)" when the capture bypassed any (INVALID_ARGUMENT for a
// NULL capture).
rl_status_t rl_capture_incomplete_status(const rl_capture_t* capture);

// The first cooperative launch of |capture|, or UINT32_MAX when none is.
static inline uint32_t rl_capture_first_cooperative(
    const rl_capture_t* capture) {
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    if (capture->launches[l].cooperative) return l;
  }
  return UINT32_MAX;
}

rl_status_t rl_capture_create(const char* workload, rl_capture_t** out_capture);
void rl_capture_destroy(rl_capture_t* capture);

// Copies and parses a code object. All code objects of a capture must have
// the same exact target (the first one sets capture->target).
rl_status_t rl_capture_add_code_object(rl_capture_t* capture, const void* data,
                                       size_t size, uint32_t* out_index);

// Adds the kernel |name| of code object |code_object|. Adding the same
// kernel twice returns the existing index.
rl_status_t rl_capture_add_kernel(rl_capture_t* capture, uint32_t code_object,
                                  const char* name, uint32_t* out_index);

// Copies |buffer| (including |initial| when non-NULL).
rl_status_t rl_capture_add_buffer(rl_capture_t* capture,
                                  const rl_capture_buffer_t* buffer,
                                  uint32_t* out_index);

rl_status_t rl_capture_add_param(rl_capture_t* capture,
                                 const rl_capture_param_t* param,
                                 uint32_t* out_index);

// Deep-copies |launch|. Checks kernel index, kernarg size against the
// kernel's metadata, slots (buffer index, pointer inside the buffer, extent
// inside the buffer, slot inside the kernarg, the kernarg holds exactly
// capture_address + offset) and bindings (param index, target in range,
// expression evaluated at the parameters' capture values equals the recorded
// value).
rl_status_t rl_capture_add_launch(rl_capture_t* capture,
                                  const rl_capture_launch_t* launch,
                                  uint32_t* out_index);

rl_status_t rl_capture_add_region(rl_capture_t* capture,
                                  const rl_capture_region_t* region,
                                  uint32_t* out_index);

rl_status_t rl_capture_add_window(rl_capture_t* capture,
                                  const rl_capture_window_t* window,
                                  uint32_t* out_index);

// Appends one program-state hash: |state|->region must be a region of
// |capture| and (pos, region) must come after the last entry's.
rl_status_t rl_capture_add_program_state(
    rl_capture_t* capture, const rl_capture_program_state_t* state);

// Appends one recorded parameter value: |value|->param must be a parameter
// of |capture| and (pos, param) must come after the last entry's.
rl_status_t rl_capture_add_program_param(
    rl_capture_t* capture, const rl_capture_program_param_t* value);

// Appends descriptor binding |descriptor|: both buffers exist and are no
// code object variables, the descriptor lies inside its buffer, which has
// initial contents, comes after the last one's (buffer, offset) without
// overlapping it, the image address is 256-byte aligned inside the image
// buffer (whose alignment keeps it so), and the recorded descriptor's base
// address equals the image's capture address + |image_offset|.
rl_status_t rl_capture_add_descriptor(rl_capture_t* capture,
                                      const rl_capture_descriptor_t* descriptor);

// True when |launch| reads image buffer |image| through a descriptor: a
// pointer slot of the launch with a read effect is on a buffer holding a
// descriptor binding whose image is |image|. The hazard plan and the
// effects audit count that as a read of the whole image (the sampler may
// read any texel of it).
bool rl_capture_launch_reads_image(const rl_capture_t* capture,
                                   const rl_capture_launch_t* launch,
                                   uint32_t image);

// The bytes [0, 8) of descriptor |index| (its dwords 0 and 1) when its
// image buffer lies at |image_address|: the recorded bytes with the base
// address fields set to |image_address| + image_offset. A route writes
// them at its address of the descriptor's buffer + offset.
rl_status_t rl_descriptor_patch(const rl_capture_t* capture, uint32_t index,
                                uint64_t image_address, uint8_t out_bytes[8]);

// Re-checks every cross-reference and range of the whole model.
rl_status_t rl_capture_validate(const rl_capture_t* capture);

// Evaluates |expr| with parameter values |param_values| (one per parameter).
rl_status_t rl_expr_evaluate(const rl_expr_t* expr, const int64_t* param_values,
                             uint32_t param_count, int64_t* out_value);

// The device address of variable buffer |buffer| when its code object is
// loaded at |load_base|. Fails with RL_STATUS_INVALID_ARGUMENT when the
// buffer is not a variable.
rl_status_t rl_capture_variable_address(const rl_capture_t* capture,
                                        uint32_t buffer, uint64_t load_base,
                                        uint64_t* out_address);

// Index lookups by name; return false when absent.
bool rl_capture_find_param(const rl_capture_t* capture, const char* name,
                           uint32_t* out_index);
bool rl_capture_find_buffer(const rl_capture_t* capture, const char* name,
                            uint32_t* out_index);

// Spellings used by the file format docs, inspect and JSON.
const char* rl_buffer_role_name(rl_buffer_role_t role);
bool rl_buffer_role_parse(const char* name, rl_buffer_role_t* out_role);
const char* rl_effect_source_name(rl_effect_source_t source);
const char* rl_expr_op_name(rl_expr_op_t op);
const char* rl_region_type_name(rl_region_type_t type);
bool rl_region_type_parse(const char* name, rl_region_type_t* out_type);

// Formats |expr| as text such as "pos+1", "(pos+0)/16", "ceil((pos+1)/64)",
// "4096*pos+256".
void rl_expr_format(const rl_capture_t* capture, const rl_expr_t* expr,
                    char* out, size_t out_size);

// The binding of launch |launch| that sets pointer slot |slot|'s offset,
// or NULL when the slot's offset is fixed.
const rl_scalar_binding_t* rl_capture_slot_binding(
    const rl_capture_launch_t* launch, uint32_t slot);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_CAPTURE_H_
