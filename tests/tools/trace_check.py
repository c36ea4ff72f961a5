#!/usr/bin/env python3
"""Checks a `--trace` file against the Chrome/Perfetto trace-event format.

usage: trace_check.py TRACE [--dispatches N] [--processes NAME,...]
                           [--spans NAME,...]
       trace_check.py --self-test TRACE

The rules are those of Google's Trace Event Format (JSON object form) as
ui.perfetto.dev imports it, written here independently of the writer
(base/trace.c):
  - a JSON object with a "traceEvents" list;
  - every event has "ph", integer "pid" and "tid";
  - "M" events name processes and threads (process_name, thread_name,
    *_sort_index) with an "args" object;
  - "X" events have a name, numeric "ts" and "dur" >= 0, and the spans of one
    (pid, tid) nest: two spans either do not overlap or one contains the
    other (a viewer draws partial overlaps wrongly);
  - "C" events have a name, "ts" and numeric args;
  - "s"/"f" flow events come in pairs with the same "id", "f" binds to the
    enclosing slice ("bp": "e"), the "s" does not come after the "f", and
    each end lies inside an "X" span on its own track.
With --dispatches N the trace must hold exactly N spans of category
"dispatch"; with --processes the named processes, with --spans spans of
those names must be present.
--self-test checks that damaged copies of TRACE are rejected (the negative
controls), then that TRACE itself passes.
"""
import bisect
import copy
import json
import sys
from collections import defaultdict


def check(document, dispatches=None, processes=None, wanted_spans=None):
    problems = []
    if not isinstance(document, dict) or not isinstance(
            document.get("traceEvents"), list):
        return ["not an object with a traceEvents list"]
    spans = defaultdict(list)
    flows = defaultdict(dict)
    names = set()
    span_names = set()
    dispatch_count = 0
    for index, event in enumerate(document["traceEvents"]):
        where = f"event {index}"
        if not isinstance(event, dict):
            problems.append(f"{where}: not an object")
            continue
        phase = event.get("ph")
        if not all(isinstance(event.get(k), int) for k in ("pid", "tid")):
            problems.append(f"{where}: pid/tid missing or not integers")
            continue
        track = (event["pid"], event["tid"])
        if phase == "M":
            if event.get("name") not in ("process_name", "thread_name",
                                         "process_sort_index",
                                         "thread_sort_index"):
                problems.append(f"{where}: unknown metadata {event.get('name')}")
            elif not isinstance(event.get("args"), dict):
                problems.append(f"{where}: metadata without args")
            elif event["name"] == "process_name":
                names.add(event["args"].get("name"))
        elif phase == "X":
            ts, dur = event.get("ts"), event.get("dur")
            if not isinstance(event.get("name"), str) or not all(
                    isinstance(v, (int, float)) for v in (ts, dur)):
                problems.append(f"{where}: X without name, ts or dur")
                continue
            if ts < 0 or dur < 0:
                problems.append(f"{where}: negative ts or dur")
                continue
            # Microseconds to integer nanoseconds, as the viewers store them.
            start, length = round(ts * 1000), round(dur * 1000)
            spans[track].append((start, start + length, index))
            span_names.add(event["name"])
            if event.get("cat") == "dispatch":
                dispatch_count += 1
        elif phase == "C":
            args = event.get("args")
            if (not isinstance(event.get("name"), str)
                    or not isinstance(event.get("ts"), (int, float))
                    or not isinstance(args, dict) or not args or not all(
                        isinstance(v, (int, float)) for v in args.values())):
                problems.append(f"{where}: malformed counter")
        elif phase in ("s", "f"):
            if "id" not in event or not isinstance(event.get("ts"),
                                                   (int, float)):
                problems.append(f"{where}: flow without id or ts")
                continue
            if phase == "f" and event.get("bp") != "e":
                problems.append(f"{where}: flow end without bp=e")
            if phase in flows[event["id"]]:
                problems.append(f"{where}: second '{phase}' for flow "
                                f"{event['id']}")
            flows[event["id"]][phase] = (track, round(event["ts"] * 1000))
        else:
            problems.append(f"{where}: unknown phase {phase!r}")
    for track, items in spans.items():
        items.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for start, end, index in items:
            while stack and stack[-1][1] <= start:
                stack.pop()
            if stack and end > stack[-1][1]:
                problems.append(f"track {track}: span of event {index} overlaps "
                                f"event {stack[-1][2]} without nesting")
            stack.append((start, end, index))
    starts = {t: [s[0] for s in sorted(v)] for t, v in spans.items()}
    ordered = {t: sorted(v) for t, v in spans.items()}

    def inside(track, ts):
        i = bisect.bisect_right(starts.get(track, []), ts)
        return any(ordered[track][k][0] <= ts <= ordered[track][k][1]
                   for k in range(max(0, i - 64), i))

    for flow_id, ends in flows.items():
        if set(ends) != {"s", "f"}:
            problems.append(f"flow {flow_id}: only {sorted(ends)}")
            continue
        if ends["s"][1] > ends["f"][1]:
            problems.append(f"flow {flow_id}: ends before it starts")
        for phase, (track, ts) in ends.items():
            if not inside(track, ts):
                problems.append(f"flow {flow_id}: '{phase}' at {ts} is in no "
                                f"span of track {track}")
    if dispatches is not None and dispatch_count != dispatches:
        problems.append(f"{dispatch_count} dispatch spans, expected {dispatches}")
    for name in wanted_spans or []:
        if name not in span_names:
            problems.append(f"no span named {name!r}")
    for name in processes or []:
        if name not in names:
            problems.append(f"no process named {name!r} (have {sorted(names)})")
    return problems


def self_test(document):
    events = document["traceEvents"]
    first = {ph: next((i for i, e in enumerate(events) if e["ph"] == ph), None)
             for ph in ("X", "s")}
    if first["X"] is None:
        print("FAIL: no span to damage for the negative controls")
        return True
    damages = {}
    d = copy.deepcopy(document)
    del d["traceEvents"][first["X"]]["dur"]
    damages["span without dur"] = d
    d = copy.deepcopy(document)
    x = d["traceEvents"][first["X"]]
    d["traceEvents"].append(dict(x, ts=x["ts"] + x["dur"] / 2 + 0.001,
                                 dur=x["dur"] + 1000))
    damages["partially overlapping spans"] = d
    if first["s"] is not None:  # traces without arrows (redline run)
        d = copy.deepcopy(document)
        del d["traceEvents"][first["s"]]
        damages["flow without its start"] = d
        d = copy.deepcopy(document)
        d["traceEvents"][first["s"]]["ts"] = -5.0
        damages["flow start outside every span"] = d
    d = copy.deepcopy(document)
    d["traceEvents"][first["X"]]["ph"] = "Q"
    damages["unknown phase"] = d
    failed = False
    for what, damaged in damages.items():
        if not check(damaged):
            print(f"FAIL: negative control passed: {what}")
            failed = True
    return failed


def main(argv):
    args = argv[1:]
    test = args and args[0] == "--self-test"
    if test:
        args = args[1:]
    path = args[0]
    dispatches = processes = span_list = None
    if "--dispatches" in args:
        dispatches = int(args[args.index("--dispatches") + 1])
    if "--processes" in args:
        processes = args[args.index("--processes") + 1].split(",")
    if "--spans" in args:
        span_list = args[args.index("--spans") + 1].split(",")
    with open(path) as f:
        document = json.load(f)
    failed = self_test(document) if test else False
    problems = check(document, dispatches, processes, span_list)
    for problem in problems[:20]:
        print(f"FAIL: {path}: {problem}")
    if problems or failed:
        return 1
    print(f"{path}: {len(document['traceEvents'])} events, format ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
