// Test fixture for sim_stop_test: a kernel that spins until its flag is
// nonzero (volatile: one load per iteration the compiler must keep), then
// copies it into flag[1]. With the flag left 0 its work-group never ends.
extern "C" __attribute__((global))
__attribute__((amdgpu_flat_work_group_size(64, 64)))
void spin_until(volatile unsigned* flag) {
  while (flag[0] == 0u) {
  }
  if (__builtin_amdgcn_workitem_id_x() == 0) flag[1] = flag[0];
}
