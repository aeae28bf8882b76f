"""The systemd unit (``systemd-analyze verify`` and ``security``) and the
installer (run twice into a temporary root with the system tools it calls
replaced by logging stand-ins on PATH)."""
from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "maxima-board.service"
INSTALL = ROOT / "systemd" / "install.sh"
ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed "
                                   "(./run-tests installs it when run as root with apt-get)")


def _unit_keys() -> dict[str, list[str]]:
    keys: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            keys.setdefault(key, []).append(value)
    return keys


def test_unit_is_a_hardened_notify_service():
    keys = _unit_keys()
    assert keys["Type"] == ["notify"] and keys["NotifyAccess"] == ["main"]
    assert int(keys["WatchdogSec"][0]) > 0
    assert keys["User"] == ["maxima"]
    assert set(keys["SupplementaryGroups"][0].split()) == {"gpio", "i2c", "spi", "dialout"}
    assert keys["StateDirectory"] == ["maxima-board"]
    assert "MAXIMA_BOARD_DB=%S/maxima-board/games.db" in keys["Environment"]
    assert keys["ExecStart"][0].startswith("/opt/maxima-board/venv/bin/maxima-board run")
    assert keys["DevicePolicy"] == ["closed"]
    allowed = {v.split()[0] for v in keys["DeviceAllow"]}
    assert allowed == {"char-gpiochip", "char-i2c", "char-spi", "char-ttyACM"}
    assert "PrivateDevices" not in keys           # it would hide /dev/gpiochip*
    assert keys["ProtectSystem"] == ["strict"]
    assert "ProcSubset" not in keys               # gpiozero reads /proc/device-tree and /proc/cpuinfo


def test_unit_names_our_docs_and_waits_for_the_network():
    keys = _unit_keys()
    docs = keys["Documentation"]
    assert docs and all(not d.startswith("man:") for d in docs)
    for doc in docs:             # a file the installer puts there, from this checkout's docs/
        assert doc.startswith("file:/opt/maxima-board/docs/"), doc
        assert (ROOT / "docs" / doc.removeprefix("file:/opt/maxima-board/docs/")).is_file(), doc
    assert "network-online.target" in keys["Wants"][0].split()
    assert "network-online.target" in keys["After"][0].split()


def test_unit_lets_a_resolver_and_global_ipv6_through():
    """No IP allow list: DHCP's resolver (often a public address) answers the
    broker's host name, and the web page's browsers have global IPv6 addresses."""
    keys = _unit_keys()
    assert "IPAddressDeny" not in keys and "IPAddressAllow" not in keys
    assert set(keys["RestrictAddressFamilies"][0].split()) == {"AF_UNIX", "AF_INET", "AF_INET6"}


@needs_analyze
def test_unit_passes_systemd_analyze_verify(tmp_path: Path):
    """verify insists that ExecStart's program exists: check a copy of the
    unit whose ExecStart points at a stand-in executable."""
    program = tmp_path / "maxima-board"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    text = UNIT.read_text().replace("ExecStart=/opt/maxima-board/venv/bin/maxima-board", f"ExecStart={program}")
    assert text != UNIT.read_text()
    unit = tmp_path / "maxima-board.service"
    unit.write_text(text)
    result = subprocess.run([ANALYZE, "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert result.stderr == "" and result.returncode == 0, result.stderr
    # where man is not installed (Raspberry Pi OS Lite, containers) too: no man: page to look up
    result = subprocess.run([ANALYZE, "verify", str(unit)], capture_output=True, text=True, timeout=60,
                            env={"PATH": str(tmp_path / "no-such-dir")})
    assert result.stderr == "" and result.returncode == 0, result.stderr


@needs_analyze
def test_unit_exposure_is_at_most_2():
    result = subprocess.run([ANALYZE, "security", "--offline=true", "--no-pager", str(UNIT)],
                            capture_output=True, text=True, timeout=60)
    if "--offline" in result.stderr and "unrecognized" in result.stderr:
        pytest.skip("this systemd-analyze has no --offline (systemd < 252)")
    match = re.search(r"Overall exposure level for maxima-board\.service: (\d+\.\d+)", result.stdout)
    assert match, result.stdout + result.stderr
    assert float(match.group(1)) <= 2.0


# --------------------------------------------------------------------------- installer

STAND_INS = {
    # the installer must think it is root
    "id": 'if [ "$1" = "-u" ]; then echo 0; else exec /usr/bin/id "$@"; fi',
    # users and groups live in two files of the fake root
    "getent": 'grep -q "^$2:" "$FAKE/$1" 2>/dev/null && grep "^$2:" "$FAKE/$1"',
    "groupadd": 'for n; do :; done; echo "$n:x:999:" >> "$FAKE/group"',
    "useradd": 'for n; do :; done; echo "$n:x:999:999::/var/lib/maxima-board:/usr/sbin/nologin" >> "$FAKE/passwd"',
    "usermod": "true",
    "systemctl": "true",
    "udevadm": "true",
    # venv + pip without the network: a venv whose python logs pip calls and
    # runs everything else with the real interpreter on this checkout
    "python3": '''if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
    for d; do :; done
    mkdir -p "$d/bin"
    printf '#!/bin/sh\\nif [ "$1" = "-m" ] && [ "$2" = "pip" ]; then echo "pip $*" >> "$FAKE/log"; exit 0; fi\\nPYTHONPATH="$SRC" exec "$REAL_PYTHON" "$@"\\n' > "$d/bin/python"
    chmod +x "$d/bin/python"
    exit 0
fi
exec "$REAL_PYTHON" "$@"''',
}


def _stand_ins(bin_dir: Path) -> None:
    bin_dir.mkdir()
    for name, body in STAND_INS.items():
        path = bin_dir / name
        log = f'echo "{name} $*" >> "$FAKE/log"\n' if name not in ("id", "getent", "python3") else ""
        path.write_text(f"#!/bin/sh\n{log}{body}\n")
        path.chmod(path.stat().st_mode | stat.S_IEXEC)


def _install(tmp_path: Path) -> subprocess.CompletedProcess:
    env = {"PATH": f"{tmp_path / 'bin'}:/usr/bin:/bin", "ROOT": str(tmp_path / "root"), "FAKE": str(tmp_path),
           "SRC": str(ROOT), "REAL_PYTHON": sys.executable, "HOME": str(tmp_path)}
    return subprocess.run(["bash", str(INSTALL)], capture_output=True, text=True, env=env, timeout=120)


def test_installer_installs_and_is_safe_to_rerun(tmp_path: Path):
    _stand_ins(tmp_path / "bin")
    (tmp_path / "group").write_text("dialout:x:20:\ngpio:x:997:\n")
    (tmp_path / "passwd").write_text("root:x:0:0::/root:/bin/bash\n")
    root = tmp_path / "root"

    first = _install(tmp_path)
    assert first.returncode == 0, first.stderr
    config = root / "etc/maxima-board/config.toml"
    assert config.read_text() == (ROOT / "systemd/config.example.toml").read_text()
    assert (root / "etc/systemd/system/maxima-board.service").read_text() == UNIT.read_text()
    rules = (root / "etc/udev/rules.d/99-maxima-board.rules").read_text()
    assert 'SYMLINK+="maxima-pico"' in rules and 'GROUP="dialout"' in rules
    assert (root / "opt/maxima-board/venv/bin/python").exists()
    log = (tmp_path / "log").read_text().splitlines()
    assert [line.split()[-1] for line in log if line.startswith("groupadd")] == ["i2c", "spi"]
    assert sum(line.startswith("useradd") for line in log) == 1
    assert f"pip -m pip install --quiet --upgrade {ROOT}[pi]" in log
    # the config is still the example: nothing is enabled or started yet
    assert not any(line.startswith(("systemctl enable", "systemctl restart", "systemctl start")) for line in log)
    assert "still the example" in first.stdout

    config.write_text(config.read_text().replace('hardware = "direct"', 'hardware = "pico"'))
    (tmp_path / "log").write_text("")
    second = _install(tmp_path)
    assert second.returncode == 0, second.stderr
    assert 'hardware = "pico"' in config.read_text()                 # the user's config is kept
    assert "keeping" in second.stdout
    log = (tmp_path / "log").read_text().splitlines()
    assert not any(line.startswith(("useradd", "groupadd")) for line in log)
    assert "systemctl enable maxima-board.service" in log and "systemctl restart maxima-board.service" in log


def test_installer_never_starts_the_unedited_example_config(tmp_path: Path):
    """Re-running the installer without editing the config still starts
    nothing; once the config differs from the example, NO_START=1 enables the
    service without starting it."""
    _stand_ins(tmp_path / "bin")
    (tmp_path / "group").write_text("dialout:x:20:\ngpio:x:997:\ni2c:x:998:\nspi:x:999:\n")
    (tmp_path / "passwd").write_text("maxima:x:999:999::/:/bin/false\n")
    for _ in range(2):
        (tmp_path / "log").write_text("")
        result = _install(tmp_path)
        assert result.returncode == 0, result.stderr
        log = (tmp_path / "log").read_text().splitlines()
        assert "systemctl daemon-reload" in log
        assert not any(line.startswith(("systemctl enable", "systemctl restart", "systemctl start")) for line in log)
        assert "sudo systemctl enable --now maxima-board" in result.stdout
    config = tmp_path / "root/etc/maxima-board/config.toml"
    config.write_text(config.read_text().replace('address = 0x3C', 'address = 0x3D'))
    (tmp_path / "log").write_text("")
    env_result = subprocess.run(["bash", str(INSTALL)], capture_output=True, text=True, timeout=120, env={
        "PATH": f"{tmp_path / 'bin'}:/usr/bin:/bin", "ROOT": str(tmp_path / "root"), "FAKE": str(tmp_path),
        "SRC": str(ROOT), "REAL_PYTHON": sys.executable, "HOME": str(tmp_path), "MAXIMA_BOARD_NO_START": "1"})
    assert env_result.returncode == 0, env_result.stderr
    log = (tmp_path / "log").read_text().splitlines()
    assert "systemctl enable maxima-board.service" in log and not any("restart" in line for line in log)


def test_installer_warns_about_a_bad_config(tmp_path: Path):
    _stand_ins(tmp_path / "bin")
    (tmp_path / "group").write_text("dialout:x:20:\ngpio:x:997:\ni2c:x:998:\nspi:x:999:\n")
    (tmp_path / "passwd").write_text("maxima:x:999:999::/:/bin/false\n")
    config = tmp_path / "root/etc/maxima-board/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('hardware = "direct"\n[oled]\nadress = 0x3C\n')
    result = _install(tmp_path)
    assert result.returncode == 0
    assert result.stderr == f'config {config}: [oled] adress: unknown key (did you mean "address"?)\n'
    assert "warning: the config above has an error" in result.stdout


def test_installer_refuses_to_run_unprivileged():
    if os.geteuid() == 0:
        pytest.skip("running as root")
    result = subprocess.run(["bash", str(INSTALL)], capture_output=True, text=True, timeout=30)
    assert result.returncode == 1 and result.stderr.startswith("install.sh: run as root")
