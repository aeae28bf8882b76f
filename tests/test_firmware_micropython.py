"""The firmware's logic under real MicroPython: the WebAssembly port from npm
(@micropython/micropython-webassembly-pyscript) run by Node through
tests/micropython/run.mjs, with fake machine/neopixel modules. ./run-tests
installs the npm package (npm install in tests/micropython)."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).parent / "micropython"
PACKAGE = HERE / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"


def run_node(script: Path | None = None) -> subprocess.CompletedProcess:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the firmware cannot be run under MicroPython here")
    if not PACKAGE.exists():
        pytest.skip("npm package @micropython/micropython-webassembly-pyscript missing: "
                    "run `npm install` in tests/micropython (./run-tests does)")
    args = [node, str(HERE / "run.mjs")] + ([str(script)] if script else [])
    return subprocess.run(args, cwd=HERE, capture_output=True, text=True, timeout=120)


def test_firmware_suite_passes_under_micropython():
    proc = run_node()
    out = proc.stdout + proc.stderr
    assert "IMPL micropython webassembly" in out, out
    m = re.search(r"MP-RESULT passed=(\d+) failed=(\d+)", out)
    assert m, out
    failures = [line for line in out.splitlines() if line.startswith("FAIL")]
    assert failures == [] and int(m.group(2)) == 0, out
    assert int(m.group(1)) >= 24, out
    assert proc.returncode == 0, out
    for name in ("test_crc_vectors", "test_frame_vectors", "test_led_vectors", "test_change_sent_twice",
                 "test_scan_reads_closed_switches", "test_debounce_filters_bounce",
                 "test_firmware_survives_garbage", "test_main_run_with_fake_hardware",
                 # the 10x10 board's 110-switch matrix (11 rows x 10 columns)
                 "test_10x10_config_and_scan", "test_10x10_bad_configs_fall_back",
                 "test_10x10_debounce_tenth_column", "test_10x10_firmware_frames_and_leds",
                 "test_10x10_main_run_with_fake_hardware", "test_10x10_memory_per_scan_is_small"):
        assert f"PASS {name}" in out, out


def test_runner_reports_a_failing_micropython_test(tmp_path):
    """The harness can fail: a deliberately wrong check is reported."""
    script = tmp_path / "bad.py"
    script.write_text("import mbproto\n"
                      "ok = mbproto.crc16(b'123456789') == 0x29B1\n"
                      "print('MP-RESULT passed=%d failed=%d' % (1 if ok else 0, 1))\n")
    proc = run_node(script)
    assert "MP-RESULT passed=1 failed=1" in proc.stdout, proc.stdout + proc.stderr
    assert proc.returncode == 1


def test_micropython_rejects_cpython_only_code(tmp_path):
    """It really is MicroPython: CPython-only syntax/features fail there."""
    script = tmp_path / "cpy.py"
    script.write_text("import sys\nprint('IMPL', sys.implementation.name)\n"
                      "ok = not hasattr(sys, 'getrefcount')\n"
                      "print('MP-RESULT passed=%d failed=%d' % (ok, not ok))\n")
    proc = run_node(script)
    assert "IMPL micropython" in proc.stdout
    assert proc.returncode == 0, proc.stdout
