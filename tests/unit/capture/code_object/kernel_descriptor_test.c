// Tests of capture/code_object/kernel_descriptor.c: hand-built descriptors decoded for
// gfx11 and gfx12, one field at a time, plus the byte layout of the struct.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "redline/kernel_descriptor.h"

static rl_kernel_descriptor_info_t decode(const rl_kernel_descriptor_t* kd,
                                          uint32_t gfx_major) {
  rl_kernel_descriptor_info_t info;
  memset(&info, 0xcc, sizeof(info));  // poison: decode must clear everything
  rl_kernel_descriptor_decode(kd, gfx_major, &info);
  return info;
}

static void put_u32(uint8_t* bytes, size_t offset, uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes[offset + i] = (uint8_t)(value >> (8 * i));
}

// Values written at the byte offsets of AMDGPUUsage's descriptor table land
// in the matching struct fields.
static void kernel_descriptor_fields_sit_at_the_amdgpuusage_offsets(void** state) {
  (void)state;
  uint8_t bytes[64] = {0};
  put_u32(bytes, 0, 1024);        // group_segment_fixed_size
  put_u32(bytes, 4, 16);          // private_segment_fixed_size
  put_u32(bytes, 8, 288);         // kernarg_size
  put_u32(bytes, 16, 0xffffff00); // entry offset -256 (low half)
  put_u32(bytes, 20, 0xffffffff); // (high half)
  put_u32(bytes, 44, 0x33);       // rsrc3
  put_u32(bytes, 48, 0x11);       // rsrc1
  put_u32(bytes, 52, 0x22);       // rsrc2
  put_u32(bytes, 56, 0x00450408); // properties 0x0408, preload 0x0045
  rl_kernel_descriptor_t kd;
  memcpy(&kd, bytes, sizeof(kd));
  assert_int_equal(kd.group_segment_fixed_size, 1024);
  assert_int_equal(kd.private_segment_fixed_size, 16);
  assert_int_equal(kd.kernarg_size, 288);
  assert_true(kd.kernel_code_entry_byte_offset == -256);
  assert_int_equal(kd.compute_pgm_rsrc3, 0x33);
  assert_int_equal(kd.compute_pgm_rsrc1, 0x11);
  assert_int_equal(kd.compute_pgm_rsrc2, 0x22);
  assert_int_equal(kd.kernel_code_properties, 0x0408);
  assert_int_equal(kd.kernarg_preload, 0x0045);
}

static void test_zero_descriptor_clears_info(void** state) {
  (void)state;
  rl_kernel_descriptor_t kd = {0};
  rl_kernel_descriptor_info_t info = decode(&kd, 11);
  rl_kernel_descriptor_info_t zero;
  memset(&zero, 0, sizeof(zero));
  assert_memory_equal(&info, &zero, sizeof(info));
}

// rsrc1 = 0x60af0080 is what LLVM emits for a gfx1100 HIP kernel.
static void test_rsrc1_gfx11(void** state) {
  (void)state;
  rl_kernel_descriptor_t kd = {.compute_pgm_rsrc1 = 0x60af0080};
  rl_kernel_descriptor_info_t info = decode(&kd, 11);
  assert_int_equal(info.granulated_workitem_vgpr_count, 0);
  assert_int_equal(info.granulated_wavefront_sgpr_count, 2);
  assert_int_equal(info.float_round_mode_32, 0);
  assert_int_equal(info.float_denorm_mode_32, 3);
  assert_int_equal(info.float_denorm_mode_16_64, 3);
  assert_false(info.priv);
  assert_true(info.enable_dx10_clamp);
  assert_true(info.enable_ieee_mode);
  assert_false(info.enable_wg_rr);
  assert_false(info.disable_perf);
  assert_true(info.workgroup_processor_mode);
  assert_true(info.memory_ordered);
  assert_false(info.forward_progress);
}

// gfx12 reads bits 21 and 23 as WG_RR_EN and DISABLE_PERF.
static void test_rsrc1_gfx12_reuses_bits(void** state) {
  (void)state;
  rl_kernel_descriptor_t kd = {.compute_pgm_rsrc1 = (1u << 21) | (1u << 23)};
  rl_kernel_descriptor_info_t info = decode(&kd, 12);
  assert_true(info.enable_wg_rr);
  assert_true(info.disable_perf);
  assert_false(info.enable_dx10_clamp);
  assert_false(info.enable_ieee_mode);
}

static void kernel_descriptor_decodes_every_rsrc1_field(void** state) {
  (void)state;
  rl_kernel_descriptor_t kd = {
      .compute_pgm_rsrc1 = 0x3fu | (0xfu << 6) | (3u << 10) | (2u << 12) |
                           (1u << 14) | (1u << 20) | (1u << 22) | (1u << 24) |
                           (1u << 25) | (1u << 26) | (1u << 31)};
  rl_kernel_descriptor_info_t info = decode(&kd, 11);
  assert_int_equal(info.granulated_workitem_vgpr_count, 63);
  assert_int_equal(info.granulated_wavefront_sgpr_count, 15);
  assert_int_equal(info.priority, 3);
  assert_int_equal(info.float_round_mode_32, 2);
  assert_int_equal(info.float_round_mode_16_64, 1);
  assert_true(info.priv);
  assert_true(info.debug_mode);
  assert_true(info.bulky);
  assert_true(info.cdbg_user);
  assert_true(info.fp16_overflow);
  assert_true(info.forward_progress);
  assert_false(info.workgroup_processor_mode);
}

// rsrc2 = 0x9e: 15 user SGPRs and the workgroup id X in an SGPR.
static void test_rsrc2_gfx11(void** state) {
  (void)state;
  rl_kernel_descriptor_t kd = {.compute_pgm_rsrc2 = 0x9e};
  rl_kernel_descriptor_info_t info = decode(&kd, 11);
  assert_int_equal(info.user_sgpr_count, 15);
  assert_true(info.enable_sgpr_workgroup_id_x);
  assert_false(info.enable_sgpr_workgroup_id_y);
  assert_false(info.enable_private_segment);
  kd.compute_pgm_rsrc2 = 1u | (31u << 1) | (1u << 6) | (1u << 8) |
                         (1u << 9) | (1u << 10) | (2u << 11) | (1u << 13) |
                         (0x1ffu << 15) | (1u << 26) | (1u << 31);
  info = decode(&kd, 11);
  assert_true(info.enable_private_segment);
  assert_int_equal(info.user_sgpr_count, 31);
  assert_true(info.enable_trap_handler);
  assert_false(info.enable_dynamic_vgpr);
  assert_true(info.enable_sgpr_workgroup_id_y);
  assert_true(info.enable_sgpr_workgroup_id_z);
  assert_true(info.enable_sgpr_workgroup_info);
  assert_int_equal(info.enable_vgpr_workitem_id, 2);
  assert_int_equal(info.granulated_lds_size, 0x1ff);
  assert_int_equal(info.exception_enables, (1u << 13) | (1u << 26));
  assert_false(info.wgp_takeover);  // bit 31 is reserved before gfx12
}

static void test_rsrc2_gfx12(void** state) {
  (void)state;
  rl_kernel_descriptor_t kd = {.compute_pgm_rsrc2 = (1u << 6) | (1u << 31) |
                                                    (2u << 1)};
  rl_kernel_descriptor_info_t info = decode(&kd, 12);
  assert_true(info.enable_dynamic_vgpr);
  assert_false(info.enable_trap_handler);
  assert_true(info.wgp_takeover);
  assert_int_equal(info.user_sgpr_count, 2);
}

static void test_rsrc3_gfx11_and_gfx12(void** state) {
  (void)state;
  rl_kernel_descriptor_t kd = {
      .compute_pgm_rsrc3 = 0xfu | (0x3fu << 4) | (1u << 10) | (1u << 11) |
                           (1u << 31)};
  rl_kernel_descriptor_info_t info = decode(&kd, 11);
  assert_int_equal(info.shared_vgpr_count, 15);
  assert_int_equal(info.inst_pref_size, 0x3f);
  assert_true(info.trap_on_start);
  assert_true(info.trap_on_end);
  assert_true(info.image_op);
  // On gfx12 INST_PREF_SIZE is 8 bits wide (4..11), bits 0..3 are reserved
  // and bit 13 is GLG_EN.
  kd.compute_pgm_rsrc3 = 0xfu | (0xffu << 4) | (1u << 13);
  info = decode(&kd, 12);
  assert_int_equal(info.shared_vgpr_count, 0);
  assert_int_equal(info.inst_pref_size, 0xff);
  assert_false(info.trap_on_start);
  assert_true(info.glg_enable);
  assert_false(info.image_op);
  // gfx9 (gfx90a) RSRC3 is a different register: nothing decoded.
  info = decode(&kd, 9);
  assert_int_equal(info.inst_pref_size, 0);
}

static void test_properties_and_preload(void** state) {
  (void)state;
  rl_kernel_descriptor_t kd = {.kernel_code_properties = 0x0c7f,
                               .kernarg_preload = (uint16_t)(5u | (9u << 7))};
  rl_kernel_descriptor_info_t info = decode(&kd, 11);
  assert_true(info.enable_sgpr_private_segment_buffer);
  assert_true(info.enable_sgpr_dispatch_ptr);
  assert_true(info.enable_sgpr_queue_ptr);
  assert_true(info.enable_sgpr_kernarg_segment_ptr);
  assert_true(info.enable_sgpr_dispatch_id);
  assert_true(info.enable_sgpr_flat_scratch_init);
  assert_true(info.enable_sgpr_private_segment_size);
  assert_true(info.enable_wavefront_size32);
  assert_true(info.uses_dynamic_stack);
  assert_int_equal(info.kernarg_preload_spec_length, 5);
  assert_int_equal(info.kernarg_preload_spec_offset, 9);
  kd.kernel_code_properties = 0x0008;
  info = decode(&kd, 12);
  assert_true(info.enable_sgpr_kernarg_segment_ptr);
  assert_false(info.enable_sgpr_dispatch_ptr);
  assert_false(info.enable_wavefront_size32);
  assert_int_equal(RL_KERNEL_CODE_PROPERTIES_RESERVED_MASK & 0x0c7f, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(kernel_descriptor_fields_sit_at_the_amdgpuusage_offsets),
      cmocka_unit_test(test_zero_descriptor_clears_info),
      cmocka_unit_test(test_rsrc1_gfx11),
      cmocka_unit_test(test_rsrc1_gfx12_reuses_bits),
      cmocka_unit_test(kernel_descriptor_decodes_every_rsrc1_field),
      cmocka_unit_test(test_rsrc2_gfx11),
      cmocka_unit_test(test_rsrc2_gfx12),
      cmocka_unit_test(test_rsrc3_gfx11_and_gfx12),
      cmocka_unit_test(test_properties_and_preload),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
