"""The Python bindings over libredline, on the simulated device."""

import pytest

import redline


def test_capture_model(capture_path):
    with redline.Capture.read(capture_path) as capture:
        assert capture.workload == "vecchain"
        assert capture.target.endswith("gfx1100")
        assert capture.kernels and capture.launches and capture.buffers
        assert [p.name for p in capture.params] == ["pos"]
        launch = capture.launches[0]
        assert launch.kernel in {k.name for k in capture.kernels}
        assert len(launch.kernarg) > 0 and len(launch.grid) == 3
        assert any(b.expr.startswith("pos") or "pos" in b.expr
                   for l in capture.launches for b in l.bindings)
        assert all(s.buffer < len(capture.buffers)
                   for l in capture.launches for s in l.slots)
        assert {b.role for b in capture.buffers} <= {
            "weights", "state", "scratch", "io", "workspace"}
        assert capture.regions and capture.windows
        assert len(capture.identity) == 32
        capture.validate()


def test_capture_round_trip(capture_path, tmp_path):
    capture = redline.Capture.read(capture_path)
    capture.write(tmp_path / "again.rlc")
    again = redline.Capture.from_bytes((tmp_path / "again.rlc").read_bytes())
    assert again.identity == capture.identity


def test_replay_lifecycle(capture_path):
    capture = redline.Capture.read(capture_path)
    with redline.Device() as device:
        assert device.kind == "sim" and device.target.endswith("gfx1100")
        replay = device.replay(capture)
        assert replay.state == "captured"
        replay.contract()
        replay.prepare("aql")
        for pos in (1, 2, 3):
            assert replay.admit(pos=pos).admitted
            replay.run(pos=pos)
        refused = replay.admit(pos=-5)
        assert not refused.admitted and refused.reason
        proof = replay.proof()
        assert proof["route"] == "aql" and proof["replay_count"] == 3
        assert proof["state"] == "replaying"
        hashes = replay.region_hashes()
        assert set(hashes) == {r.name for r in capture.regions}
        assert all(len(h) == 32 for h in hashes.values())
        region = capture.regions[0]
        assert len(replay.read_region(region.name)) == region.size
        assert replay.counters()["runs"] == 3


def test_routes_agree(capture_path):
    capture = redline.Capture.read(capture_path)
    hashes = {}
    with redline.Device() as device:
        for route, spin, relay in (("aql", False, False),
                                   ("pm4", False, False),
                                   ("pm4", True, False),
                                   ("pm4", False, True)):
            replay = device.replay(capture, spin_wait=spin,
                                   device_patch=relay)
            replay.prepare(route)
            replay.run(pos=5)
            replay.run(pos=9)
            hashes[(route, spin, relay)] = replay.region_hashes()
            replay.close()
    assert hashes[("aql", False, False)] == hashes[("pm4", False, False)]
    assert hashes[("pm4", True, False)] == hashes[("pm4", False, False)]
    assert hashes[("pm4", False, True)] == hashes[("pm4", False, False)]


def test_errors_carry_status(capture_path):
    capture = redline.Capture.read(capture_path)
    with pytest.raises(redline.RedlineError) as error:
        redline.Capture.read("/nonexistent/capture.rlc")
    assert error.value.code == 10 and error.value.code_name == "IO"
    assert "/nonexistent/capture.rlc" in error.value.message
    with redline.Device() as device:
        replay = device.replay(capture)
        replay.prepare("aql")
        with pytest.raises(redline.RedlineError) as error:
            replay.run(pos=-5)  # not admitted: a contract refusal
        assert error.value.code == 4 and error.value.code_name == "CONTRACT"
    with pytest.raises(redline.RedlineError) as error:
        redline.Device(kind="nosuch")
    assert error.value.code in (2, 8)


def test_shadow_and_bench(capture_path):
    capture = redline.Capture.read(capture_path)
    report = capture.shadow(arms="eager,aql,pm4", windows="1:3")
    assert report["verdict"] == "PASS" and report["code"] == 0
    assert [a["arm"] for a in report["arms"]] == ["eager", "aql", "pm4"]
    assert len(report["windows"]) == 3
    bench = capture.bench(arms="eager,aql", windows="1:2", rounds=1)
    assert bench["verdict"] == "PASS" and bench["code"] == 0
    with pytest.raises(redline.RedlineError) as error:
        capture.shadow(nosuch=1)
    assert error.value.code == 2


def test_shadow_oracle_option(capture_path):
    # The oracle executor checks the isa arm by default, as the CLI's
    # --oracle does; "off" leaves it out; another value is refused.
    capture = redline.Capture.read(capture_path)
    report = capture.shadow(arms="eager", windows="1:1", executor="isa")
    assert report["verdict"] == "PASS"
    assert report["oracle"]["mode"] == "sample"
    assert report["oracle"]["workgroups_checked"] > 0
    off = capture.shadow(arms="eager", windows="1:1", executor="isa", oracle="off")
    assert "oracle" not in off
    full = capture.shadow(arms="eager", windows="1:1", executor="isa", oracle="full")
    assert full["oracle"]["workgroups_checked"] == full["oracle"]["workgroups"] - \
        full["oracle"]["workgroups_skipped"]
    with pytest.raises(redline.RedlineError) as error:
        capture.shadow(oracle="sometimes")
    assert error.value.code == 2
