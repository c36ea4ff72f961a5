// Test fixture for code_object_test: a code object with a dynamic
// relocation. A pointer-valued device global initialised to the address of
// another global cannot be resolved at link time (the load address is
// unknown), so ld.lld emits an R_AMDGPU_RELATIVE64 in .rela.dyn.
__attribute__((device)) float rl_reloc_data[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__attribute__((device)) float* rl_reloc_ptr = &rl_reloc_data[2];

extern "C" __attribute__((global)) void rl_reloc_read(float* out) {
  out[0] = *rl_reloc_ptr;
}
