#!/usr/bin/env python3
"""Generates sim/isa/isa_names_gfx11.c and tests/data/isa_names_gfx11.txt:
the name of every gfx11 opcode of every encoding, as llvm-mc-19 prints it.

For each encoding and each value of its opcode field, the script builds one
probe instruction (the opcode plus plain register operands), asks
`llvm-mc-19 --disassemble -mcpu=gfx1100` what it is, and keeps the mnemonic
(without the _e32/_e64 suffix the assembler adds to pick an encoding).
Probes that do not decode with the first operand pattern are retried with
the next (two sources instead of three, a trailing literal, ...); an opcode
no pattern decodes is not an instruction of gfx1100 and stays unnamed.
The text file lists every decoded probe (encoding, opcode, the full
disassembled line); tests/unit/sim/isa/isa_names_test.c assembles those lines with
llvm-mc-19 -show-encoding and checks that each opcode field and name match
the C table.

With --gfx12 the same is done for gfx12 (-mcpu=gfx1201), writing
sim/isa/isa_names_gfx12.c and tests/data/isa_names_gfx12.txt; the
families whose layout gfx12 changed (SMEM, VFLAT/VGLOBAL/VSCRATCH, VBUFFER)
are probed with their gfx12 layouts (GFX12_FAMILIES below).

The C tables are written from both text files (after either probe, or
alone with --emit), each name once: the runs of six or more entries gfx11
and gfx12 share go to sim/isa/isa_names_shared.h as macros both tables
expand, and VOP3's copy of the VOPC opcodes (0x000-0x0ff) expands the
family's VOPC macro.

Usage: tools/isa_names_gen.py [--gfx12] [--emit] [llvm-mc]   (from the
repository root)
"""
import collections
import difflib
import subprocess
import sys

ARGS = [a for a in sys.argv[1:] if a not in ("--gfx12", "--emit")]
GEN = "gfx12" if "--gfx12" in sys.argv[1:] else "gfx11"
MCPU = "gfx1201" if GEN == "gfx12" else "gfx1100"
MC = ARGS[0] if ARGS else "llvm-mc-19"
# Two separator dwords follow each probe: "s_nop 0" (which a probe that
# wants a literal swallows, so such a probe is rejected and retried with a
# literal) and "s_nop 0x3f", which ends the probe's chunk of output.
SEP_SOFT, SEP_HARD = 0xbf800000, 0xbf80003f


def words_to_line(words):
    return ",".join("0x%02x" % ((w >> s) & 0xff) for w in words
                    for s in (0, 8, 16, 24))


def run_mc(lines):
    return subprocess.run([MC, "--disassemble", "-arch=amdgcn",
                           "-mcpu=" + MCPU], input="\n".join(lines) + "\n",
                          capture_output=True, text=True)


def disassemble(probes):
    """Disassembles each probe (a list of dwords); returns one line or None
    per probe."""
    soft, hard = [l.strip() for l in run_mc(
        [words_to_line([SEP_SOFT]), words_to_line([SEP_HARD])]
    ).stdout.splitlines() if l.strip() and l.strip() != ".text"]
    text = []
    for words in probes:
        text += [words_to_line(words), words_to_line([SEP_SOFT]),
                 words_to_line([SEP_HARD])]
    run = run_mc(text)
    bad = set()
    for line in run.stderr.splitlines():
        if line.startswith("<stdin>:") and "warning" in line:
            bad.add((int(line.split(":")[1]) - 1) // 3)
    out = [l.strip() for l in run.stdout.splitlines()
           if l.strip() and l.strip() != ".text"]
    results, chunk = [], []
    for line in out:
        if line != hard:
            chunk.append(line)
            continue
        index = len(results)
        ok = (index not in bad and len(chunk) == 2 and chunk[1] == soft
              and "/*" not in chunk[0])
        results.append(chunk[0] if ok else None)
        chunk = []
    assert len(results) == len(probes), (len(results), len(probes))
    return results


def mnemonic(line):
    name = line.split("::")[1].split()[0] if "::" in line else line.split()[0]
    for suffix in ("_e32", "_e64"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return name


V1, V2, V3 = 0x101, 0x102, 0x103   # v1, v2, v3 as 9-bit source codes
LIT = 0x3f800000

# Encoding: (opcode count, [probe pattern(op) -> dwords, ...], family filter)
FAMILIES = {
    "SOP2": (0x60, [lambda op: [0x80000000 | op << 23 | 4 << 16 | 8 << 8 | 6],
                    lambda op: [0x80000000 | op << 23 | 4 << 16 | 8 << 8 | 6,
                                LIT]]),
    "SOPK": (0x1d, [lambda op: [0xb0000000 | op << 23 | 4 << 16 | 0x10],
                    lambda op: [0xb0000000 | op << 23 | 4 << 16 | 0x10, 0],
                    lambda op: [0xb0000000 | op << 23 | 124 << 16]]),
    "SOP1": (0x100, [lambda op: [0xbe800000 | 4 << 16 | op << 8 | 6],
                     lambda op: [0xbe800000 | 4 << 16 | op << 8 | 0x80]]),
    "SOPC": (0x80, [lambda op: [0xbf000000 | op << 16 | 8 << 8 | 6]]),
    "SOPP": (0x80, [lambda op: [0xbf800000 | op << 16 | 1],
                    lambda op: [0xbf800000 | op << 16]]),
    "SMEM": (0x100, [lambda op: [0xf4000000 | op << 18 | 8 << 6 | 1,
                                 0xf8000010],
                     lambda op: [0xf4000000 | op << 18, 0xf8000000]]),
    "VOP2": (0x3e, [lambda op: [op << 25 | 4 << 17 | 2 << 9 | V1],
                    lambda op: [op << 25 | 4 << 17 | 2 << 9 | V1, LIT],
                    lambda op: [op << 25 | 4 << 17 | 2 << 9 | V1, 0x3c00]]),
    "VOP1": (0x100, [lambda op: [0x7e000000 | 4 << 17 | op << 9 | V1],
                     lambda op: [0x7e000000 | 4 << 17 | op << 9 | 6],
                     lambda op: [0x7e000000 | op << 9]]),
    # VOPD: the Y half is the probe (X is v_dual_mov_b32, opcode 8); every
    # X opcode is also a Y opcode. The name is the one after "::".
    "VOPD": (0x20, [lambda op: [0xc8000000 | 8 << 22 | op << 17 |
                                0x100, 4 << 24 | 2 << 17 | 3 << 9 | V1],
                    lambda op: [0xc8000000 | 8 << 22 | op << 17 |
                                0x100, 4 << 24 | 2 << 17 | 3 << 9 | V1,
                                LIT],
                    lambda op: [0xc8000000 | 8 << 22 | op << 17 |
                                0x100, 4 << 24 | 2 << 17 | V1]]),
    "VOPC": (0x100, [lambda op: [0x7c000000 | op << 17 | 2 << 9 | V1]]),
    "VOP3": (0x400, [lambda op: [0xd4000000 | op << 16 | 4,
                                 V1 | V2 << 9 | V3 << 18],
                     lambda op: [0xd4000000 | op << 16 | 4, V1 | V2 << 9],
                     lambda op: [0xd4000000 | op << 16 | 4, V1],
                     lambda op: [0xd4000000 | op << 16 | 4, 6 | V2 << 9],
                     lambda op: [0xd4000000 | op << 16 | 4,
                                 V1 | 6 << 9 | V3 << 18],
                     lambda op: [0xd4000000 | op << 16 | 4, 6 | 8 << 9],
                     lambda op: [0xd4000000 | op << 16 | 4,
                                 V1 | 6 << 9 | 8 << 18],
                     lambda op: [0xd4000000 | op << 16 | 4, 0]]),
    "VOP3P": (0x80, [lambda op: [0xcc000000 | op << 16 | 0x4000 | 4,
                                 0x18000000 | V1 | V2 << 9 | V3 << 18],
                     lambda op: [0xcc000000 | op << 16 | 0x4000 | 4,
                                 0x18000000 | V1 | V2 << 9]]),
    "VINTERP": (0x80, [lambda op: [0xcd000000 | op << 16 | 4,
                                   V1 | V2 << 9 | V3 << 18]]),
    "LDSDIR": (4, [lambda op: [0xce000000 | op << 20 | 1]]),
    "DS": (0x100, [lambda op: [0xd8000000 | op << 18,
                               4 << 24 | 8 << 16 | 6 << 8 | 2],
                   lambda op: [0xd8000000 | op << 18, 4 << 24 | 6 << 8],
                   lambda op: [0xd8000000 | op << 18, 4 << 24],
                   lambda op: [0xd8000000 | op << 18, 8 << 16 | 6 << 8 | 2],
                   lambda op: [0xd8000000 | op << 18, 6 << 8 | 2],
                   lambda op: [0xd8000000 | op << 18, 2],
                   lambda op: [0xd8020000 | op << 18, 6 << 8 | 2],
                   lambda op: [0xd8020000 | op << 18, 6 << 8],
                   lambda op: [0xd8020000 | op << 18, 0]]),
    "FLAT": (0x80, [lambda op: [0xdc000000 | op << 18,
                                4 << 24 | 0x7c << 16 | 8 << 8 | 6],
                    lambda op: [0xdc000000 | op << 18,
                                0x7c << 16 | 8 << 8 | 6]]),
    "GLOBAL": (0x80, [lambda op: [0xdc020000 | op << 18,
                                  4 << 24 | 0x7c << 16 | 8 << 8 | 6],
                      lambda op: [0xdc020000 | op << 18,
                                  4 << 24 | 0x02 << 16 | 8 << 8 | 6]]),
    "SCRATCH": (0x80, [lambda op: [0xdc010000 | op << 18,
                                   4 << 24 | 0x02 << 16 | 8 << 8 | 6],
                       lambda op: [0xdc014000 | op << 18,
                                   4 << 24 | 0x7c << 16 | 8 << 8 | 6]]),
    "MUBUF": (0x100, [lambda op: [0xe0000000 | op << 18,
                                  0x80000000 | 4 << 8 | 6],
                      lambda op: [0xe0000000 | op << 18, 0]]),
    "MTBUF": (0x10, [lambda op: [0xe8000000 | 0x16 << 19 | op << 15,
                                 0x80000000 | 4 << 8 | 6]]),
    "MIMG": (0x100, [lambda op: [0xf0000100 | op << 18, 0x00000100],
                     lambda op: [0xf0000100 | op << 18, 0x00000100, 0]]),
}


# gfx12 (RDNA4) layouts, found with llvm-mc-19 -mcpu=gfx1201 -show-encoding:
# SMEM OP[18:13]; VINTERP OP[20:16]; VFLAT/VSCRATCH/VGLOBAL are 96 bits, [31:24] 0xec/0xed/0xee,
# OP[21:14], SADDR[6:0] | VDST[7:0], VDATA[30:23] (SVE[17] for scratch) |
# VADDR[7:0]; VBUFFER (the MUBUF and MTBUF opcodes of gfx11) is 96 bits,
# [31:26] 110001, OP[21:14] (tbuffer opcodes from 0x80). MTBUF and MIMG
# (VIMAGE/VSAMPLE) are not named for gfx12.
GFX12_FAMILIES = {
    "SMEM": (0x40, [lambda op: [0xf4000000 | op << 13 | 4 << 6 | 1,
                                 0xf8000010],
                     lambda op: [0xf4000000 | op << 13, 0xf8000000],
                     lambda op: [0xf4000000 | op << 13 | 4 << 6 | 1,
                                 0x00000010]]),
    "FLAT": (0x100, [lambda op: [0xec00007c | op << 14, 1 | 2 << 23, 4],
                     lambda op: [0xec00007c | op << 14, 2 << 23, 4]]),
    "GLOBAL": (0x100, [lambda op: [0xee00007c | op << 14, 1 | 2 << 23, 4],
                       lambda op: [0xee00007c | op << 14, 2 << 23, 4],
                       lambda op: [0xee000002 | op << 14, 1 | 2 << 23, 4],
                       lambda op: [0xee000002 | op << 14, 2 << 23, 4],
                       lambda op: [0xee00007c | op << 14, 0, 0]]),
    "SCRATCH": (0x100, [lambda op: [0xed00007c | op << 14,
                                    1 | 2 << 23 | 1 << 17, 4],
                        lambda op: [0xed00007c | op << 14,
                                    2 << 23 | 1 << 17, 4]]),
    "MUBUF": (0x100, [lambda op: [0xc4000003 | op << 14, 0x40800801,
                                  0x00001002],
                      lambda op: [0xc4000003 | op << 14, 0x4b000801,
                                  0x00000002],
                      lambda op: [0xc400007c | op << 14, 0, 0]]),
    "VINTERP": (0x20, FAMILIES["VINTERP"][1]),
    "MTBUF": (0, []),
    "MIMG": (0, []),
}
if GEN == "gfx12":
    FAMILIES.update(GFX12_FAMILIES)


def assembles(lines):
    """Which of |lines| llvm-mc-19 assembles back (the test's direction)."""
    run = subprocess.run([MC, "-arch=amdgcn", "-mcpu=" + MCPU,
                          "-show-encoding"], input="\n".join(lines) + "\n",
                         capture_output=True, text=True)
    bad = set()
    for line in run.stderr.splitlines():
        if line.startswith("<stdin>:") and "error" in line:
            bad.add(int(line.split(":")[1]) - 1)
    return [i not in bad for i in range(len(lines))]


def probe_family(name):
    count, patterns = FAMILIES[name]
    found = {}
    for pattern in patterns:
        todo = [op for op in range(count) if op not in found]
        if not todo:
            break
        decoded = [(op, line) for op, line in
                   zip(todo, disassemble([pattern(op) for op in todo]))
                   if line is not None]
        ok = assembles([line for _, line in decoded])
        for (op, line), good in zip(decoded, ok):
            if good:
                found[op] = line
    return found


# Shared runs shorter than this stay in each table (a run of six lines
# counts as copied, table lines around it included).
SHARED_RUN = 3


def load_names(gen):
    """The names of tests/data/isa_names_<gen>.txt: family -> sorted
    [(opcode, mnemonic)], in the file's family order."""
    tables = collections.OrderedDict()
    with open("tests/data/isa_names_%s.txt" % gen) as f:
        for line in f:
            if line.startswith("#"):
                continue
            family, op, text = line.rstrip("\n").split(" ", 2)
            tables.setdefault(family, []).append((int(op, 16),
                                                  mnemonic(text)))
    for family in tables:
        tables[family].sort()
    return tables


def entry(op, name):
    return '{0x%x, "%s"}' % (op, name)


def split_vopc(tables, gen):
    """VOP3 without its leading copy of VOPC (replaced by the VOPC macro)."""
    segments = {}
    for family, entries in tables.items():
        segments[family] = [("own", entries)]
    vopc, vop3 = tables.get("VOPC", []), tables.get("VOP3", [])
    if vopc and vop3[:len(vopc)] == vopc:
        segments["VOP3"] = [("macro", "RL_ISA_NAMES_%s_VOPC" % gen.upper()),
                            ("own", vop3[len(vopc):])]
    return segments


def share(segments11, segments12):
    """Moves the runs both generations' tables hold into macros; returns the
    macros {name: entries}."""
    shared = collections.OrderedDict()
    for family in segments11:
        if family not in segments12:
            continue
        a = [e for kind, v in segments11[family] if kind == "own" for e in v]
        b = [e for kind, v in segments12[family] if kind == "own" for e in v]
        blocks = [m for m in difflib.SequenceMatcher(
            None, a, b, autojunk=False).get_matching_blocks()
                  if m.size >= SHARED_RUN]
        for segs, own, start in ((segments11, a, "a"), (segments12, b, "b")):
            out, at = [], 0
            for k, m in enumerate(blocks):
                first = m.a if start == "a" else m.b
                if first > at:
                    out.append(("own", own[at:first]))
                name = "RL_ISA_NAMES_%s_%d" % (family, k)
                out.append(("macro", name))
                shared[name] = own[first:first + m.size]
                at = first + m.size
            if at < len(own):
                out.append(("own", own[at:]))
            macros = [s for s in segs[family] if s[0] == "macro"]
            segs[family] = macros + out  # a VOPC macro stays first
    return shared


def render(segments):
    """The initialiser lines of |segments| (entries and macro names)."""
    return ["    " + (value if kind == "macro" else entry(*e))
            for kind, value in segments
            for e in ([None] if kind == "macro" else value)]


def write_macro(f, name, lines):
    f.write("#define %s \\\n" % name)
    f.write(", \\\n".join(lines))
    f.write("\n\n")


def write_table(f, gen, tables, segments):
    f.write(HEADER if gen == "gfx11" else HEADER_GFX12)
    vopc = "RL_ISA_NAMES_%s_VOPC" % gen.upper()
    if tables.get("VOPC"):
        write_macro(f, vopc, render(segments["VOPC"]))
        segments["VOPC"] = [("macro", vopc)]
    for family, segs in segments.items():
        if not tables[family]:
            continue
        f.write("static const rl_isa_name_t rl_isa_names_%s[] = {\n"
                % family.lower())
        for line in render(segs):
            f.write(line + ",\n")
        f.write("};\n\n")
    f.write("const rl_isa_name_table_t rl_isa_name_tables%s"
            "[RL_ISA_ENC_COUNT] = {\n" % ("" if gen == "gfx11" else "_gfx12"))
    for family in tables:
        if not tables[family]:
            continue
        f.write("    [RL_ISA_ENC_%s] = {rl_isa_names_%s, %d},\n"
                % (family, family.lower(), len(tables[family])))
    f.write("};\n")


def emit_c():
    tables = {gen: load_names(gen) for gen in ("gfx11", "gfx12")}
    segments = {gen: split_vopc(tables[gen], gen) for gen in tables}
    shared = share(segments["gfx11"], segments["gfx12"])
    with open("sim/isa/isa_names_shared.h", "w") as f:
        f.write(HEADER_SHARED)
        for name, entries in shared.items():
            write_macro(f, name, render([("own", entries)]))
        f.write("#endif  // REDLINE_SIM_ISA_ISA_NAMES_SHARED_H_\n")
    for gen in tables:
        order = collections.OrderedDict(
            (family, segments[gen][family]) for family in tables[gen])
        with open("sim/isa/isa_names_%s.c" % gen, "w") as f:
            write_table(f, gen, tables[gen], order)


def main():
    tables = {}
    for family in FAMILIES:
        tables[family] = probe_family(family)
        print("%-8s %4d opcodes" % (family, len(tables[family])),
              file=sys.stderr)
    with open("tests/data/isa_names_%s.txt" % GEN, "w") as f:
        f.write("# Generated by tools/isa_names_gen.py from llvm-mc-19 "
                "--disassemble -mcpu=%s.\n" % MCPU +
                "# ENCODING OPCODE LINE: one decoded probe per opcode.\n")
        for family, found in tables.items():
            for op in sorted(found):
                f.write("%s 0x%x %s\n" % (family, op, found[op]))
    emit_c()

HEADER = """\
// sim/isa/isa_names_gfx11.c — GENERATED by tools/isa_names_gen.py;
// do not edit. The LLVM mnemonic of every opcode of every gfx11 encoding,
// as llvm-mc-19 --disassemble -mcpu=gfx1100 names it (without _e32/_e64),
// so diagnostics name instructions the executor does not model. VOP3 lists
// its own opcodes and the VOP3 forms of VOPC (0x000-0x0ff), VOP2
// (0x100-0x13f) and VOP1 (0x180-0x1ff). Checked against llvm-mc-19 by
// tests/unit/sim/isa/isa_names_test.c (tests/data/isa_names_gfx11.txt).
#include "sim/isa/isa_names.h"
#include "sim/isa/isa_names_shared.h"

"""

HEADER_GFX12 = """\
// sim/isa/isa_names_gfx12.c — GENERATED by tools/isa_names_gen.py
// --gfx12; do not edit. The LLVM mnemonic of every opcode of every gfx12
// (RDNA4) encoding, as llvm-mc-19 --disassemble -mcpu=gfx1201 names it
// (without _e32/_e64). MUBUF stands for VBUFFER (buffer and tbuffer
// opcodes); FLAT/GLOBAL/SCRATCH for VFLAT/VGLOBAL/VSCRATCH. Checked against
// llvm-mc-19 by tests/unit/sim/isa/isa_gfx12_test.c
// (tests/data/isa_names_gfx12.txt).
#include "sim/isa/isa_names.h"
#include "sim/isa/isa_names_shared.h"

"""

HEADER_SHARED = """\
// sim/isa/isa_names_shared.h — GENERATED by tools/isa_names_gen.py; do not
// edit. The runs of opcode names gfx11 and gfx12 share (same opcode, same
// LLVM mnemonic), written once and expanded by both tables
// (isa_names_gfx11.c, isa_names_gfx12.c; private to rl_sim_isa).
#ifndef REDLINE_SIM_ISA_ISA_NAMES_SHARED_H_
#define REDLINE_SIM_ISA_ISA_NAMES_SHARED_H_

"""

if __name__ == "__main__":
    if "--emit" in sys.argv[1:]:
        emit_c()
    else:
        main()
