#!/usr/bin/env bash
# tools/shadow_mutations.sh — the mutation proof of `redline shadow`.
#
# Every row makes one named mistake in the engine through the test-only
# switch REDLINE_TEST_FAULT (base/test_fault.h: compiled into every
# build, off unless set) and runs the default `redline shadow` (arms eager,
# recorded, aql, pm4, pm4-relay, and the three retained routes again under
# two seeded adversarial interleavings; the capture's own window) on a fresh capture, with the
# row's extra options when it has them. A row expected to "fail" must make the shadow exit non-zero;
# the script reports which check caught it, the exit code and the first
# line of the verdict. A row expected to be "equivalent" is a mutation that
# cannot change what runs on that workload: the script proves it by showing
# that the lowered AQL and PM4 streams (`redline lower`) are byte-identical
# to the unmutated ones, and that the shadow passes. The negative control
# (no fault) must pass.
#
# Prints a markdown table (docs/shadow-mutations.md holds a copy); exits 1
# when a "fail" mutation passes, an "equivalent" one changes a stream, or
# the negative control fails.
#
# Code rows ("code:ID" instead of a fault) are mistakes no switch can make:
# a perl substitution against one specific line of a scratch copy of the
# source tree (as tools/mutate.sh does), which is built once (target
# redline) and rebuilt after each substitution; the mutated binary then
# runs the default shadow on a capture the unmutated binary made. A
# substitution that no longer applies, or a build that fails, violates the
# row. These are the executor mistakes the second executor (eager@isa,
# shadow/shadow.h) exists for: every arm but that one runs the C reference
# kernels, so the mutated ISA executor disagrees with them.
#
# Usage: tools/shadow_mutations.sh [REDLINE] [WORKDIR] [TARGET] [CODE]
#   REDLINE  the redline binary (default build/tools/redline)
#   WORKDIR  scratch directory for the captures (default: a temporary one)
#   TARGET   the processor the captures are made for: gfx1100 (default),
#            gfx1151 or gfx1201
#   CODE     the code rows to run: all (default), none, a comma list of
#            their ids, or only:ID,ID... (those code rows and the negative
#            control, no fault row: the ctest shadow_mutations_code)
#
# Rows whose workload is "hip:NAME" run on a capture of the HIP corpus
# program NAME (tests/hip_corpus/NAME.hip, built for TARGET under
# $REDLINE_HIP_CORPUS, default build/tests/hip_corpus) made with `redline
# run --capture`: kernels without C references, where every arm runs the
# isa executor and the independent reference is the oracle executor
# (sim/oracle/oracle.h) on a sample of the work-groups.
#
# A row expected to "escape" is a known gap: a mistake in code the
# workload's kernels never execute (the second executor compares only what
# runs), so the default shadow passes; the row must pass, so a change that
# starts catching it is noticed and the row updated.
# REDLINE_KERNELS_DIR must name the code objects when the binary does not
# find them by itself (as for `redline capture`).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REDLINE="${1:-$ROOT/build/tools/redline}"
WORK="${2:-}"
TARGET="${3:-gfx1100}"
CODE="${4:-all}"
if [[ -z "$WORK" ]]; then
  WORK="$(mktemp -d)"
  trap 'rm -rf "$WORK"' EXIT
fi
mkdir -p "$WORK"
unset REDLINE_TEST_FAULT

# workload | REDLINE_TEST_FAULT | expectation | what the mistake is [| extra
# shadow options]
MUTATIONS=(
  "decode||pass|negative control: no fault"
  "decode|drop-barrier:1|fail|AQL lowering: no barrier bit on packet 1"
  "decode|drop-barrier:1,no-census|fail|... with the census off: reaches the device"
  "decode|drop-wait:1|fail|PM4 lowering: no CS_PARTIAL_FLUSH + ACQUIRE_MEM before launch 1"
  "decode|drop-wait:1,no-census|fail|... with the census off"
  "decode|drop-acquire:1|fail|PM4 lowering: the wait before launch 1 has no ACQUIRE_MEM"
  "decode|drop-acquire:1,no-census|fail|... with the census off"
  "decode|miss-raw|fail|hazard analysis misses every RAW"
  "decode|miss-raw:20|fail|hazard analysis misses the RAW before launch 20"
  "decode|miss-war|equivalent|hazard analysis misses every WAR"
  "decode|miss-waw|equivalent|hazard analysis misses every WAW"
  "vecchain|miss-war|fail|hazard analysis misses every WAR"
  "vecchain|miss-waw|equivalent|hazard analysis misses every WAW"
  "decode|patch-off:3|fail|scalar patch of launch 3 (pos) written 4 bytes off"
  "decode|patch-skip:3|fail|scalar patch of launch 3 (pos) skipped"
  "decode|patch-skip:6|fail|scalar patch of launch 6 (chunk count) skipped"
  "decode|grid-skip:5|fail|grid patch of launch 5 (attention chunks) skipped"
  "decode|bind-stale:3|fail|binding of launch 3 evaluated at the capture's pos (every route agrees)"
  "decode|bind-stale:6|fail|binding of launch 6 evaluated at the capture's pos"
  "decode|nop-acquire:1|fail|route pm4, after the census: the ACQUIRE_MEM before launch 1 is a NOP"
  "decode|weaken-gcr|fail|route pm4, after the census: every ACQUIRE_MEM loses GLV_INV (GCR bits weakened)"
  "decode|narrow-acquire:1|fail|route aql, after the census: packet 1's acquire fence scope narrowed to NONE"
  "decode|narrow-release|fail|route aql, after the census: SYSTEM release scopes narrowed to AGENT (no L2 write-back for the host)"
  "decode|nop-copy:1|fail|route pm4 relay, after the census: the second COPY_DATA is a NOP (a launch keeps the previous step's value)"
  "decode|nop-copy|fail|... every relay copy a NOP, re-recording off: only the bytes|--arms eager,pm4-relay"
  "decode|retain-any-value|fail|PM4 lowering: register retention ignores the value (a held register is never rewritten)"
  "decode|retain-any-value,no-census|fail|... with the census off: the stale registers reach the device"
  "decode|effect-shift|fail|declared effects: each pointer slot has its neighbour's effect (as a mistaken interposer records them)"
  "decode|extent-shrink:1|fail|declared effects: every slot extent of launch 1 is 4 bytes short"
  "decode|drop-barrier:1,no-census|fail|no barrier bit, census and hazard checker off: only the bytes of the seeded interleavings|--no-hazard-check"
  "decode|drop-wait:1,no-census|fail|no wait, census and hazard checker off|--no-hazard-check"
  "decode|miss-raw|fail|every RAW missed, hazard checker off|--no-hazard-check"
  "decode|nop-acquire|fail|every ACQUIRE_MEM a NOP, hazard checker off: only the strict cache model|--no-hazard-check"
  "decode|weaken-gcr|fail|GLV_INV cleared, hazard checker off: only the strict cache model|--no-hazard-check"
  "decode|code:vop2_add_sub|fail|ISA executor: v_add_f32 computes a - b (VOP2, VOPD and VOP3: one semantic function)"
  "decode|code:vop3_mul_as_add|fail|ISA decoder: v_mul_f32 in the VOP3 encoding decodes as v_add_f32 (VOP2 right)"
  "decode|code:fmac_unfused|fail|ISA executor: v_fmac_f32 / v_fmaak_f32 / v_dual_fmac_f32 round twice (unfused)"
  "decode|code:cndmask_high_half_inverted|fail|ISA executor: v_cndmask_b32 uses the inverted mask in lanes 16-31"
  "decode|code:workgroup_id_y_zero|fail|ISA executor: the work-group id Y SGPR is always 0 (grid Y ignored by the kernel)"
  "vecchain|code:vop2_add_sub|fail|ISA executor: v_add_f32 computes a - b"
  "hip:oracle_probe||pass|negative control: the HIP probe under the oracle executor, no mutation"
  "hip:oracle_probe|code:vop3_add_sub|fail|ISA decoder: v_add_f32 in the VOP3 encoding decodes as v_sub_f32 (a HIP program's a + fabsf(b))"
  "hip:oracle_probe|code:vop2_add_sub|fail|ISA executor: v_add_f32 computes a - b (a HIP program)"
  "hip:oracle_probe|code:fma3_unfused|fail|ISA executor: VOP3 v_fma_f32 rounds twice (a HIP program's fmaf(a, -b, fabsf(s)))"
  "hip:oracle_probe|code:global_offset_unsigned|fail|ISA decoder: the 13-bit global offset is not sign-extended (a HIP program's a[i - 1])"
  "hip:oracle_probe|code:bpermute_bytes_as_lanes|fail|ISA executor: ds_bpermute indexes lanes by the byte address (a HIP program's __shfl)"
  "hip:oracle_probe|code:cndmask_high_half_inverted|fail|ISA executor: v_cndmask_b32 uses the inverted mask in lanes 16-31 (a HIP program's select)"
  "hip:oracle_probe|code:workgroup_id_y_zero|fail|ISA executor: the work-group id Y SGPR is always 0 (a HIP program's 2-D grid)"
  "hip:oracle_reach||pass|negative control: the HIP reach program under the oracle executor, no mutation"
  "hip:oracle_reach|code:min_i32_unsigned|fail|ISA executor: v_min_i32 compares unsigned (outside mutation F02; a HIP program's min of both signs)"
  "hip:oracle_reach|code:subrev_f32_forward|fail|ISA executor: v_subrev_f32 computes a - b (outside mutation F03; a HIP program's a[i] - c)"
  "hip:oracle_reach|code:addc_no_carry|fail|ISA executor: s_addc_u32 ignores SCC as carry-in (outside mutation F04; a uniform 64-bit add that carries)"
  "hip:oracle_reach|code:global_sgpr_offset_dropped|fail|ISA executor: GLOBAL with an SGPR base ignores the immediate offset (outside mutation F05; a store at a uniform address + 24)"
  "hip:oracle_reach|code:readfirstlane_clz|fail|ISA executor: v_readfirstlane_b32 picks the lane by clz, not ctz (outside mutation F08; a readfirstlane with lanes 0-4 inactive)"
  "vecchain|code:hazard_war_ignored|fail|hazard classifier: write-after-read is no conflict (outside mutation F11; vecchain's vc_fill rewrites what vc_merge read)"
  "decode|code:vop3_add_sub|escape|ISA decoder: v_add_f32 in the VOP3 encoding decodes as v_sub_f32 (no workload kernel has a VOP3 v_add_f32)"
  "decode|code:fma3_unfused|escape|ISA executor: VOP3 v_fma_f32 rounds twice (no workload kernel has a VOP3 v_fma_f32)"
  "decode|code:global_offset_unsigned|escape|ISA decoder: the 13-bit global/scratch offset is not sign-extended (no workload kernel has a negative offset)"
  "decode|code:bpermute_bytes_as_lanes|escape|ISA executor: ds_bpermute/ds_permute index lanes by the byte address (no workload kernel permutes)"
  "vecchain|code:fmac_unfused|escape|ISA executor: v_fmac_f32 unfused (vecchain's one v_fmac_f32 rounds the same either way on its data)"
)

# Code rows' substitutions: id | file | perl substitution (perl -0pi).
CODE_PATCHES=(
  "vop2_add_sub|sim/isa/isa_vop.c|s/RL_ISA_F32\(rl_isa_v_add_f32, a \+ b\)/RL_ISA_F32(rl_isa_v_add_f32, a - b)/"
  "vop3_mul_as_add|sim/isa/isa_decode_vector.c|s/op = rl_isa_table_find_for\(&rl_isa_table_vop2, opcode - 0x100, features\);/op = rl_isa_table_find_for(\&rl_isa_table_vop2, opcode == 0x108 ? 0x03 : opcode - 0x100, features);/"
  "vop3_add_sub|sim/isa/isa_decode_vector.c|s/op = rl_isa_table_find_for\(&rl_isa_table_vop2, opcode - 0x100, features\);/op = rl_isa_table_find_for(\&rl_isa_table_vop2, opcode == 0x103 ? 0x04 : opcode - 0x100, features);/"
  "fmac_unfused|sim/isa/isa_vop.c|s/RL_ISA_F32_FMA\(rl_isa_v_fma_f32, fmaf\(a, b, c\)\)/RL_ISA_F32_FMA(rl_isa_v_fma_f32, a * b + c)/"
  "fma3_unfused|sim/isa/isa_vop3.c|s/RL_ISA_F32_FMA\(rl_isa_v_fma_f32_3, fmaf\(a, b, c\)\)/RL_ISA_F32_FMA(rl_isa_v_fma_f32_3, a * b + c)/"
  "global_offset_unsigned|sim/isa/isa_decode_memory.c|s/inst->offset = \(\(int32_t\)\(w\[0\] << 19\)\) >> 19;/inst->offset = (int32_t)(w[0] \& 0x1fff);/"
  "bpermute_bytes_as_lanes|sim/isa/isa_permute.c|s/uint32_t lane = \(\(addr\[i\] \+ offset\) \/ 4\) % RL_ISA_LANES;/uint32_t lane = (addr[i] + offset) % RL_ISA_LANES;/"
  "cndmask_high_half_inverted|sim/isa/isa_vop.c|s/RL_ISA_U32\(rl_isa_v_cndmask, \(\(mask >> l\) & 1\) \? b : a\)/RL_ISA_U32(rl_isa_v_cndmask, (((mask >> l) \& 1) ^ (l >= 16)) ? b : a)/"
  "min_i32_unsigned|sim/isa/isa_vop.c|s/RL_ISA_U32\(rl_isa_v_min_i32, \(int32_t\)a < \(int32_t\)b \? a : b\)/RL_ISA_U32(rl_isa_v_min_i32, a < b ? a : b)/"
  "subrev_f32_forward|sim/isa/isa_vop.c|s/RL_ISA_F32\(rl_isa_v_subrev_f32, b - a\)/RL_ISA_F32(rl_isa_v_subrev_f32, a - b)/"
  "global_sgpr_offset_dropped|sim/isa/isa_mem.c|s/out_address\[l\] = base \+ wave->vgpr\[inst->addr\]\[l\] \+ \(uint64_t\)offset;/out_address[l] = base + wave->vgpr[inst->addr][l];/"
  "readfirstlane_clz|sim/isa/isa_valu.c|s/uint32_t lane = exec \? \(uint32_t\)__builtin_ctz\(exec\) : 0;/uint32_t lane = exec ? (uint32_t)__builtin_clz(exec) : 0;/"
  "hazard_war_ignored|capture/hazard/hazard.c|s/if \(rl_hazard_reads\(earlier\) && rl_hazard_writes\(later\)\) return RL_HAZARD_WAR;/if (rl_hazard_reads(earlier) && rl_hazard_writes(later)) return RL_HAZARD_NONE;/"
  "addc_no_carry|sim/isa/isa_salu.c|s/uint64_t r = \(uint64_t\)A32 \+ B32V \+ s->scc;/uint64_t r = (uint64_t)A32 + B32V;/"
  "workgroup_id_y_zero|sim/isa/isa_executor.c|s/if \(d->workgroup_id\[axis\]\) wave->sgpr\[next\+\+\] = wg->group_id\[axis\];/if (d->workgroup_id[axis]) wave->sgpr[next++] = axis == 1 ? 0 : wg->group_id[axis];/"
)

HIP_CORPUS="${REDLINE_HIP_CORPUS:-$(dirname "$REDLINE")/../tests/hip_corpus}"
capture() {  # capture WORKLOAD (a sample workload, or hip:NAME)
  local file="$WORK/${1#hip:}.rlc"
  if [[ ! -f "$file" && "$1" == hip:* ]]; then
    "$REDLINE" run --processor "$TARGET" --capture "$file" -- \
      "$HIP_CORPUS/$TARGET/${1#hip:}" >/dev/null 2>&1 || rm -f "$file"
  fi
  [[ -f "$file" ]] ||
    "$REDLINE" capture --workload "$1" --target "$TARGET" -o "$file" 2>/dev/null
  echo "$file"
}

# The check a FAIL verdict names.
classify() {
  case "$1" in
    *"hazard in"*) echo "dynamic hazard checker (${2:-?})" ;;
    *"effects audit"*) echo "effects audit (${2:-?})" ;;
    *"dispatch audit"*) echo "dispatch audit (${2:-?})" ;;
    *"AQL census"*) echo "AQL census (prepare)" ;;
    *"PM4 census"*) echo "PM4 census (prepare)" ;;
    *"dispatched launch"*|*"dispatched "*" kernels"*)
      echo "re-record: what ${2:-?} dispatched" ;;
    *"re-recorded"*) echo "re-record: the capture's bindings" ;;
    *"oracle executor"*) echo "oracle executor (${2:-?})" ;;
    *"differs in arm"*) echo "region comparison (${2:-?})" ;;
    *"cache model"*|*"stale"*) echo "cache model (${2:-?})" ;;
    *"not available"*|*"faulted"*) echo "device or prepare (${2:-?})" ;;
    PASS*) echo "none" ;;
    *) echo "other" ;;
  esac
}

# Digest of the lowered AQL and PM4 streams of FILE under fault $2.
streams() {
  { REDLINE_TEST_FAULT="$2" "$REDLINE" lower "$1" --route aql
    REDLINE_TEST_FAULT="$2" "$REDLINE" lower "$1" --route pm4; } 2>&1 |
    md5sum | cut -c1-12
}

# The code rows' scratch tree, copied and built on first use.
SCRATCH=""
code_selected() {  # code_selected ID
  [[ "$CODE" == all || ",${CODE#only:}," == *",$1,"* ]]
}
# ccache (when the build uses it) rewrites paths relative to the scratch
# tree, so the scratch build hits the objects of a build laid out alike.
code_build() {  # code_build: (re)builds the scratch redline
  CCACHE_BASEDIR="$SCRATCH" cmake --build "$SCRATCH/build" -j2 --target redline \
    >"$SCRATCH/build.log" 2>&1
}
code_setup() {
  [[ -n "$SCRATCH" ]] && return 0
  SCRATCH="$WORK/scratch"
  rm -rf "$SCRATCH"
  mkdir -p "$SCRATCH"
  echo "code rows: copying the source tree to $SCRATCH and building redline" >&2
  (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard |
     grep -zv '^build' | xargs -0 cp --parents -t "$SCRATCH")
  local launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache)
  cmake -S "$SCRATCH" -B "$SCRATCH/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DRL_BUILD_TESTS=OFF "${launcher[@]}" >/dev/null &&
    code_build || { tail -20 "$SCRATCH/build.log" >&2; return 1; }
}
# Applies code patch ID to the scratch tree and rebuilds; prints the
# mutated binary. The caller restores with code_restore.
CODE_FILE=""
code_apply() {  # code_apply ID
  local entry id file expr
  for entry in "${CODE_PATCHES[@]}"; do
    IFS='|' read -r id file expr <<<"$entry"
    [[ "$id" == "$1" ]] || continue
    CODE_FILE="$SCRATCH/$file"
    cp "$CODE_FILE" "$SCRATCH/original"
    perl -0pi -e "$expr" "$CODE_FILE"
    if cmp -s "$CODE_FILE" "$SCRATCH/original"; then
      echo "code row $1 no longer applies to $file: update this script" >&2
      return 1
    fi
    code_build || { tail -20 "$SCRATCH/build.log" >&2; return 1; }
    return 0
  done
  echo "code row $1: no such patch" >&2
  return 1
}
code_restore() {
  [[ -n "$CODE_FILE" ]] && cp "$SCRATCH/original" "$CODE_FILE"
  CODE_FILE=""
}

echo "Target: $TARGET"
echo
echo "| workload | REDLINE_TEST_FAULT | mistake | expected | caught by | exit | first line of the verdict |"
echo "|---|---|---|---|---|---|---|"
failures=0
for row in "${MUTATIONS[@]}"; do
  IFS='|' read -r workload fault expect what extra <<<"$row"
  if [[ "$workload" == hip:* && ! -d "$HIP_CORPUS/$TARGET" ]]; then
    # A build without the HIP corpus (RL_HIP_CORPUS off): said, not passed.
    echo "| $workload | \`${fault:-none}\` | $what | $expect | not run: no HIP corpus at $HIP_CORPUS/$TARGET | - | - |"
    continue
  fi
  file="$(capture "$workload")"
  binary="$REDLINE"
  env_fault="$fault"
  [[ "$CODE" == only:* && -n "$fault" && "$fault" != code:* ]] && continue
  if [[ "$fault" == code:* ]]; then
    code_selected "${fault#code:}" || continue
    env_fault=""
    binary="$WORK/scratch/build/tools/redline"
    if ! code_setup || ! code_apply "${fault#code:}"; then
      code_restore
      failures=$((failures + 1))
      echo "| $workload | \`$fault\` | $what | $expect (VIOLATED) | the mutation did not apply or build | - | - |"
      continue
    fi
  fi
  set +e
  # shellcheck disable=SC2086
  out="$(REDLINE_TEST_FAULT="$env_fault" "$binary" shadow "$file" $extra 2>/dev/null)"
  code=$?
  set -e
  [[ "$fault" == code:* ]] && code_restore
  verdict="$(printf '%s\n' "$out" | grep -m1 '^shadow: ' || echo 'shadow: (no verdict)')"
  reason="${verdict#shadow: }"
  reason="${reason#FAIL (}"
  arm="$(printf '%s' "$reason" | sed -n 's/^arm \([a-z0-9~@-]*\).*/\1/p')"
  [[ -z "$arm" ]] && arm="$(printf '%s' "$reason" | sed -n 's/.* differs in arm \([a-z0-9~@-]*\).*/\1/p')"
  check="$(classify "$reason" "$arm")"
  ok=1
  case "$expect" in
    pass|escape) [[ $code -eq 0 ]] || ok=0 ;;
    # A crash or an unrecognised failure is not a catch.
    fail) [[ $code -ne 0 && "$check" != other ]] || ok=0 ;;
    equivalent)
      if [[ "$(streams "$file" "")" == "$(streams "$file" "$fault")" && $code -eq 0 ]]; then
        check="none: AQL and PM4 streams byte-identical"
      else
        ok=0
      fi ;;
  esac
  [[ $ok -eq 1 ]] || { failures=$((failures + 1)); expect="$expect (VIOLATED)"; }
  line="$(printf '%s' "$verdict" | cut -c1-220 | sed 's/|/\\|/g')"
  echo "| $workload | \`${fault:-none}\`${extra:+ \`$extra\`} | $what | $expect | $check | $code | $line |"
done
if [[ $failures -ne 0 ]]; then
  echo "shadow mutations: $failures row(s) violated their expectation" >&2
  exit 1
fi
echo "shadow mutations: every row as expected" >&2
