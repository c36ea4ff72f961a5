// sim/sim_math.h — the simulated GPU's float model: the one model
// of the gfx11/gfx12 transcendental instructions that every executor (the
// ISA interpreter in sim/isa/ and the C references in kernels/ref/)
// shares. It lives in the simulator because it defines the simulated
// device's answer; the reference kernels depend on it, not the reverse.
//
// The kernels in kernels/*.hip have no device libraries, so their
// transcendentals are the hardware instructions, reached through amdgcn
// builtins:
//   __builtin_amdgcn_exp2f  v_exp_f32  (gfx12 also v_s_exp_f32)  2^x
//   __builtin_amdgcn_logf   v_log_f32  (gfx12 also v_s_log_f32)  log2 x
//   __builtin_amdgcn_rcpf   v_rcp_f32  (gfx12 also v_s_rcp_f32)  1 / x
//   __builtin_amdgcn_rsqf   v_rsq_f32  (gfx12 also v_s_rsq_f32)  1 / sqrt x
//   __builtin_amdgcn_sqrtf  v_sqrt_f32 (gfx12 also v_s_sqrt_f32) sqrt x
// (gfx12 picks the v_s_* forms, which write an SGPR, for uniform values;
// they compute the same function.)
//
// The hardware results are approximations: AMD documents about 1 ulp of
// error and does not specify the bits, so no C function reproduces them.
// Every executor (the `ref` C references and the gfx11 ISA interpreter)
// therefore uses the functions below, which define the simulated GPU's
// answer: the exact value computed in double precision and rounded once to
// binary32 (round to nearest even). Versus real hardware a result may differ
// by about 1 ulp; versus each other, the executors agree bit for bit.
// Tests that compare a simulated run with a double-precision computation
// must allow that ulp; tests that compare two executors must not.
//
// Denormals. The instructions do not produce or consume binary32
// denormals even when the wave's denorm mode keeps them (this is why the
// device libraries and LLVM's own lowering of exp2/log2/rcp/rsq/sqrt scale
// inputs into the normal range). The model: a denormal input is read as a
// zero of the same sign, and a denormal result is flushed to a zero of the
// same sign. Special values follow IEEE: 2^-inf = +0, 2^+inf = +inf,
// log2(+0) = -inf, log2(x < 0) = NaN, rcp(+-0) = +-inf, rsq(+0) = +inf,
// rsq(x < 0) = NaN, NaN in gives NaN out (the payload is not modelled).
//
// Exactness of the double evaluation: exp2, log2 and sqrt of a binary32 in
// glibc's double are correctly rounded or within 1 double ulp, and 1 / x
// and 1 / sqrt x are at most two double roundings; the final rounding to
// binary32 absorbs that except in cases within 2^-29 of a binary32 tie,
// which none of the shipped workloads rely on.
//
// Thread-safety: pure functions.
#ifndef REDLINE_SIM_SIM_MATH_H_
#define REDLINE_SIM_SIM_MATH_H_

#include <float.h>
#include <math.h>

#ifdef __cplusplus
extern "C" {
#endif

// |x| with a denormal replaced by a zero of the same sign.
static inline float rl_sim_math_flush_denormal(float x) {
  return fabsf(x) < FLT_MIN ? copysignf(0.0f, x) : x;
}

// |value| rounded once to binary32, with a denormal result flushed.
static inline float rl_sim_math_round_flush(double value) {
  return rl_sim_math_flush_denormal((float)value);
}

// v_exp_f32: 2^|x|.
static inline float rl_sim_math_exp2f(float x) {
  return rl_sim_math_round_flush(exp2((double)rl_sim_math_flush_denormal(x)));
}

// v_log_f32: log2 |x|.
static inline float rl_sim_math_log2f(float x) {
  return rl_sim_math_round_flush(log2((double)rl_sim_math_flush_denormal(x)));
}

// v_rcp_f32: 1 / |x|.
static inline float rl_sim_math_rcpf(float x) {
  return rl_sim_math_round_flush(1.0 / (double)rl_sim_math_flush_denormal(x));
}

// v_rsq_f32: 1 / sqrt |x|.
static inline float rl_sim_math_rsqf(float x) {
  return rl_sim_math_round_flush(1.0 / sqrt((double)rl_sim_math_flush_denormal(x)));
}

// v_sqrt_f32: sqrt |x|.
static inline float rl_sim_math_sqrtf(float x) {
  return rl_sim_math_round_flush(sqrt((double)rl_sim_math_flush_denormal(x)));
}

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_SIM_SIM_MATH_H_
