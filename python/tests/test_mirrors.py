"""The ctypes mirrors of the public C structs list the header's members in
the header's order (a member added in C but not here shifts every later
field: the library then reads garbage)."""
import os
import re

from redline import _lib

HEADERS = os.path.join(os.path.dirname(__file__), "..", "..", "redline",
                       "include", "redline")


def _members(header, struct):
    with open(os.path.join(HEADERS, header)) as f:
        text = f.read()
    body = re.search(r"typedef struct %s \{(.*?)\} " % struct, text, re.S).group(1)
    body = re.sub(r"//[^\n]*", "", body)
    return re.findall(r"([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[[^\]]*\])?\s*;", body)


def test_device_options_mirror():
    names = [name for name, _ in _lib.DeviceOptions._fields_]
    assert names == _members("replay.h", "rl_device_options_s")


def test_replay_options_mirror():
    names = [name for name, _ in _lib.ReplayOptions._fields_]
    assert names == _members("replay.h", "rl_replay_options_s")


def test_limits_mirror():
    names = [name for name, _ in _lib.Limits._fields_]
    assert names == _members("limits.h", "rl_limits_s")
