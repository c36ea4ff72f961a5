#!/usr/bin/env python3
"""Checks that no two modules call each other, from the built objects.

The include check (check_layers.py) reads the sources; this one reads what
the linker sees. Every object file of every module given on the command
line is read with `nm`: the global symbols it defines and the ones it
leaves undefined. An object that leaves a symbol undefined which an object
of another module defines calls (or reads) into that module: one edge
between the two modules. The check fails, naming the modules of the cycle
and, for each edge of it, one object and one symbol that make it, when the
module edges have a cycle (a strongly connected component of two or more
modules). A symbol defined by two modules is reported as an error too: the
edge would be ambiguous. Within one module, objects calling each other in
a cycle are allowed; the script prints how many objects the largest such
knot holds (--verbose: which ones), so a split of a module can be measured.

A module argument named NAME/* takes one library whose sources sit in
sub-folders (capture/'s modules, one rl_capture): each object is given to
the module NAME/<sub-folder>, read from its path under the target's
CMakeFiles/<target>.dir/ (capture/model/capture.c.o -> capture/model;
sim/wg/sim_wg.c.o -> sim/wg, the folder NAME itself dropped when the path
repeats it).

Usage:
  check_calls.py --nm NM MODULE=OBJ[;OBJ...] ...
  check_calls.py --negative-control [--control LOW,HIGH] --nm NM --cc CC
                 MODULE=OBJ... ...
The negative control compiles one extra object into the module given
first (or LOW of --control LOW,HIGH): a function calling a function the
module given second (HIGH) defines. As
long as the second module really calls into the first (the real edge the
control relies on is checked to be there), that makes a cycle, and the
check must fail on exactly it; the unmodified set must pass.
"""
import argparse
import os
import subprocess
import sys
import tempfile

DEFINED_TYPES = set("TDBRGSCVWui")  # nm letters of a definition


def read_objects(nm, paths):
    """Returns {object: (defined, undefined)} global symbol sets, from one
    `nm -A` call over all the objects (one call per object took a second
    each on a loaded machine)."""
    result = {path: (set(), set()) for path in paths}
    out = subprocess.run([nm, "-A", "-g", "-P"] + list(paths), check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        path, _, rest = line.partition(": ")
        fields = rest.split()
        if path not in result or len(fields) < 2:
            continue
        name, kind = fields[0], fields[1]
        if kind == "U":
            result[path][1].add(name)
        elif kind in DEFINED_TYPES:  # w, v: weak references, no edge
            result[path][0].add(name)
    return result


def load(nm, modules):
    """modules: [(name, [objects])] -> {object: (module, defined, undefined)}"""
    symbols = read_objects(nm, [p for _, paths in modules for p in paths])
    return {path: (module,) + symbols[path]
            for module, paths in modules for path in paths}


def graph(objects):
    """Returns (module edges {(a, b): (object, symbol)}, object edges,
    errors)."""
    owner, errors = {}, []
    for path, (module, defined, _) in sorted(objects.items()):
        for name in defined:
            if name in owner and objects[owner[name]][0] != module:
                errors.append(f"{name} is defined by {owner[name]} "
                              f"({objects[owner[name]][0]}) and {path} "
                              f"({module})")
            owner.setdefault(name, path)
    edges, object_edges = {}, {}
    for path, (module, _, undefined) in sorted(objects.items()):
        for name in sorted(undefined):
            target = owner.get(name)
            if target is None or target == path:
                continue
            to = objects[target][0]
            if to == module:
                object_edges.setdefault(path, set()).add(target)
            else:
                edges.setdefault((module, to), (path, name))
    return edges, object_edges, errors


def components(nodes, succ):
    """Tarjan's strongly connected components, each a sorted list."""
    index, low, stack, on, result = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(succ.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            result.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return result


def check(objects, verbose=False):
    """Returns the list of failures (empty: passes) and prints the summary."""
    edges, object_edges, failures = graph(objects)
    modules = sorted({m for m, _, _ in objects.values()})
    succ = {}
    for a, b in edges:
        succ.setdefault(a, set()).add(b)
    for comp in components(modules, succ):
        if len(comp) < 2:
            continue
        lines = [f"call cycle between modules {', '.join(comp)}:"]
        for (a, b), (path, name) in sorted(edges.items()):
            if a in comp and b in comp:
                lines.append(f"  {a} -> {b}: {os.path.basename(path)} "
                             f"calls {name}")
        failures.append("\n".join(lines))
    if verbose:
        for (a, b), (path, name) in sorted(edges.items()):
            print(f"{a} -> {b} (e.g. {os.path.basename(path)}: {name})")
    for module in modules:
        paths = [p for p, (m, _, _) in objects.items() if m == module]
        knots = [c for c in components(paths, object_edges) if len(c) > 1]
        largest = max((len(c) for c in knots), default=0)
        print(f"{module}: {len(paths)} objects, largest call knot inside "
              f"{largest}")
        if verbose:
            for knot in knots:
                print("  knot: " + " ".join(os.path.basename(p)
                                              for p in knot))
    return failures


def parse_modules(specs):
    modules = []
    for spec in specs:
        name, _, objs = spec.partition("=")
        paths = [p for p in objs.replace(";", " ").split() if p]
        if not name or not paths:
            raise SystemExit(f"module argument {spec!r}: expected "
                             "NAME=OBJ[;OBJ...]")
        if name.endswith("/*"):
            split = {}
            for path in paths:
                sub = path.replace(os.sep, "/").split(".dir/", 1)[-1]
                # A target defined outside its folder (include()d from the
                # top, like rl_sim) keeps the folder in the object's path.
                if sub.startswith(name[:-1]):
                    sub = sub[len(name) - 1:]
                if "/" not in sub:
                    raise SystemExit(f"module argument {name}: object {path} "
                                     "is in no sub-folder")
                split.setdefault(name[:-1] + sub.split("/")[0], []).append(path)
            modules.extend(sorted(split.items()))
        else:
            modules.append((name, paths))
    return modules


def negative_control(nm, cc, modules, pair=None):
    objects = load(nm, modules)
    if check(objects):
        print("negative control: the unmodified modules fail")
        return 1
    low, high = pair or (modules[0][0], modules[1][0])
    edges, _, _ = graph(objects)
    if (high, low) not in edges:
        print(f"negative control: {high} does not call into {low}; the "
              "control needs that real edge")
        return 1
    # A function (nm type T) the second module defines.
    text = subprocess.run(
        [nm, "-A", "-g", "-P", "--defined-only"] +
        [p for p, (m, _, _) in objects.items() if m == high],
        check=True, capture_output=True, text=True).stdout
    target = sorted(line.partition(": ")[2].split()[0]
                    for line in text.splitlines()
                    if line.partition(": ")[2].split()[1:2] == ["T"])[0]
    with tempfile.TemporaryDirectory(prefix="rl_calls_") as tmp:
        source = os.path.join(tmp, "back_call.c")
        with open(source, "w", encoding="utf-8") as f:
            f.write(f"void {target}(void);\n"
                    "void rl_negative_control_back_call(void);\n"
                    "void rl_negative_control_back_call(void) "
                    f"{{ {target}(); }}\n")
        obj = os.path.join(tmp, "back_call.o")
        subprocess.run([cc, "-c", "-o", obj, source], check=True)
        objects[obj] = (low,) + read_objects(nm, [obj])[obj]
        failures = check(objects)
    expected = [f for f in failures
                if f.startswith("call cycle between modules")
                and f"{low} -> {high}: back_call.o calls {target}" in f]
    if len(failures) != 1 or len(expected) != 1:
        print(f"negative control: expected one cycle {low} <-> {high} "
              f"through back_call.o, got {failures}")
        return 1
    print("negative control: the injected call fails the check: "
          + expected[0].replace("\n", " |"))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nm", default="nm")
    parser.add_argument("--cc", default="cc")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--negative-control", action="store_true")
    parser.add_argument("--control", metavar="LOW,HIGH",
                        help="the negative control's two modules (default: "
                        "the first two given)")
    parser.add_argument("modules", nargs="+", metavar="MODULE=OBJ;...")
    args = parser.parse_args()
    modules = parse_modules(args.modules)
    if args.negative_control:
        pair = tuple(args.control.split(",")) if args.control else None
        return negative_control(args.nm, args.cc, modules, pair)
    failures = check(load(args.nm, modules), args.verbose)
    for failure in failures:
        print(failure)
    if failures:
        print(f"FAIL: {len(failures)} problem(s) in the module call graph")
        return 1
    print(f"OK: no call cycle between the {len({m for m, _ in modules})} "
          "modules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
