"""The systemd unit (``systemd-analyze verify`` and ``security``) and the
installer's decisions (run into a temporary root with the system tools it calls
replaced by logging stand-ins on PATH, pip among them; tests/test_install.py
runs it with the real tools)."""
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
    # users and groups: the files of the temporary root (the installer passes --prefix "$ROOT")
    "groupadd": 'for n; do :; done; echo "$n:x:999:" >> "$ROOT/etc/group"',
    "useradd": 'for n; do :; done; echo "$n:x:999:999::/var/lib/maxima-board:/usr/sbin/nologin" >> "$ROOT/etc/passwd"',
    "usermod": "true",
    "systemctl": "true",
    "udevadm": "true",
    "apt-get": "true",
    # venv + pip without the network: a venv whose python logs pip calls and
    # runs everything else with the real interpreter on this checkout
    "python3": """if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
    for d; do :; done
    mkdir -p "$d/bin"
    printf '#!/bin/sh\\nif [ "$1" = "-m" ] && [ "$2" = "pip" ]; then echo "pip $*" >> "$FAKE/log"; case "$*" in *"[pi]"*) if [ -n "$FAIL_PI" ]; then echo "ERROR: Failed building wheel for spidev" >&2; exit 1; fi;; esac; exit 0; fi\\nPYTHONPATH="$SRC" exec "$REAL_PYTHON" "$@"\\n' > "$d/bin/python"
    printf '#!/bin/sh\\nPYTHONPATH="$SRC" exec "$REAL_PYTHON" -m maxima_board.cli.main "$@"\\n' > "$d/bin/maxima-board"
    chmod +x "$d/bin/python" "$d/bin/maxima-board"
    exit 0
fi
exec "$REAL_PYTHON" "$@"
""",
}


def _stand_ins(bin_dir: Path) -> None:
    bin_dir.mkdir()
    for name, body in STAND_INS.items():
        path = bin_dir / name
        log = f'echo "{name} $*" >> "$FAKE/log"\n' if name not in ("id", "python3") else ""
        path.write_text(f"#!/bin/sh\n{log}{body}\n")
        path.chmod(path.stat().st_mode | stat.S_IEXEC)


def _fake_root(tmp_path: Path, groups: str, passwd: str) -> Path:
    etc = tmp_path / "root" / "etc"
    etc.mkdir(parents=True)
    (etc / "group").write_text(groups)
    (etc / "passwd").write_text(passwd)
    return tmp_path / "root"


def _install(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    env = {"PATH": f"{tmp_path / 'bin'}:/usr/bin:/bin", "ROOT": str(tmp_path / "root"), "FAKE": str(tmp_path),
           "SRC": str(ROOT), "REAL_PYTHON": sys.executable, "HOME": str(tmp_path), **env}
    return subprocess.run(["bash", str(INSTALL), *args], capture_output=True, text=True, env=env, timeout=120)


def _log(tmp_path: Path) -> list[str]:
    log = tmp_path / "log"
    lines = log.read_text().splitlines() if log.exists() else []
    log.write_text("")
    return lines


def test_installer_installs_and_is_safe_to_rerun(tmp_path: Path):
    _stand_ins(tmp_path / "bin")
    root = _fake_root(tmp_path, "dialout:x:20:\ngpio:x:997:\n", "root:x:0:0::/root:/bin/bash\n")

    first = _install(tmp_path)
    assert first.returncode == 0, first.stderr
    config = root / "etc/maxima-board/config.toml"
    assert config.read_text() == (ROOT / "systemd/config.example.toml").read_text()
    assert (root / "etc/systemd/system/maxima-board.service").read_text() == UNIT.read_text()
    rules = (root / "etc/udev/rules.d/99-maxima-board.rules").read_text()
    assert 'SYMLINK+="maxima-pico"' in rules and 'GROUP="dialout"' in rules
    assert (root / "opt/maxima-board/venv/bin/python").exists()
    log = _log(tmp_path)
    assert [line.split()[-1] for line in log if line.startswith("groupadd")] == ["i2c", "spi"]
    assert all(f"--prefix {root}" in line for line in log if line.startswith(("groupadd", "useradd", "usermod")))
    assert sum(line.startswith("useradd") for line in log) == 1
    pip = [line for line in log if line.startswith("pip -m pip install") and "[pi]" in line]
    assert len(pip) == 1 and "--no-cache-dir" in pip[0]
    built_in = pip[0].split()[-1].removesuffix("[pi]")
    assert not built_in.startswith(str(ROOT)) and not Path(built_in).exists()   # a copy, removed afterwards
    # the config is still the example: nothing is enabled or started yet; under ROOT nothing live runs
    assert not any(line.startswith("systemctl") for line in log) and not any("udevadm" in line for line in log)
    assert not any(line.startswith("apt-get") for line in log)
    assert "still the example" in first.stdout and "not running systemctl daemon-reload" in first.stdout

    config.write_text(config.read_text().replace('hardware = "direct"', 'hardware = "pico"'))
    second = _install(tmp_path)
    assert second.returncode == 0, second.stderr
    assert 'hardware = "pico"' in config.read_text()                 # the user's config is kept
    assert "keeping" in second.stdout
    log = _log(tmp_path)
    assert not any(line.startswith(("useradd", "groupadd")) for line in log)
    assert f"systemctl --root={root} enable maxima-board.service" in log
    assert "not running systemctl restart maxima-board.service" in second.stdout


def test_installer_adds_device_rules_only_without_raspberry_pi_os_rules(tmp_path: Path):
    """Another Debian image: gpiochip, spidev, i2c-dev and ttyACM for the
    service's groups. Raspberry Pi OS (its 99-com.rules): nothing of ours."""
    _stand_ins(tmp_path / "bin")
    root = _fake_root(tmp_path, "dialout:x:20:\ngpio:x:997:\ni2c:x:998:\nspi:x:999:\n", "maxima:x:999:999::/:/bin/false\n")
    assert _install(tmp_path).returncode == 0
    ours = root / "etc/udev/rules.d/60-maxima-board-devices.rules"
    text = ours.read_text()
    for kernel, group in (("gpiochip*", "gpio"), ("spidev*", "spi"), ("i2c-[0-9]*", "i2c"), ("ttyACM[0-9]*", "dialout")):
        assert f'KERNEL=="{kernel}", GROUP="{group}", MODE="0660"' in text
    unit_groups = set(_unit_keys()["SupplementaryGroups"][0].split())
    assert {g.split('GROUP="')[1].split('"')[0] for g in text.splitlines() if "GROUP=" in g} <= unit_groups
    (root / "usr/lib/udev/rules.d").mkdir(parents=True)
    (root / "usr/lib/udev/rules.d/99-com.rules").write_text('SUBSYSTEM=="gpio", GROUP="gpio"\n')
    assert _install(tmp_path).returncode == 0
    assert not ours.exists()


def test_installer_never_starts_the_unedited_example_config(tmp_path: Path):
    """Re-running the installer without editing the config enables nothing;
    once the config differs from the example it is enabled, and with
    MAXIMA_BOARD_NO_START=1 not (re)started."""
    _stand_ins(tmp_path / "bin")
    _fake_root(tmp_path, "dialout:x:20:\ngpio:x:997:\ni2c:x:998:\nspi:x:999:\n", "maxima:x:999:999::/:/bin/false\n")
    for _ in range(2):
        result = _install(tmp_path)
        assert result.returncode == 0, result.stderr
        assert not any(line.startswith("systemctl") for line in _log(tmp_path))
        assert "sudo systemctl enable --now maxima-board" in result.stdout
    config = tmp_path / "root/etc/maxima-board/config.toml"
    config.write_text(config.read_text().replace('address = 0x3C', 'address = 0x3D'))
    result = _install(tmp_path, MAXIMA_BOARD_NO_START="1")
    assert result.returncode == 0, result.stderr
    assert any(line.endswith("enable maxima-board.service") for line in _log(tmp_path))
    assert "restart" not in result.stdout and "start it with: sudo systemctl start maxima-board" in result.stdout


def test_installer_warns_about_a_bad_config(tmp_path: Path):
    _stand_ins(tmp_path / "bin")
    root = _fake_root(tmp_path, "dialout:x:20:\ngpio:x:997:\ni2c:x:998:\nspi:x:999:\n", "maxima:x:999:999::/:/bin/false\n")
    config = root / "etc/maxima-board/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('hardware = "direct"\n[oled]\nadress = 0x3C\n')
    result = _install(tmp_path)
    assert result.returncode == 0
    assert f'config {config}: [oled] adress: unknown key (did you mean "address"?)\n' in result.stderr
    assert "warning: the config above has an error" in result.stdout


def test_installer_uninstalls_and_keeps_the_config(tmp_path: Path):
    _stand_ins(tmp_path / "bin")
    root = _fake_root(tmp_path, "dialout:x:20:\ngpio:x:997:\ni2c:x:998:\nspi:x:999:\n", "maxima:x:999:999::/:/bin/false\n")
    assert _install(tmp_path).returncode == 0
    _log(tmp_path)
    for _ in range(2):          # a second uninstall finds nothing to remove and says the same
        gone = _install(tmp_path, "--uninstall")
        assert gone.returncode == 0, gone.stderr
        assert not (root / "opt/maxima-board").exists() and not (root / "etc/udev/rules.d/99-maxima-board.rules").exists()
        assert not (root / "etc/systemd/system/maxima-board.service").exists()
        assert (root / "etc/maxima-board/config.toml").exists() and "/var/lib/maxima-board (the games)" in gone.stdout
    assert f"systemctl --root={root} disable maxima-board.service" in _log(tmp_path)


def test_installer_installs_without_the_pi_extra_when_it_cannot_build(tmp_path: Path):
    _stand_ins(tmp_path / "bin")
    _fake_root(tmp_path, "dialout:x:20:\ngpio:x:997:\ni2c:x:998:\nspi:x:999:\n", "maxima:x:999:999::/:/bin/false\n")
    result = _install(tmp_path, FAIL_PI="1")
    assert result.returncode == 0, result.stderr
    pip = [line for line in _log(tmp_path) if line.startswith("pip -m pip install") and "pip" != line.split()[-1]]
    assert len(pip) == 2 and pip[0].endswith("[pi]") and not pip[1].endswith("[pi]")
    said = [line for line in result.stdout.splitlines() if "pi extra" in line]
    assert len(said) == 1 and "Failed building wheel for spidev" in said[0]


def test_installer_bad_argument_is_one_line():
    result = subprocess.run(["bash", str(INSTALL), "--unistall"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 1 and result.stderr.count("\n") == 1 and "--unistall" in result.stderr


def test_installer_refuses_to_run_unprivileged():
    if os.geteuid() == 0:
        pytest.skip("running as root")
    result = subprocess.run(["bash", str(INSTALL)], capture_output=True, text=True, timeout=30)
    assert result.returncode == 1 and result.stderr.startswith("install.sh: run as root")
