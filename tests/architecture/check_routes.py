#!/usr/bin/env python3
"""Checks that no product file branches on a route kind outside the routes.

The replay routes (aql, pm4, drm) are written once, behind the route table
of the replay engine (redline/replay_route.h): each route in its own
redline/replay_route_<name>.c, the registry and the route names in
redline/replay_route.c. The shadow's arm kinds are mapped to routes once,
in the arm table (shadow/shadow_arm.c). Everything else asks the table
(rl_route_name, rl_route_parse, the route proof, rl_shadow_arm_kind_route)
and never compares a route kind.

A route-kind branch is a comparison with, a case label of, or a bit test
against one of the route constants:
  RL_ROUTE_AQL, RL_ROUTE_PM4, RL_ROUTE_DRM,
  RL_SHADOW_ARM_AQL, RL_SHADOW_ARM_PM4, RL_SHADOW_ARM_DRM,
  RL_SHADOW_ARM_PM4_RELAY, RL_DOCTOR_ROUTE_AQL/PM4/DRM.
Assigning one (a default, a table row) or a static assertion is not a
branch.

The routes' state (queue, ring, packets, IB) is defined in
redline/replay_route_state.h, which only the route files include: the
replay object holds it as an opaque pointer. An include of it anywhere
else fails the check too.

Every .c and .h file outside tests/, python/, docs/ and build directories
is read; the check fails naming each branch's file and line.

Usage:
  check_routes.py [--root DIR]
  check_routes.py --negative-control [--root DIR]
The negative control copies the product sources to a temporary directory,
requires the copy to pass, then plants one branch at a time (PLANTS) and
requires the check to fail on exactly that line.
"""
import argparse
import os
import re
import shutil
import sys
import tempfile

SKIP_DIRS = {".git", "tests", "python", "debian", "docs", "cmake"}
# The route table and the arm table: the only files that may branch.
ALLOWED = re.compile(r"^(redline/replay_route[a-z0-9_]*\.c|shadow/shadow_arm\.c)$")
CONSTANT = (r"RL_(?:ROUTE_(?:AQL|PM4|DRM)|SHADOW_ARM_(?:AQL|PM4_RELAY|PM4|DRM)"
            r"|DOCTOR_ROUTE_(?:AQL|PM4|DRM))\b")
BRANCH = re.compile(
    r"(?:[=!]=\s*" + CONSTANT + r")"          # x == RL_ROUTE_PM4
    r"|(?:\b" + CONSTANT + r"\s*[=!]=)"        # RL_ROUTE_PM4 == x
    r"|(?:\bcase\s+" + CONSTANT + r")"         # case RL_ROUTE_PM4:
    r"|(?:&\s*" + CONSTANT + r")")              # routes & RL_DOCTOR_ROUTE_DRM
COMMENT = re.compile(r"//.*$")
STATE_INCLUDE = re.compile(r'^\s*#\s*include\s+["<]redline/replay_route_state\.h[">]')


def sources(root):
    for directory, dirs, files in os.walk(root):
        rel_dir = os.path.relpath(directory, root)
        dirs[:] = sorted(d for d in dirs
                         if not (rel_dir == "." and
                                 (d in SKIP_DIRS or d.startswith("build") or
                                  d.startswith("obj-")))
                         and not d.startswith(".")
                         and not os.path.isfile(
                             os.path.join(directory, d, "CMakeCache.txt")))
        for name in sorted(files):
            if name.endswith((".c", ".h")):
                yield os.path.normpath(os.path.join(rel_dir, name))


def check(root):
    """Returns the branches outside the allowed files, as messages."""
    found = []
    for path in sources(root):
        allowed = bool(ALLOWED.match(path))
        with open(os.path.join(root, path), encoding="utf-8",
                  errors="replace") as f:
            for number, line in enumerate(f, 1):
                if not allowed and STATE_INCLUDE.match(line):
                    found.append(f"{path}:{number}: includes the routes' "
                                 "state (redline/replay_route_state.h) "
                                 "outside redline/replay_route*.c")
                if allowed:
                    continue
                code = COMMENT.sub("", line)
                if "_Static_assert" in code:
                    continue
                match = BRANCH.search(code)
                if match:
                    found.append(f"{path}:{number}: route-kind branch "
                                 f"'{match.group(0).strip()}' outside the "
                                 "route table (redline/replay_route*.c) and "
                                 "the arm table (shadow/shadow_arm.c)")
    return found


def run(root):
    found = check(root)
    for message in found:
        print(message)
    if found:
        print(f"FAIL: {len(found)} route-kind branch(es) outside the tables")
        return 1
    print("OK: no route-kind branch outside the route and arm tables")
    return 0


# Branches the negative control plants, one at a time: the label bug
# issue 29 found in tools/cmd_replay.c, and an arm-kind test in shadow/.
PLANTS = [
    ("tools/cmd_replay.c",
     'static const char* rl_planted(rl_route_t r) {\n'
     '  return r == RL_ROUTE_PM4 ? "pm4" : "aql";\n}\n'),
    ("redline/replay.c", '#include "redline/replay_route_state.h"\n'),
    ("shadow/bench.c",
     "static int rl_planted(rl_shadow_arm_kind_t k) {\n"
     "  switch (k) { case RL_SHADOW_ARM_DRM: return 1; default: return 0; }\n"
     "}\n"),
]


def negative_control(root):
    with tempfile.TemporaryDirectory(prefix="rl_routes_") as tmp:
        for path in sources(root):
            os.makedirs(os.path.join(tmp, os.path.dirname(path)), exist_ok=True)
            shutil.copy(os.path.join(root, path), os.path.join(tmp, path))
        if check(tmp):
            print("negative control: the unmodified copy fails")
            return 1
        for victim, text in PLANTS:
            path = os.path.join(tmp, victim)
            with open(path, encoding="utf-8") as f:
                original = f.read()
            with open(path, "a", encoding="utf-8") as f:
                f.write("\n" + text)
            found = check(tmp)
            with open(path, "w", encoding="utf-8") as f:
                f.write(original)
            if len(found) != 1 or not found[0].startswith(victim + ":"):
                print(f"negative control: expected one branch in {victim}, "
                      f"got {found}")
                return 1
            print("negative control: the planted branch fails the check: "
                  + found[0])
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    parser.add_argument("--negative-control", action="store_true")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    if args.negative_control:
        return negative_control(root)
    return run(root)


if __name__ == "__main__":
    sys.exit(main())
