"""ctypes declarations of libredline's public C API (redline/include/redline).

The structures mirror the C headers field for field; a change to a public
struct in the headers must be made here too (python/tests check the sizes
they can observe through the API).
"""

import ctypes
import ctypes.util
import os

c_char_p = ctypes.c_char_p
c_void_p = ctypes.c_void_p
u8, u32, u64, i64 = ctypes.c_uint8, ctypes.c_uint32, ctypes.c_uint64, ctypes.c_int64


class Digest128(ctypes.Structure):
    _fields_ = [("high", u64), ("low", u64)]


class Expr(ctypes.Structure):
    _fields_ = [("param", u32), ("add", i64), ("op", ctypes.c_int), ("operand", i64),
                ("scale", i64)]


class ScalarBinding(ctypes.Structure):
    _fields_ = [("target", ctypes.c_int), ("offset", u32), ("size", u32), ("expr", Expr)]


class PointerSlot(ctypes.Structure):
    _fields_ = [("kernarg_offset", u32), ("buffer", u32), ("offset", u64),
                ("effect", ctypes.c_int), ("source", ctypes.c_int),
                ("extent_offset", u64), ("extent_size", u64)]


class CodeObject(ctypes.Structure):
    _fields_ = [("bytes", ctypes.POINTER(u8)), ("size", ctypes.c_size_t),
                ("digest", Digest128), ("parsed", c_void_p)]


class Kernel(ctypes.Structure):
    _fields_ = [("code_object", u32), ("name", c_char_p), ("info", c_void_p)]


class Buffer(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("size", u64), ("alignment", u64),
                ("role", ctypes.c_int), ("capture_address", u64),
                ("keep_address", ctypes.c_bool), ("initial", ctypes.POINTER(u8)),
                # A code object variable when symbol is set (redline/capture.h).
                ("code_object", u32), ("symbol", c_char_p),
                ("symbol_offset", u64)]


class Param(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("min", i64), ("max", i64), ("capture_value", i64)]


class Launch(ctypes.Structure):
    _fields_ = [("kernel", u32), ("grid", u32 * 3), ("block", u32 * 3),
                ("dynamic_lds", u32), ("kernarg_size", u32),
                ("kernarg", ctypes.POINTER(u8)), ("slot_count", u32),
                ("slots", ctypes.POINTER(PointerSlot)), ("binding_count", u32),
                ("bindings", ctypes.POINTER(ScalarBinding)),
                ("cooperative", ctypes.c_bool)]


class Region(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("buffer", u32), ("offset", u64),
                ("size", u64), ("type", ctypes.c_int)]


class Window(ctypes.Structure):
    _fields_ = [("param", u32), ("start", i64), ("count", u32), ("stride", i64)]


class Capture(ctypes.Structure):
    _fields_ = [("workload", c_char_p), ("target", c_char_p),
                ("code_object_count", u32), ("code_object_capacity", u32),
                ("code_objects", ctypes.POINTER(CodeObject)),
                ("kernel_count", u32), ("kernel_capacity", u32),
                ("kernels", ctypes.POINTER(Kernel)),
                ("buffer_count", u32), ("buffer_capacity", u32),
                ("buffers", ctypes.POINTER(Buffer)),
                ("param_count", u32), ("param_capacity", u32),
                ("params", ctypes.POINTER(Param)),
                ("launch_count", u32), ("launch_capacity", u32),
                ("launches", ctypes.POINTER(Launch)),
                ("region_count", u32), ("region_capacity", u32),
                ("regions", ctypes.POINTER(Region)),
                ("window_count", u32), ("window_capacity", u32),
                ("windows", ctypes.POINTER(Window)),
                ("bypassed_launches", u32), ("incomplete_reason", c_char_p)]


class DeviceOptions(ctypes.Structure):
    _fields_ = [("kind", c_char_p), ("processor", c_char_p),
                ("adversarial", ctypes.c_bool), ("seed", u64),
                ("cache_model", c_char_p),
                ("library", c_char_p), ("executor", c_char_p),
                ("max_work_items", u64), ("max_dispatches", u32),
                ("no_hazard_check", ctypes.c_bool)]


class Limits(ctypes.Structure):
    _fields_ = [("max_decompressed_bytes", u64), ("max_device_bytes", u64),
                ("max_work_items", u64), ("max_dispatches", u32),
                ("wait_timeout_ns", u64), ("max_windows", u32),
                ("max_regions", u32), ("max_bindings", u32)]


class ReplayOptions(ctypes.Structure):
    _fields_ = [("checked", ctypes.c_bool), ("wait_timeout_ns", u64),
                ("queue_packets", u32), ("pm4_no_retain", ctypes.c_bool),
                ("spin_wait", ctypes.c_bool), ("pm4_device_patch", ctypes.c_bool),
                ("limits", Limits), ("stall_bound", ctypes.c_bool)]


class Admission(ctypes.Structure):
    _fields_ = [("admitted", ctypes.c_bool), ("reason", ctypes.c_char * 256)]


class RouteProof(ctypes.Structure):
    _fields_ = [("device", c_char_p), ("target", c_char_p), ("route", ctypes.c_int),
                ("state", ctypes.c_int), ("fallback_reason", ctypes.c_char * 256),
                ("replay_count", u64), ("dispatches", u32), ("packets", u32),
                ("waits", u32), ("queue_id", u32), ("stream_bytes", u64),
                ("patch_sites", u32), ("ib_dwords", u32)]


class ReplayCounters(ctypes.Structure):
    _fields_ = [(name, u64) for name in (
        "runs", "refused", "values_written", "values_unchanged",
        "packets_published", "doorbells", "host_ns", "doorbell_ns", "wait_ns",
        "last_host_ns", "last_wait_ns", "last_admit_ns", "last_apply_ns",
        "last_publish_ns")]


status_t = c_void_p
capture_p = ctypes.POINTER(Capture)

# name: (restype, argtypes)
_FUNCTIONS = {
    "rl_status_code": (ctypes.c_int, [status_t]),
    "rl_status_message": (c_char_p, [status_t]),
    "rl_status_code_name": (c_char_p, [ctypes.c_int]),
    "rl_status_free": (None, [status_t]),
    "rl_capture_file_read": (status_t, [c_char_p, ctypes.POINTER(capture_p), c_void_p]),
    "rl_capture_file_read_memory": (status_t, [c_void_p, ctypes.c_size_t,
                                               ctypes.POINTER(capture_p), c_void_p]),
    "rl_capture_file_write": (status_t, [capture_p, c_char_p, c_void_p]),
    "rl_capture_destroy": (None, [capture_p]),
    "rl_capture_identity": (status_t, [capture_p, ctypes.POINTER(Digest128)]),
    "rl_capture_validate": (status_t, [capture_p]),
    "rl_digest128_format": (None, [Digest128, ctypes.c_char_p]),
    "rl_buffer_role_name": (c_char_p, [ctypes.c_int]),
    "rl_region_type_name": (c_char_p, [ctypes.c_int]),
    "rl_effect_name": (c_char_p, [ctypes.c_int]),
    "rl_expr_format": (None, [capture_p, ctypes.POINTER(Expr), ctypes.c_char_p,
                              ctypes.c_size_t]),
    "rl_device_open": (status_t, [ctypes.POINTER(DeviceOptions), ctypes.POINTER(c_void_p)]),
    "rl_device_close": (None, [c_void_p]),
    "rl_device_target": (c_char_p, [c_void_p]),
    "rl_device_kind": (c_char_p, [c_void_p]),
    "rl_replay_create": (status_t, [c_void_p, capture_p, ctypes.POINTER(ReplayOptions),
                                    ctypes.POINTER(c_void_p)]),
    "rl_replay_destroy": (None, [c_void_p]),
    "rl_replay_bind_buffer": (status_t, [c_void_p, u32, u64, u64]),
    "rl_replay_contract": (status_t, [c_void_p]),
    "rl_replay_prepare": (status_t, [c_void_p, ctypes.c_int]),
    "rl_replay_admit": (status_t, [c_void_p, ctypes.POINTER(i64), u32,
                                   ctypes.POINTER(Admission)]),
    "rl_replay_run": (status_t, [c_void_p, ctypes.POINTER(i64), u32]),
    "rl_replay_proof": (None, [c_void_p, ctypes.POINTER(RouteProof)]),
    "rl_replay_counters": (None, [c_void_p, ctypes.POINTER(ReplayCounters)]),
    "rl_replay_state": (ctypes.c_int, [c_void_p]),
    "rl_replay_read_region": (status_t, [c_void_p, u32, c_void_p, u64,
                                         ctypes.POINTER(Digest128)]),
    "rl_route_name": (c_char_p, [ctypes.c_int]),
    "rl_route_parse": (ctypes.c_bool, [c_char_p, ctypes.POINTER(ctypes.c_int)]),
    "rl_replay_state_name": (c_char_p, [ctypes.c_int]),
    "rl_shadow_run_json": (status_t, [capture_p, c_char_p, ctypes.POINTER(c_void_p)]),
    "rl_bench_run_json": (status_t, [capture_p, c_char_p, ctypes.POINTER(c_void_p)]),
    "rl_json_free": (None, [c_void_p]),
}


def _load():
    """Loads libredline: $REDLINE_LIBRARY, else the SONAME libredline.so.0."""
    path = os.environ.get("REDLINE_LIBRARY") or "libredline.so.0"
    try:
        lib = ctypes.CDLL(path)
    except OSError as error:
        found = ctypes.util.find_library("redline")
        if not found:
            raise ImportError(
                f"redline: cannot load {path} ({error}); install libredline0 "
                "or set REDLINE_LIBRARY to the library's path") from error
        lib = ctypes.CDLL(found)
    for name, (restype, argtypes) in _FUNCTIONS.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes
    return lib


lib = _load()
