"""Fixtures: a vecchain capture recorded by the CLI ($REDLINE_BIN, else
`redline` on PATH) with the code objects of $REDLINE_KERNELS_DIR."""

import os
import shutil
import subprocess

import pytest


@pytest.fixture(scope="session")
def capture_path(tmp_path_factory):
    redline_bin = os.environ.get("REDLINE_BIN") or shutil.which("redline")
    if not redline_bin:
        pytest.skip("no redline CLI to record a capture with")
    path = tmp_path_factory.mktemp("captures") / "vecchain.rlc"
    subprocess.run([redline_bin, "capture", "--workload", "vecchain", "-o", str(path)],
                   check=True, stdout=subprocess.DEVNULL)
    return path


@pytest.fixture(scope="session")
def stuck_capture(tmp_path_factory):
    """A capture of tests/hip_corpus/stuck.hip ($REDLINE_STUCK_PROGRAM)
    made by `redline run --capture`: its one launch ends, a second run of it
    on the same state spins forever."""
    redline_bin = os.environ.get("REDLINE_BIN") or shutil.which("redline")
    program = os.environ.get("REDLINE_STUCK_PROGRAM")
    if not redline_bin or not program:
        pytest.skip("no redline CLI or no stuck program (REDLINE_STUCK_PROGRAM)")
    path = tmp_path_factory.mktemp("captures") / "stuck.rlc"
    subprocess.run([redline_bin, "run", "--capture", str(path), "--", program],
                   check=True, stdout=subprocess.DEVNULL)
    return path
