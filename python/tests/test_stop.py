"""Stop means stop (docs/failure-semantics.md, "A kernel that never ends"):
a replay whose kernel spins forever raises QUARANTINED after its bound, and
closing it stops the kernel, all within twice the bound."""

import time

import pytest

import redline

BOUND_MS = 1000


def test_spinning_replay_ends_within_twice_its_bound(stuck_capture):
    capture = redline.Capture.read(stuck_capture)
    start = time.monotonic()
    with redline.Device(executor="isa") as device:
        replay = device.replay(capture, timeout_ms=BOUND_MS)
        replay.prepare("aql")
        replay.run()  # control: the flag is set, the kernel consumes it
        assert replay.state == "replaying"
        with pytest.raises(redline.RedlineError) as error:
            replay.run()  # the flag is consumed: the kernel spins
        assert error.value.code_name == "QUARANTINED"
        assert replay.state == "quarantined"
        replay.close()  # stops the kernel still running
    took = time.monotonic() - start
    assert took < 2 * BOUND_MS / 1000, f"{took:.3f} s for a {BOUND_MS} ms bound"


def test_spinning_shadow_ends_within_twice_its_bound(stuck_capture):
    # Two windows at the capture's one value: the second spins (one arm;
    # with several, each waits its own bound, one after the other).
    capture = redline.Capture.read(stuck_capture)
    start = time.monotonic()
    report = capture.shadow(arms="aql", windows="0:2:0", executor="isa",
                            timeout_ms=BOUND_MS)
    took = time.monotonic() - start
    assert report["code_name"] == "QUARANTINED", report
    assert [a["failure_code"] for a in report["arms"]] == ["QUARANTINED"]
    assert took < 2 * BOUND_MS / 1000, f"{took:.3f} s for a {BOUND_MS} ms bound"
