// Test fixture for sim_interleave_test: two kernels that race when nothing
// orders them. race_store_twice stores 1 and then 2 to every element
// (volatile: two global stores the compiler must keep, in that order, with
// a few volatile reloads between them so the window is some instructions
// wide, as real code between two writes is);
// race_copy copies the elements elsewhere. Run after it, race_copy sees 2;
// run before, 0. Only an interleaving finer than whole work-groups can show
// the 1 between the two stores.
#define RL_RACE_GROUP 64u

extern "C" __attribute__((global))
__attribute__((amdgpu_flat_work_group_size(RL_RACE_GROUP, RL_RACE_GROUP)))
void race_store_twice(volatile unsigned* x, unsigned n) {
  unsigned i = __builtin_amdgcn_workgroup_id_x() * RL_RACE_GROUP +
               __builtin_amdgcn_workitem_id_x();
  if (i < n) {
    x[i] = 1u;
    unsigned seen = 0;
    for (int k = 0; k < 4; ++k) seen += x[i];
    x[i] = 1u + seen / 4u;  // 2: every reload saw the 1
  }
}

extern "C" __attribute__((global))
__attribute__((amdgpu_flat_work_group_size(RL_RACE_GROUP, RL_RACE_GROUP)))
void race_copy(const volatile unsigned* x, unsigned* y, unsigned n) {
  unsigned i = __builtin_amdgcn_workgroup_id_x() * RL_RACE_GROUP +
               __builtin_amdgcn_workitem_id_x();
  if (i < n) y[i] = x[i];
}
