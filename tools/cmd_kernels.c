// `redline kernels FILE [--json] [--isa]`: what a code object holds, as
// read by redline/code_object.h — the target, then per kernel the
// metadata (kernarg layout, segment sizes, register counts) and the kernel
// descriptor in hex with its decoded highlights. --isa adds, per kernel,
// every instruction the simulator's `isa` executor does not model (LLVM
// mnemonic, encoding, opcode, PC from the kernel's entry), found by the
// same predecode a dispatch does (sim/isa/isa_executor.h); such a
// kernel is refused by the executor before it runs. The exit status is 0
// either way: this is a listing, not a check.
//
// FILE may also be an executable or shared library (its .hip_fatbin
// section) or a clang offload bundle: every AMDGPU code object in it is
// listed, each headed by its bundle entry's triple (JSON: an object
// {"code_objects": [...]} whose items carry "bundle_entry"). A file with
// none fails with exit 3, naming why (redline/offload_bundle.h).
//
// The JSON form keeps the metadata's own spellings (value_kind, access,
// actual_access, address_space) so tests can compare it field by field with
// `llvm-readelf --notes`.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/byte_order.h"
#include "redline/code_object.h"
#include "redline/offload_bundle.h"
#include "sim/isa/isa_executor.h"
#include "tools/cli.h"

static const char* rl_kernels_yes(bool value) { return value ? "yes" : "no"; }

static void rl_kernels_print_header(const char* path,
                                    const rl_code_object_t* co) {
  printf("%s\n", path);
  printf("  target    %s (processor %s, e_flags 0x%x)\n", co->target,
         co->processor, co->e_flags);
  printf("  version   code object v%u (ELF ABI version %u, metadata %u.%u)\n",
         co->code_object_version, co->abi_version, co->metadata_version[0],
         co->metadata_version[1]);
  printf("  features  xnack %s, sramecc %s\n",
         rl_target_feature_name(co->xnack), rl_target_feature_name(co->sramecc));
  printf("  image     0x%" PRIx64 " bytes, align 0x%" PRIx64
         ", %u PT_LOAD segments, %u dynamic relocations\n",
         co->image_size, co->image_align, co->segment_count,
         co->relocation_count);
  for (uint32_t i = 0; i < co->segment_count; ++i) {
    const rl_code_object_segment_t* s = &co->segments[i];
    printf("    segment %u  vaddr 0x%06" PRIx64 "  memsz 0x%06" PRIx64
           "  file 0x%06" PRIx64 "+0x%06" PRIx64 "  %c%c%c\n",
           i, s->virtual_address, s->memory_size, s->file_offset, s->file_size,
           (s->flags & 4) ? 'R' : '-', (s->flags & 2) ? 'W' : '-',
           (s->flags & 1) ? 'X' : '-');  // PF_R, PF_W, PF_X
  }
  printf("  kernels   %u\n", co->kernel_count);
}

static void rl_kernels_print_descriptor(const rl_code_object_kernel_t* k) {
  const rl_kernel_descriptor_t* kd = &k->descriptor;
  const rl_kernel_descriptor_info_t* info = &k->descriptor_info;
  printf("  descriptor  at 0x%" PRIx64 ", entry 0x%" PRIx64 " (offset %" PRId64
         ")\n",
         k->descriptor_address, k->entry_address,
         kd->kernel_code_entry_byte_offset);
  printf("    rsrc1 0x%08x  rsrc2 0x%08x  rsrc3 0x%08x  properties 0x%04x"
         "  kernarg_preload 0x%04x\n",
         kd->compute_pgm_rsrc1, kd->compute_pgm_rsrc2, kd->compute_pgm_rsrc3,
         kd->kernel_code_properties, kd->kernarg_preload);
  printf("    user SGPRs %u, wave32 %s, workgroup id x/y/z %d/%d/%d, "
         "workitem id %s, workgroup info %s\n",
         info->user_sgpr_count, rl_kernels_yes(info->enable_wavefront_size32),
         info->enable_sgpr_workgroup_id_x, info->enable_sgpr_workgroup_id_y,
         info->enable_sgpr_workgroup_id_z,
         info->enable_vgpr_workitem_id == 0   ? "x"
         : info->enable_vgpr_workitem_id == 1 ? "xy" : "xyz",
         rl_kernels_yes(info->enable_sgpr_workgroup_info));
  printf("    kernarg_ptr %s, dispatch_ptr %s, queue_ptr %s, dispatch_id %s, "
         "scratch %s, dynamic stack %s\n",
         rl_kernels_yes(info->enable_sgpr_kernarg_segment_ptr),
         rl_kernels_yes(info->enable_sgpr_dispatch_ptr),
         rl_kernels_yes(info->enable_sgpr_queue_ptr),
         rl_kernels_yes(info->enable_sgpr_dispatch_id),
         rl_kernels_yes(info->enable_private_segment),
         rl_kernels_yes(info->uses_dynamic_stack));
  printf("    granulated vgprs %u, sgprs %u, lds %u, wgp mode %s\n",
         info->granulated_workitem_vgpr_count,
         info->granulated_wavefront_sgpr_count, info->granulated_lds_size,
         rl_kernels_yes(info->workgroup_processor_mode));
}

static const char* rl_kernels_or_dash(const char* text) {
  return text ? text : "-";
}

// Effects matter for pointer arguments only; "unknown" means the compiler
// vouched for nothing, so the capture must assume read-write.
static const char* rl_kernels_effect(const rl_kernel_arg_t* a) {
  if (a->kind != RL_ARG_KIND_GLOBAL_BUFFER &&
      a->kind != RL_ARG_KIND_DYNAMIC_SHARED_POINTER) {
    return "-";
  }
  return a->effect_known ? rl_effect_name(a->effect) : "unknown";
}

static void rl_kernels_print_args(const rl_code_object_kernel_t* k) {
  printf("  args        %u\n", k->arg_count);
  if (k->arg_count == 0) return;
  printf("    %-3s %-6s %-4s %-24s %-8s %-13s %-10s %s\n", "#", "offset",
         "size", "value_kind", "space", "access", "effect", "name");
  for (uint32_t i = 0; i < k->arg_count; ++i) {
    const rl_kernel_arg_t* a = &k->args[i];
    const char* access = a->actual_access ? a->actual_access : a->access;
    printf("    %-3u %-6u %-4u %-24s %-8s %-13s %-10s %s\n", i, a->offset,
           a->size, a->value_kind, rl_kernels_or_dash(a->address_space),
           rl_kernels_or_dash(access), rl_kernels_effect(a),
           rl_kernels_or_dash(a->name));
  }
}

// The host copy of a code object's image the --isa scan reads (base 0).
typedef struct rl_kernels_isa_s {
  const rl_code_object_t* co;
  uint8_t* image;
  cJSON* json;  // the kernel's "isa_unmodelled" array (JSON form)
} rl_kernels_isa_t;

static void rl_kernels_isa_print(void* context, const rl_isa_unmodelled_t* u) {
  rl_kernels_isa_t* isa = context;
  if (isa->json) {
    cJSON* item = cJSON_CreateObject();
    if (!item) return;
    cJSON_AddNumberToObject(item, "pc", u->pc);
    cJSON_AddStringToObject(item, "mnemonic", u->mnemonic);
    cJSON_AddStringToObject(item, "encoding", u->encoding);
    cJSON_AddNumberToObject(item, "opcode", u->opcode);
    cJSON_AddStringToObject(item, "reason", u->reason);
    cJSON_AddItemToArray(isa->json, item);
    return;
  }
  printf("    +0x%04x  %-28s %s opcode 0x%x: %s\n", u->pc, u->mnemonic,
         u->encoding, u->opcode, u->reason);
}

static void rl_kernels_print_isa(rl_kernels_isa_t* isa,
                                 const rl_code_object_kernel_t* k) {
  uint32_t instructions = 0, unmodelled = 0;
  printf("  isa         instructions the isa executor does not model:\n");
  rl_status_t status = rl_isa_scan_kernel(
      isa->co->processor, isa->image, isa->co->image_size, k->entry_address,
      rl_kernels_isa_print, isa, &instructions, &unmodelled);
  if (status) {
    printf("    (not scanned: %s)\n", rl_status_message(status));
    rl_status_free(status);
    return;
  }
  printf("    %u of %u instructions not modelled%s\n", unmodelled,
         instructions, unmodelled ? ": the isa executor refuses this kernel"
                                  : "");
}

static void rl_kernels_print_text(const char* path, const rl_code_object_t* co,
                                  rl_kernels_isa_t* isa) {
  rl_kernels_print_header(path, co);
  for (uint32_t i = 0; i < co->kernel_count; ++i) {
    const rl_code_object_kernel_t* k = &co->kernels[i];
    printf("\nkernel %s (symbol %s)\n", k->name, k->symbol);
    printf("  kernarg     %u bytes, align %u\n", k->kernarg_size,
           k->kernarg_align);
    printf("  segments    group %u bytes, private %u bytes\n",
           k->group_segment_size, k->private_segment_size);
    printf("  registers   wave%u, %u SGPRs, %u VGPRs, max workgroup %u\n",
           k->wavefront_size, k->sgpr_count, k->vgpr_count,
           k->max_flat_workgroup_size);
    rl_kernels_print_descriptor(k);
    rl_kernels_print_args(k);
    if (isa) rl_kernels_print_isa(isa, k);
  }
}

// Adds |text| under |key| when it is not NULL.
static void rl_kernels_json_string(cJSON* object, const char* key,
                                   const char* text) {
  if (text) cJSON_AddStringToObject(object, key, text);
}

static cJSON* rl_kernels_json_arg(const rl_kernel_arg_t* a) {
  cJSON* arg = cJSON_CreateObject();
  if (!arg) return NULL;
  cJSON_AddNumberToObject(arg, "offset", a->offset);
  cJSON_AddNumberToObject(arg, "size", a->size);
  cJSON_AddStringToObject(arg, "value_kind", a->value_kind);
  rl_kernels_json_string(arg, "address_space", a->address_space);
  rl_kernels_json_string(arg, "access", a->access);
  rl_kernels_json_string(arg, "actual_access", a->actual_access);
  rl_kernels_json_string(arg, "name", a->name);
  cJSON_AddStringToObject(arg, "effect", rl_kernels_effect(a));
  return arg;
}

static cJSON* rl_kernels_json_descriptor(const rl_code_object_kernel_t* k) {
  const rl_kernel_descriptor_t* kd = &k->descriptor;
  cJSON* d = cJSON_CreateObject();
  if (!d) return NULL;
  cJSON_AddNumberToObject(d, "compute_pgm_rsrc1", kd->compute_pgm_rsrc1);
  cJSON_AddNumberToObject(d, "compute_pgm_rsrc2", kd->compute_pgm_rsrc2);
  cJSON_AddNumberToObject(d, "compute_pgm_rsrc3", kd->compute_pgm_rsrc3);
  cJSON_AddNumberToObject(d, "kernel_code_properties",
                          kd->kernel_code_properties);
  cJSON_AddNumberToObject(d, "kernarg_preload", kd->kernarg_preload);
  cJSON_AddNumberToObject(d, "kernel_code_entry_byte_offset",
                          (double)kd->kernel_code_entry_byte_offset);
  cJSON_AddNumberToObject(d, "user_sgpr_count",
                          k->descriptor_info.user_sgpr_count);
  cJSON_AddBoolToObject(d, "wave32", k->descriptor_info.enable_wavefront_size32);
  return d;
}

static void rl_kernels_json_isa(cJSON* kernel, rl_kernels_isa_t* isa,
                                const rl_code_object_kernel_t* k) {
  cJSON* isa_object = cJSON_AddObjectToObject(kernel, "isa");
  if (!isa_object) return;
  isa->json = cJSON_AddArrayToObject(isa_object, "unmodelled");
  if (!isa->json) return;
  uint32_t instructions = 0, unmodelled = 0;
  rl_status_t status = rl_isa_scan_kernel(
      isa->co->processor, isa->image, isa->co->image_size, k->entry_address,
      rl_kernels_isa_print, isa, &instructions, &unmodelled);
  if (status) {
    cJSON_AddStringToObject(isa_object, "error", rl_status_message(status));
    rl_status_free(status);
  }
  cJSON_AddNumberToObject(isa_object, "instructions", instructions);
  isa->json = NULL;
}

static cJSON* rl_kernels_json_kernel(const rl_code_object_kernel_t* k,
                                     rl_kernels_isa_t* isa) {
  cJSON* kernel = cJSON_CreateObject();
  if (!kernel) return NULL;
  cJSON_AddStringToObject(kernel, "name", k->name);
  cJSON_AddStringToObject(kernel, "symbol", k->symbol);
  cJSON_AddNumberToObject(kernel, "kernarg_size", k->kernarg_size);
  cJSON_AddNumberToObject(kernel, "kernarg_align", k->kernarg_align);
  cJSON_AddNumberToObject(kernel, "group_segment_size", k->group_segment_size);
  cJSON_AddNumberToObject(kernel, "private_segment_size",
                          k->private_segment_size);
  cJSON_AddNumberToObject(kernel, "wavefront_size", k->wavefront_size);
  cJSON_AddNumberToObject(kernel, "sgpr_count", k->sgpr_count);
  cJSON_AddNumberToObject(kernel, "vgpr_count", k->vgpr_count);
  cJSON_AddNumberToObject(kernel, "max_flat_workgroup_size",
                          k->max_flat_workgroup_size);
  cJSON_AddNumberToObject(kernel, "descriptor_address",
                          (double)k->descriptor_address);
  cJSON_AddNumberToObject(kernel, "entry_address", (double)k->entry_address);
  cJSON* args = cJSON_AddArrayToObject(kernel, "args");
  for (uint32_t i = 0; args && i < k->arg_count; ++i) {
    cJSON_AddItemToArray(args, rl_kernels_json_arg(&k->args[i]));
  }
  cJSON_AddItemToObject(kernel, "descriptor", rl_kernels_json_descriptor(k));
  if (isa) rl_kernels_json_isa(kernel, isa, k);
  return kernel;
}

static cJSON* rl_kernels_json(const rl_code_object_t* co,
                              rl_kernels_isa_t* isa) {
  cJSON* root = cJSON_CreateObject();
  if (!root) return NULL;
  cJSON_AddStringToObject(root, "target", co->target);
  cJSON_AddStringToObject(root, "processor", co->processor);
  cJSON_AddNumberToObject(root, "code_object_version", co->code_object_version);
  cJSON_AddStringToObject(root, "xnack", rl_target_feature_name(co->xnack));
  cJSON_AddStringToObject(root, "sramecc", rl_target_feature_name(co->sramecc));
  cJSON_AddNumberToObject(root, "image_size", (double)co->image_size);
  cJSON* kernels = cJSON_AddArrayToObject(root, "kernels");
  for (uint32_t i = 0; kernels && i < co->kernel_count; ++i) {
    cJSON_AddItemToArray(kernels,
                         rl_kernels_json_kernel(&co->kernels[i], isa));
  }
  return root;
}

// Lays out the image of |co| (parsed from |data|) for the --isa scan.
static rl_status_t rl_kernels_isa_init(const rl_code_object_t* co,
                                       const uint8_t* data, size_t size,
                                       rl_kernels_isa_t* out_isa) {
  out_isa->co = co;
  out_isa->json = NULL;
  out_isa->image = calloc(1, co->image_size ? co->image_size : 1);
  if (!out_isa->image) return rl_status_out_of_memory();
  return rl_code_object_load_image(co, data, size, 0, out_isa->image,
                                   (size_t)co->image_size);
}

// Lists one code object (|data|, |size|) under |label|; for a file of
// several, |triple| names its bundle entry and |json_array| collects the
// JSON forms. Returns an exit code.
static int rl_kernels_one(const char* label, const char* triple,
                          const uint8_t* data, size_t size, bool json,
                          bool isa_scan, cJSON* json_array) {
  rl_code_object_t* co = NULL;
  rl_status_t status = rl_code_object_parse(data, size, &co);
  if (status) return rl_cli_fail(status, label);
  rl_kernels_isa_t isa = {0};
  if (isa_scan) status = rl_kernels_isa_init(co, data, size, &isa);
  int exit_code = RL_EXIT_OK;
  if (status) {
    exit_code = rl_cli_fail(status, label);
  } else if (json && json_array) {
    cJSON* object = rl_kernels_json(co, isa_scan ? &isa : NULL);
    if (object) cJSON_AddStringToObject(object, "bundle_entry", triple);
    cJSON_AddItemToArray(json_array, object);
  } else if (json) {
    exit_code = rl_cli_print_json(rl_kernels_json(co, isa_scan ? &isa : NULL));
  } else {
    if (triple) printf("\n== code object %s\n", triple);
    rl_kernels_print_text(label, co, isa_scan ? &isa : NULL);
  }
  free(isa.image);
  rl_code_object_destroy(co);
  return exit_code;
}

// The code objects of an executable, shared library or bundle, collected
// by rl_offload_bundle_list.
typedef struct rl_kernels_entries_s {
  rl_offload_entry_t* items;
  uint32_t count, capacity;
  bool out_of_memory;
} rl_kernels_entries_t;

static void rl_kernels_collect(void* context, const rl_offload_entry_t* entry) {
  rl_kernels_entries_t* entries = context;
  if (entries->count == entries->capacity) {
    uint32_t capacity = entries->capacity ? entries->capacity * 2 : 8;
    void* grown = realloc(entries->items, capacity * sizeof(*entries->items));
    if (!grown) {
      entries->out_of_memory = true;
      return;
    }
    entries->items = grown;
    entries->capacity = capacity;
  }
  entries->items[entries->count++] = *entry;
}

// Every code object embedded in the host ELF or bundle |data|, each with
// its bundle entry's triple as the target line says.
static int rl_kernels_embedded(const char* path, const uint8_t* data,
                               size_t size, bool json, bool isa_scan) {
  rl_kernels_entries_t entries = {0};
  uint32_t count = 0;
  rl_status_t status = rl_offload_bundle_list(data, size, rl_kernels_collect,
                                              &entries, &count);
  if (!status && entries.out_of_memory) status = rl_status_out_of_memory();
  if (status) {
    free(entries.items);
    return rl_cli_fail(status, path);
  }
  cJSON* root = json ? cJSON_CreateObject() : NULL;
  cJSON* array = root ? cJSON_AddArrayToObject(root, "code_objects") : NULL;
  if (!json) {
    printf("%s: %u embedded code object%s\n", path, entries.count,
           entries.count == 1 ? "" : "s");
  }
  int exit_code = RL_EXIT_OK;
  for (uint32_t i = 0; i < entries.count; ++i) {
    const rl_offload_entry_t* e = &entries.items[i];
    char triple[256], label[512];
    snprintf(triple, sizeof(triple), "%.*s", (int)e->triple_length, e->triple);
    snprintf(label, sizeof(label), "%s: bundle %u entry %u (%s)", path,
             e->bundle, e->index, triple);
    int code = rl_kernels_one(label, triple, e->code, (size_t)e->size, json,
                              isa_scan, array);
    if (code != RL_EXIT_OK && exit_code == RL_EXIT_OK) exit_code = code;
  }
  free(entries.items);
  if (json) {
    int code = rl_cli_print_json(root);
    if (exit_code == RL_EXIT_OK) exit_code = code;
  }
  return exit_code;
}

// True when |data| is an AMDGPU ELF (e_machine EM_AMDGPU, 224): one code
// object, read directly.
static bool rl_kernels_is_code_object(const uint8_t* data, size_t size) {
  return size >= 20 && memcmp(data, "\x7f" "ELF", 4) == 0 &&
         rl_load_le16(data + 18) == 224;
}

int rl_cmd_kernels(int argc, char** argv) {
  const char* path = NULL;
  bool json = false, isa_scan = false;
  for (int i = 1; i < argc; ++i) {
    if (rl_cli_is(argv[i], "--json")) {
      json = true;
    } else if (rl_cli_is(argv[i], "--isa")) {
      isa_scan = true;
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      return rl_cli_usage("kernels: unknown option '%s'", argv[i]);
    } else if (path) {
      return rl_cli_usage("kernels: more than one FILE given");
    } else {
      path = argv[i];
    }
  }
  if (!path) return rl_cli_usage("kernels: missing FILE");
  uint8_t* data = NULL;
  size_t size = 0;
  rl_status_t status = rl_cli_read_file(path, &data, &size);
  if (status) return rl_cli_fail(status, "kernels");  // names the path
  int exit_code =
      rl_kernels_is_code_object(data, size)
          ? rl_kernels_one(path, NULL, data, size, json, isa_scan, NULL)
          : rl_kernels_embedded(path, data, size, json, isa_scan);
  free(data);
  return exit_code;
}
