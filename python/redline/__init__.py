"""Python bindings of libredline, the PM4/AQL command-stream replay engine.

ctypes over the public C API (redline/include/redline/*.h); no compiled
extension. Every C error becomes a RedlineError carrying the status code,
its name and the message::

    import redline
    capture = redline.Capture.read("step.rlc")
    print(capture.launches[0].kernel, capture.buffers[0].role)
    with redline.Device() as device, device.replay(capture) as replay:
        replay.contract()
        replay.prepare("aql")
        if replay.admit(pos=40).admitted:
            replay.run(pos=40)
        print(replay.proof(), replay.region_hashes())
    report = capture.shadow(arms="eager,aql,pm4", windows="30:4")
    assert report["verdict"] == "PASS"

The library is found through $REDLINE_LIBRARY, else its SONAME
libredline.so.0 on the default library path.
"""

import ctypes
import json
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from redline import _lib
from redline._lib import lib

__all__ = [
    "RedlineError", "Capture", "Device", "Replay", "Admission",
    "Kernel", "Buffer", "Param", "Launch", "PointerSlot", "Binding",
    "Region", "Window", "STATUS_CODES",
]
__version__ = "0.1.0"

# Status codes of redline/status.h: what failed (the CLI's exit codes are a
# separate table, tools/exit_code.h).
STATUS_CODES = {
    0: "OK", 1: "MISMATCH", 2: "INVALID_ARGUMENT", 3: "INVALID_INPUT",
    4: "CONTRACT", 5: "PREPARE", 6: "POISONED", 7: "QUARANTINED",
    8: "UNAVAILABLE", 9: "UNSUPPORTED", 10: "IO", 11: "NOT_FOUND",
    12: "OUT_OF_MEMORY", 13: "INTERNAL",
}


class RedlineError(Exception):
    """A failed call: |code| (int), |code_name| ("CONTRACT") and |message|."""

    def __init__(self, code: int, message: str):
        self.code = code
        self.code_name = _str(lib.rl_status_code_name(code))
        self.message = message
        super().__init__(f"{self.code_name} ({code}): {message}")


def _str(value: Optional[bytes]) -> Optional[str]:
    return value.decode("utf-8", "replace") if value is not None else None


def _check(status) -> None:
    """Raises RedlineError for a non-OK rl_status_t, freeing it."""
    if not status:
        return
    code = lib.rl_status_code(status)
    message = _str(lib.rl_status_message(status))
    lib.rl_status_free(status)
    raise RedlineError(code, message)


def _hex(digest: _lib.Digest128) -> str:
    out = ctypes.create_string_buffer(33)
    lib.rl_digest128_format(digest, out)
    return out.value.decode()


# --------------------------------------------------------------------------
# Capture model: plain Python objects copied out of the C capture.
# --------------------------------------------------------------------------

@dataclass
class Kernel:
    index: int
    name: str
    code_object: int


@dataclass
class Buffer:
    index: int
    name: str
    size: int
    alignment: int
    role: str
    capture_address: int
    keep_address: bool
    has_initial: bool


@dataclass
class Param:
    index: int
    name: str
    min: int
    max: int  # the admitted range is [min, max)
    capture_value: int


@dataclass
class PointerSlot:
    kernarg_offset: int
    buffer: int
    offset: int
    effect: str
    extent_offset: int
    extent_size: int


@dataclass
class Binding:
    target: str  # "kernarg", "grid" or "pointer_offset"
    offset: int  # kernarg byte offset, grid axis or pointer slot index
    size: int
    expr: str    # "pos+1", "ceil((pos+1)/64)"


@dataclass
class Launch:
    index: int
    kernel: str
    grid: tuple
    block: tuple
    dynamic_lds: int
    kernarg: bytes
    slots: List[PointerSlot] = field(default_factory=list)
    bindings: List[Binding] = field(default_factory=list)


@dataclass
class Region:
    index: int
    name: str
    buffer: int
    offset: int
    size: int
    type: str


@dataclass
class Window:
    param: str
    start: int
    count: int
    stride: int


class Capture:
    """A capture (redline/capture.h) read from a .rlc file or bytes.

    The model is exposed as lists of dataclasses: kernels, buffers, params,
    launches (with their pointer slots and scalar bindings), regions and
    windows. Close it (or use it as a context manager) to free it now.
    """

    def __init__(self, pointer):
        self._ptr = pointer
        self._load_model()

    @classmethod
    def read(cls, path: str) -> "Capture":
        out = _lib.capture_p()
        _check(lib.rl_capture_file_read(str(path).encode(), ctypes.byref(out), None))
        return cls(out)

    @classmethod
    def from_bytes(cls, data: bytes) -> "Capture":
        out = _lib.capture_p()
        buffer = ctypes.create_string_buffer(bytes(data), len(data))
        _check(lib.rl_capture_file_read_memory(buffer, len(data), ctypes.byref(out), None))
        return cls(out)

    def _load_model(self) -> None:
        c = self._ptr.contents
        self.workload = _str(c.workload)
        self.target = _str(c.target)
        self.incomplete_reason = _str(c.incomplete_reason)
        self.bypassed_launches = c.bypassed_launches
        self.kernels = [Kernel(i, _str(k.name), k.code_object)
                        for i, k in enumerate(c.kernels[:c.kernel_count])]
        self.buffers = [
            Buffer(i, _str(b.name), b.size, b.alignment,
                   _str(lib.rl_buffer_role_name(b.role)), b.capture_address,
                   b.keep_address, bool(b.initial))
            for i, b in enumerate(c.buffers[:c.buffer_count])]
        self.params = [Param(i, _str(p.name), p.min, p.max, p.capture_value)
                       for i, p in enumerate(c.params[:c.param_count])]
        self.launches = [self._launch(i, l)
                         for i, l in enumerate(c.launches[:c.launch_count])]
        self.regions = [
            Region(i, _str(r.name), r.buffer, r.offset, r.size,
                   _str(lib.rl_region_type_name(r.type)))
            for i, r in enumerate(c.regions[:c.region_count])]
        self.windows = [
            Window(self.params[w.param].name if w.param < len(self.params) else None,
                   w.start, w.count, w.stride)
            for w in c.windows[:c.window_count]]

    def _launch(self, index: int, launch) -> Launch:
        slots = [PointerSlot(s.kernarg_offset, s.buffer, s.offset,
                             _str(lib.rl_effect_name(s.effect)),
                             s.extent_offset, s.extent_size)
                 for s in launch.slots[:launch.slot_count]]
        bindings = []
        for b in launch.bindings[:launch.binding_count]:
            text = ctypes.create_string_buffer(128)
            expr = b.expr
            lib.rl_expr_format(self._ptr, ctypes.byref(expr), text, len(text))
            target = {1: "grid", 2: "pointer_offset"}.get(b.target, "kernarg")
            bindings.append(Binding(target,
                                    b.offset, b.size, text.value.decode()))
        return Launch(index, self.kernels[launch.kernel].name,
                      tuple(launch.grid), tuple(launch.block), launch.dynamic_lds,
                      ctypes.string_at(launch.kernarg, launch.kernarg_size),
                      slots, bindings)

    @property
    def identity(self) -> str:
        """XXH3-128 of the canonical content, as 32 hex digits."""
        digest = _lib.Digest128()
        _check(lib.rl_capture_identity(self._ptr, ctypes.byref(digest)))
        return _hex(digest)

    def validate(self) -> None:
        _check(lib.rl_capture_validate(self._ptr))

    def write(self, path: str) -> None:
        _check(lib.rl_capture_file_write(self._ptr, str(path).encode(), None))

    def _json_run(self, function, options: dict) -> dict:
        out = ctypes.c_void_p()
        _check(function(self._ptr, json.dumps(options).encode(), ctypes.byref(out)))
        try:
            return json.loads(ctypes.string_at(out.value).decode())
        finally:
            lib.rl_json_free(out)

    def shadow(self, **options) -> dict:
        """Shadow parity run (redline/shadow_json.h): arms, windows,
        processor, executor, adversarial, seed, oracle ("sample" by
        default, "full" or "off": the oracle executor). Returns the JSON report as a
        dict; "verdict" is "PASS" or "FAIL", "code" the status code of the
        result (0 on PASS, 1 on a divergence) and "code_name" its name."""
        return self._json_run(lib.rl_shadow_run_json, options)

    def bench(self, **options) -> dict:
        """Interleaved benchmark (redline/shadow_json.h): as shadow, plus
        rounds. Returns the JSON report as a dict."""
        return self._json_run(lib.rl_bench_run_json, options)

    def param_values(self, **values) -> List[int]:
        """One value per capture parameter, in capture order: the capture's
        own value unless overridden by name."""
        unknown = set(values) - {p.name for p in self.params}
        if unknown:
            raise RedlineError(2, f"unknown parameter(s): {', '.join(sorted(unknown))}")
        return [values.get(p.name, p.capture_value) for p in self.params]

    def close(self) -> None:
        if self._ptr:
            lib.rl_capture_destroy(self._ptr)
            self._ptr = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass


# --------------------------------------------------------------------------
# Devices and replays
# --------------------------------------------------------------------------

class Device:
    """A device (redline/replay.h): "sim" by default, gfx1100."""

    def __init__(self, kind: str = "sim", processor: Optional[str] = None,
                 executor: Optional[str] = None, adversarial: bool = False,
                 seed: int = 0, library: Optional[str] = None):
        self._keep = [s.encode() if s else None for s in (kind, processor, library, executor)]
        options = _lib.DeviceOptions(kind=self._keep[0], processor=self._keep[1],
                                     adversarial=adversarial, seed=seed,
                                     library=self._keep[2], executor=self._keep[3])
        self._ptr = ctypes.c_void_p()
        _check(lib.rl_device_open(ctypes.byref(options), ctypes.byref(self._ptr)))
        self._replays = []

    @property
    def target(self) -> str:
        return _str(lib.rl_device_target(self._ptr))

    @property
    def kind(self) -> str:
        return _str(lib.rl_device_kind(self._ptr))

    def replay(self, capture: Capture, checked: bool = False,
               spin_wait: bool = False, device_patch: bool = False,
               timeout_ms: int = 0) -> "Replay":
        replay = Replay(self, capture, checked, spin_wait, device_patch,
                        timeout_ms)
        self._replays.append(replay)
        return replay

    def close(self) -> None:
        for replay in self._replays:
            replay.close()
        self._replays = []
        if self._ptr:
            lib.rl_device_close(self._ptr)
            self._ptr = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


@dataclass
class Admission:
    admitted: bool
    reason: str


class Replay:
    """A replay of a capture on a device: contract, prepare, admit, run,
    proof, region reads and hashes. Parameter values are given by name
    (missing ones take the capture's value) or as a list in capture order."""

    def __init__(self, device: Device, capture: Capture, checked: bool = False,
                 spin_wait: bool = False, device_patch: bool = False,
                 timeout_ms: int = 0):
        # spin_wait: poll the completion signal for the whole step (the
        # lowest latency, one host core busy while the device runs).
        # device_patch (route pm4): the command processor copies changed
        # kernarg values from one slot per expression (pm4_device_patch).
        # timeout_ms: the bound of each run's wait (0: the library's, 10 s);
        # a run that outlives it raises QUARANTINED, and closing the replay
        # stops the kernel still running.
        self.device = device
        self.capture = capture  # kept alive: the C replay borrows it
        options = _lib.ReplayOptions(checked=checked, spin_wait=spin_wait,
                                     pm4_device_patch=device_patch,
                                     wait_timeout_ns=timeout_ms * 1000000)
        self._ptr = ctypes.c_void_p()
        _check(lib.rl_replay_create(device._ptr, capture._ptr, ctypes.byref(options),
                                    ctypes.byref(self._ptr)))

    def _values(self, values, named):
        if values is None:
            values = self.capture.param_values(**named)
        array = (ctypes.c_int64 * max(len(values), 1))(*values)
        return array, len(values)

    def bind_buffer(self, buffer, device_address: int, size: int) -> None:
        index = buffer if isinstance(buffer, int) else \
            next(b.index for b in self.capture.buffers if b.name == buffer)
        _check(lib.rl_replay_bind_buffer(self._ptr, index, device_address, size))

    def contract(self) -> None:
        _check(lib.rl_replay_contract(self._ptr))

    def prepare(self, route: str = "aql") -> None:
        value = ctypes.c_int()
        if not lib.rl_route_parse(route.encode(), ctypes.byref(value)):
            raise RedlineError(2, f"unknown route '{route}' (aql, pm4, drm)")
        _check(lib.rl_replay_prepare(self._ptr, value.value))

    def admit(self, values: Optional[List[int]] = None, **named) -> Admission:
        array, count = self._values(values, named)
        out = _lib.Admission()
        _check(lib.rl_replay_admit(self._ptr, array, count, ctypes.byref(out)))
        return Admission(out.admitted, out.reason.decode("utf-8", "replace"))

    def run(self, values: Optional[List[int]] = None, **named) -> None:
        array, count = self._values(values, named)
        _check(lib.rl_replay_run(self._ptr, array, count))

    @property
    def state(self) -> str:
        return _str(lib.rl_replay_state_name(lib.rl_replay_state(self._ptr)))

    def proof(self) -> Dict[str, object]:
        p = _lib.RouteProof()
        lib.rl_replay_proof(self._ptr, ctypes.byref(p))
        return {
            "device": _str(p.device), "target": _str(p.target),
            "route": _str(lib.rl_route_name(p.route)),
            "state": _str(lib.rl_replay_state_name(p.state)),
            "fallback_reason": p.fallback_reason.decode("utf-8", "replace"),
            "replay_count": p.replay_count, "dispatches": p.dispatches,
            "packets": p.packets, "waits": p.waits, "queue_id": p.queue_id,
            "stream_bytes": p.stream_bytes, "patch_sites": p.patch_sites,
            "ib_dwords": p.ib_dwords,
        }

    def counters(self) -> Dict[str, int]:
        c = _lib.ReplayCounters()
        lib.rl_replay_counters(self._ptr, ctypes.byref(c))
        return {name: getattr(c, name) for name, _ in c._fields_}

    def _region(self, region) -> Region:
        if isinstance(region, int):
            return self.capture.regions[region]
        for r in self.capture.regions:
            if r.name == region:
                return r
        raise RedlineError(2, f"the capture has no region '{region}'")

    def read_region(self, region) -> bytes:
        r = self._region(region)
        data = ctypes.create_string_buffer(r.size)
        _check(lib.rl_replay_read_region(self._ptr, r.index, data, r.size, None))
        return data.raw

    def region_hash(self, region) -> str:
        r = self._region(region)
        digest = _lib.Digest128()
        _check(lib.rl_replay_read_region(self._ptr, r.index, None, r.size,
                                         ctypes.byref(digest)))
        return _hex(digest)

    def region_hashes(self) -> Dict[str, str]:
        """XXH3-128 of every state region, by name."""
        return {r.name: self.region_hash(r.index) for r in self.capture.regions}

    def close(self) -> None:
        if self._ptr:
            lib.rl_replay_destroy(self._ptr)
            self._ptr = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
