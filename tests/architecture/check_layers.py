#!/usr/bin/env python3
"""Checks the include graph of the source tree against the layering.

The layering is written once, in the comment block of the top-level
CMakeLists.txt between "rl-layers BEGIN" and "rl-layers END": one line per
folder of the product tree, "<folder>: <folders it may include>", with
continuation lines indented. A folder the block does not name belongs to
its nearest ancestor that it names (capture/model/ is part of capture). A folder may always include its own headers
and the public API (redline/include/redline/, which itself includes only
the API).

Every #include "..." and #include <...> of every .c and .h file outside
tests/, python/ and build directories is resolved the way the compiler does
for the sources ("...": beside the including file, then from the project
root, then from redline/include/; <...>: from the project root and
redline/include/ only, and a name that resolves to no file of the tree is a
system header) and turned into a folder edge. A header of the public API
(redline/include/redline/) counts as the folder that implements it: the
folders whose .c files define the functions it declares (a header that
declares no function, only types, belongs to no folder and is allowed
everywhere). So including redline/replay.h from capture/ is the edge
capture -> redline, not a free pass. The check fails, naming the file, the
line and the edge, on:
  - an edge the layering does not allow (a back edge, a skip the layering
    does not list, or a cycle, since the allowed edges form no cycle);
  - a source file in a folder the layering does not name;
  - an include that resolves to no file of the tree;
  - a layering block that is missing, names a folder twice, or has a cycle.

Usage:
  check_layers.py [--root DIR] [--verbose]
  check_layers.py --negative-control [--root DIR]
The negative control copies the tree's sources to a temporary directory,
injects forbidden includes one at a time (INJECTIONS: aql/ including the
device interface, shadow/ including the backends' HIP loader) and requires
the check to fail on exactly that edge each time; it also requires the
unmodified copy to pass.
"""
import argparse
import os
import re
import shutil
import sys
import tempfile

API = "redline/include/redline"
SKIP_DIRS = {".git", "tests", "python", "debian", "docs", "cmake"}
INCLUDE = re.compile(r'^\s*#\s*include\s+(?:"([^"]+)"|<([^>]+)>)')
# A function declared in an API header: "rl_x_t* rl_name(" at a line start
# (after the return type), and a definition in a .c file: the same followed
# by a parameter list and "{".
DECLARED = re.compile(r"^[A-Za-z_][\w \t\*]*?\b(rl_\w+)\s*\(", re.M)
DEFINED = re.compile(r"^[A-Za-z_][\w \t\*]*?\b(rl_\w+)\s*\([^;{}]*\)\s*\{",
                     re.M)


ENTRY = re.compile(r"([^\s(]+)(?:\(([^)]*)\))?")


def add_entries(allowed, text):
    """Adds "folder" (any file) or "folder(a.c b.c)" (those files) entries."""
    for match in ENTRY.finditer(text):
        folder, files = match.group(1), match.group(2)
        allowed[folder] = set(files.split()) if files is not None else None


def parse_layers(cmakelists):
    """Returns {folder: {allowed folder: None (any file) or set(files)}}
    from the rl-layers block."""
    layers, current, inside = {}, None, False
    with open(cmakelists, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if "rl-layers BEGIN" in line:
                inside = True
                continue
            if "rl-layers END" in line:
                inside = False
                break
            if not inside:
                continue
            text = line.lstrip("#").strip()
            if not text:
                continue
            if ":" in text:
                folder, _, rest = text.partition(":")
                folder = folder.strip()
                if folder in layers:
                    raise SystemExit(f"{cmakelists}:{number}: folder {folder} "
                                     "is listed twice in the layering")
                layers[folder] = {}
                current = folder
                add_entries(layers[folder], rest)
            elif current is not None:
                add_entries(layers[current], text)
            else:
                raise SystemExit(f"{cmakelists}:{number}: continuation line "
                                 "before any folder")
    if inside or not layers:
        raise SystemExit(f"{cmakelists}: no complete rl-layers BEGIN/END block")
    for folder, allowed in layers.items():
        for target in allowed:
            if target not in layers:
                raise SystemExit(f"{cmakelists}: {folder} may include {target}, "
                                 "which the layering does not list")
    return layers


def find_cycle(layers):
    """Returns a list of folders forming a cycle of allowed edges, or None."""
    state, stack = {}, []

    def visit(folder):
        state[folder] = 1
        stack.append(folder)
        for target in sorted(layers[folder]):
            if state.get(target) == 1:
                return stack[stack.index(target):] + [target]
            if target not in state:
                cycle = visit(target)
                if cycle:
                    return cycle
        stack.pop()
        state[folder] = 2
        return None

    for folder in sorted(layers):
        if folder not in state:
            cycle = visit(folder)
            if cycle:
                return cycle
    return None


def sources(root):
    for directory, dirs, files in os.walk(root):
        rel_dir = os.path.relpath(directory, root)
        # A CMake build tree anywhere (build*/, the Debian build's
        # obj-<triplet>/ inside the source) holds generated header views,
        # not sources.
        dirs[:] = sorted(d for d in dirs
                         if not (rel_dir == "." and
                                 (d in SKIP_DIRS or d.startswith("build")))
                         and not d.startswith(".")
                         and not os.path.isfile(
                             os.path.join(directory, d, "CMakeCache.txt")))
        for name in sorted(files):
            if name.endswith((".c", ".h")):
                yield os.path.normpath(os.path.join(rel_dir, name))


def resolve(root, including, name, angle=False):
    beside = () if angle else (os.path.join(os.path.dirname(including), name),)
    for candidate in beside + (name, os.path.join("redline/include", name)):
        candidate = os.path.normpath(candidate)
        if os.path.isfile(os.path.join(root, candidate)):
            return candidate
    return None


def api_implementers(root, paths):
    """Returns {API header path: sorted folders defining its functions}."""
    defined = {}
    for path in paths:
        if not path.endswith(".c"):
            continue
        with open(os.path.join(root, path), encoding="utf-8",
                  errors="replace") as f:
            for name in DEFINED.findall(f.read()):
                defined.setdefault(name, set()).add(os.path.dirname(path))
    implementers = {}
    for path in paths:
        if os.path.dirname(path) != API:
            continue
        with open(os.path.join(root, path), encoding="utf-8",
                  errors="replace") as f:
            names = DECLARED.findall(f.read())
        folders = set()
        for name in names:
            folders |= defined.get(name, set())
        implementers[path] = sorted(folders)
    return implementers


def layer_of(layers, folder):
    """The layer a folder belongs to: itself when the layering names it,
    else its nearest ancestor the layering names (capture/model/ is part of
    capture; capture/interposer/ is a layer of its own)."""
    found = folder
    while found and found not in layers and found != API:
        found = os.path.dirname(found)
    return found or folder


def allowed_edge(layers, folder, path, to):
    files = layers.get(folder, {})
    return to == folder or (to in files and (
        files[to] is None or os.path.basename(path) in files[to]))


def check(root, layers):
    """Returns (violations, edges) of the tree at |root|."""
    violations, edges = [], {}
    paths = list(sources(root))
    implementers = {api: sorted({layer_of(layers, f) for f in folders})
                    for api, folders in api_implementers(root, paths).items()}
    for path in paths:
        folder = layer_of(layers, os.path.dirname(path))
        if folder != API and folder not in layers:
            violations.append(f"{path}: folder {folder} is not in the layering "
                              "(CMakeLists.txt rl-layers)")
            continue
        with open(os.path.join(root, path), encoding="utf-8",
                  errors="replace") as f:
            for number, line in enumerate(f, 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                angle = match.group(1) is None
                name = match.group(2) if angle else match.group(1)
                spelled = f"<{name}>" if angle else f'"{name}"'
                target = resolve(root, path, name, angle)
                where = f"{path}:{number}"
                if target is None:
                    if not angle:
                        violations.append(f"{where}: #include {spelled} "
                                          "resolves to no file of the tree")
                    continue
                to = layer_of(layers, os.path.dirname(target))
                if to == folder:
                    continue
                if to == API:
                    if folder == API:
                        continue
                    for owner in implementers.get(target, []):
                        if owner == folder:
                            continue
                        edges.setdefault((folder, owner), []).append(where)
                        if not allowed_edge(layers, folder, path, owner):
                            violations.append(
                                f"{where}: {folder} -> {owner} (#include "
                                f"{spelled}, the API header {owner}/ "
                                "implements) is not allowed by the layering")
                    continue
                edges.setdefault((folder, to), []).append(where)
                if not allowed_edge(layers, folder, path, to):
                    violations.append(f"{where}: {folder} -> {to} "
                                      f"(#include {spelled}) is not "
                                      "allowed by the layering")
    return violations, edges


def run(root, verbose):
    layers = parse_layers(os.path.join(root, "CMakeLists.txt"))
    cycle = find_cycle(layers)
    if cycle:
        print("layering has a cycle: " + " -> ".join(cycle))
        return 1
    violations, edges = check(root, layers)
    if verbose:
        for (a, b), where in sorted(edges.items()):
            print(f"{a} -> {b} ({len(where)})")
    for violation in violations:
        print(violation)
    if violations:
        print(f"FAIL: {len(violations)} include(s) against the layering")
        return 1
    print(f"OK: {sum(len(w) for w in edges.values())} cross-folder includes "
          f"in {len(edges)} folder edges, all allowed")
    return 0


def copy_sources(root, dest):
    shutil.copy(os.path.join(root, "CMakeLists.txt"), dest)
    for path in sources(root):
        os.makedirs(os.path.join(dest, os.path.dirname(path)), exist_ok=True)
        shutil.copy(os.path.join(root, path), os.path.join(dest, path))


# Forbidden includes the negative control injects, one at a time: a back
# edge issue 14 removed (aql/ including the device interface) and the edge
# the HIP arms used to take (shadow/ including the backends' HIP loader,
# now only shadow/hip/ may).
# The three blind spots issue 29 found follow: an API header counted by the
# folder that implements it (the engine's replay.h in capture/, the
# backends' doctor.h in the base) and an angle-bracket include.
INJECTIONS = [
    ("aql/aql_ring.c", '"redline/device/device.h"', "aql -> redline/device"),
    ("shadow/shadow_arm.c", '"redline/backends/hip_loader.h"',
     "shadow -> redline/backends"),
    ("capture/model/capture.c", '"redline/replay.h"', "capture -> redline "),
    ("base/array.c", '"redline/doctor.h"',
     "base -> redline/backends"),
    ("aql/aql_ring.c", "<sim/sim.h>", "aql -> sim"),
]


def negative_control(root):
    with tempfile.TemporaryDirectory(prefix="rl_layers_") as tmp:
        copy_sources(root, tmp)
        if run(tmp, False) != 0:
            print("negative control: the unmodified copy fails")
            return 1
        layers = parse_layers(os.path.join(tmp, "CMakeLists.txt"))
        for victim, header, edge in INJECTIONS:
            path = os.path.join(tmp, victim)
            with open(path, encoding="utf-8") as f:
                original = f.read()
            with open(path, "a", encoding="utf-8") as f:
                f.write(f'\n#include {header}\n')
            violations, _ = check(tmp, layers)
            with open(path, "w", encoding="utf-8") as f:
                f.write(original)
            expected = [v for v in violations if edge in v]
            if len(violations) != 1 or len(expected) != 1:
                print("negative control: expected exactly one violation "
                      f"{edge}, got {violations}")
                return 1
            print("negative control: the injected include fails the check: "
                  + expected[0])
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--negative-control", action="store_true")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    if args.negative_control:
        return negative_control(root)
    return run(root, args.verbose)


if __name__ == "__main__":
    sys.exit(main())
