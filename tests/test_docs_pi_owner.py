"""The docs a Pi owner follows say what the product does (issue 32, finding 6).

- docs/opponent-engine.md's cross-build command, run as written, into a BIN
  whose folder does not exist yet, builds an ARM executable without a warning
  (aarch64, and armhf as the doc says to swap it in);
- docs/hardware.md's paragraph on the service names only directives the unit
  has (or says it has not), and its security score is what systemd-analyze
  gives the unit file;
- docs/hardware.md's apt line is the installer's package list (plus git and
  i2c-tools), with what pip needs to build Pillow and the other wheels 32-bit
  Raspberry Pi OS lacks;
- the installer on a ROOT without users and groups says so in one line and
  writes nothing;
- both routes of docs/hardware.md's "Enabling I2C and SPI" free the direct
  topology's BCM 7 (dtoverlay=spi0-1cs) and BCM 15 (UART off); the
  raspi-config route's config.txt lines, run, add the overlay once;
- docs/pico.md covers the Pico 2 (RP2350) beside the RP2040.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.test_hw_systemd import ANALYZE, _fake_root, _install, _log, _stand_ins

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
UNIT = ROOT / "systemd" / "maxima-board.service"
INSTALL = ROOT / "systemd" / "install.sh"


def _section(path: Path, heading: str) -> str:
    text = path.read_text("utf-8")
    start = text.index(f"\n{heading}\n")
    end = text.find("\n## ", start + len(heading) + 2)
    return text[start:end if end >= 0 else len(text)]


# --------------------------------------------------------------------------- the cross build

def _documented_cross_build() -> list[str]:
    """The first ``make -C engine CC=aarch64-linux-gnu-gcc BIN=…`` line of
    opponent-engine.md's "Building for a Pi here", without its comment."""
    text = (DOCS / "opponent-engine.md").read_text("utf-8")
    block = text.split("**Building for a Pi here.**", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    line = next(ln for ln in block.splitlines() if ln.startswith("make ") and not ln.rstrip().endswith("\\"))
    return shlex.split(line.split("#", 1)[0])


def test_the_documented_cross_build_is_found():
    args = _documented_cross_build()
    assert args[:3] == ["make", "-C", "engine"]
    assert "CC=aarch64-linux-gnu-gcc" in args and any(a.startswith("BIN=") for a in args)
    # the doc's swap for 32 bits is the compiler this test swaps in
    assert "32-bit: `arm-linux-gnueabihf-gcc`" in (DOCS / "opponent-engine.md").read_text("utf-8")


ELF_MACHINE = {"aarch64-linux-gnu-gcc": 0xB7, "arm-linux-gnueabihf-gcc": 0x28}   # EM_AARCH64, EM_ARM


@pytest.mark.parametrize("cc", list(ELF_MACHINE))
def test_the_documented_cross_build_makes_an_arm_executable_in_a_new_folder(tmp_path: Path, cc: str):
    if shutil.which(cc) is None:
        pytest.skip(f"{cc} is not installed (Debian: apt-get install gcc-{cc.removesuffix('-gcc')})")
    binary = tmp_path / "not-yet" / "pi" / "maxima-engine"
    args = [a.replace("aarch64-linux-gnu-gcc", cc) if a.startswith("CC=") else a for a in _documented_cross_build()]
    args = [f"BIN={binary}" if a.startswith("BIN=") else a for a in args]
    assert not binary.parent.parent.exists()
    r = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out[-4000:]
    assert "warning:" not in out, out[-4000:]           # opponent-engine.md: no warning on either
    head = binary.read_bytes()[:20]
    assert head[:4] == b"\x7fELF" and os.access(binary, os.X_OK)
    assert int.from_bytes(head[18:20], "little") == ELF_MACHINE[cc], head
    assert head[4] == (2 if cc.startswith("aarch64") else 1)   # ELFCLASS64 / ELFCLASS32
    assert not (ROOT / "engine" / "maxima-engine.pgo").exists()


# --------------------------------------------------------------------------- the service

def _unit_keys() -> dict[str, list[str]]:
    keys: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            keys.setdefault(key, []).append(value)
    return keys


NEGATION = re.compile(r"\b(no|not|without|would|add)\b", re.I)


def _mentions(text: str) -> list[tuple[str, str, str]]:
    """(key, value, clause) of every backticked ``Key=value`` (a systemd directive:
    CamelCase, so not READY=1), the clause cut at , ; : and the end of a sentence."""
    out = []
    for clause in re.split(r"[,;:]\s|\.\s", " ".join(text.split())):
        for key, value in re.findall(r"`([A-Z][A-Za-z]*[a-z][A-Za-z]*)=([^`]*)`", clause):
            out.append((key, value, clause))
    return out


def test_hardware_md_says_of_the_unit_only_what_it_has():
    section = _section(DOCS / "hardware.md", "## The service")
    keys = _unit_keys()
    mentions = _mentions(section)
    assert {"IPAddressAllow", "DevicePolicy", "ProtectSystem"} <= {k for k, _, _ in mentions}
    wrong = [(k, v, c) for k, v, c in mentions
             if (k not in keys or (v and v not in keys[k])) and not NEGATION.search(c)]
    assert wrong == [], f"hardware.md says the unit has what it has not: {wrong}"


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")
def test_hardware_md_security_score_is_the_units():
    section = " ".join(_section(DOCS / "hardware.md", "## The service").split())
    claimed = re.search(r'rates it (\d+\.\d) \("(\w+)"\)', section)
    assert claimed, section
    r = subprocess.run([ANALYZE, "security", "--offline=true", "--no-pager", str(UNIT)],
                       capture_output=True, text=True, timeout=60)
    if "--offline" in r.stderr and "unrecognized" in r.stderr:
        pytest.skip("this systemd-analyze has no --offline (systemd < 252)")
    measured = re.search(r"Overall exposure level for maxima-board\.service: (\d+\.\d) (\w+)", r.stdout)
    assert measured, r.stdout + r.stderr
    assert (claimed[1], claimed[2]) == (measured[1], measured[2])


# --------------------------------------------------------------------------- the apt line

def _installer_array(name: str) -> list[str]:
    m = re.search(rf"^{name}=\(([^)]*)\)", INSTALL.read_text(), re.M)
    assert m, f"install.sh has no {name}=(...)"
    return m[1].split()


def test_hardware_md_apt_line_is_the_installers():
    lines = [ln.strip() for ln in (DOCS / "hardware.md").read_text("utf-8").splitlines()
             if ln.strip().startswith("sudo apt-get install -y git ")]
    assert len(lines) == 1, lines
    documented = set(lines[0].split()[4:])
    installer = set(_installer_array("APT_PACKAGES")) | set(_installer_array("APT_IF_AVAILABLE"))
    assert documented - {"git", "i2c-tools"} == installer
    # what pip needs to build Pillow, msgspec, spidev and rpi_ws281x (no armhf wheels on PyPI)
    assert {"build-essential", "python3-dev", "libjpeg-dev", "zlib1g-dev"} <= set(_installer_array("APT_PACKAGES"))


# A venv python that answers the installer's "32-bit ARM?" as $ARM32 says and logs pip's constraints.
ARM32_PYTHON = """#!/bin/sh
case "$*" in *calcsize*) [ "$ARM32" = 1 ]; exit ;; esac
if [ "$1" = "-m" ] && [ "$2" = "pip" ]; then
    echo "pip $* constraint=$(cat "${PIP_CONSTRAINT:-/dev/null}" | tr '\\n' ' ')" >> "$FAKE/log"; exit 0
fi
PYTHONPATH="$SRC" exec "$REAL_PYTHON" "$@"
"""


def test_installer_holds_cbor2_below_6_on_a_32_bit_arm_python_only(tmp_path: Path):
    """cbor2 6 is Rust with no armhf wheel (hardware.md, Installing): on a 32-bit ARM
    Python every pip install of the package gets the constraint; elsewhere none."""
    _stand_ins(tmp_path / "bin")
    root = _fake_root(tmp_path, "dialout:x:20:\n", "root:x:0:0::/root:/bin/bash\n")
    assert _install(tmp_path).returncode == 0                      # makes the venv
    (root / "opt/maxima-board/venv/bin/python").write_text(ARM32_PYTHON)   # kept by the next runs
    for arm32, constraint in (("0", ""), ("1", "cbor2<6 ")):
        _log(tmp_path)
        r = _install(tmp_path, ARM32=arm32)
        assert r.returncode == 0, r.stderr
        installs = [line for line in _log(tmp_path) if line.startswith("pip -m pip install")
                    and "--upgrade pip" not in line]
        assert installs and all(line.endswith(f"constraint={constraint}") for line in installs), installs


# --------------------------------------------------------------------------- ROOT=

@pytest.mark.parametrize("relative", [False, True])
def test_installer_on_a_root_without_users_says_so_in_one_line(tmp_path: Path, relative: bool):
    _stand_ins(tmp_path / "bin")
    root = tmp_path / "empty"
    root.mkdir()
    if relative:
        env = {"PATH": f"{tmp_path / 'bin'}:/usr/bin:/bin", "ROOT": "empty", "FAKE": str(tmp_path),
               "HOME": str(tmp_path)}
        r = subprocess.run(["bash", str(INSTALL)], cwd=tmp_path, capture_output=True, text=True, env=env,
                           timeout=120)
    else:
        r = _install(tmp_path, ROOT=str(root))
    assert r.returncode == 1
    assert r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith(f"install.sh: ROOT={root} has no etc/passwd and etc/group"), r.stderr
    assert list(root.iterdir()) == []


# --------------------------------------------------------------------------- SPI and the UART

def _code_blocks(text: str) -> list[str]:
    """The indented (4 spaces) code blocks of a markdown text."""
    blocks, current = [], []
    for line in text.splitlines():
        if line.startswith("    ") or (current and not line.strip()):
            current.append(line[4:])
        elif current:
            blocks.append("\n".join(current).strip())
            current = []
    if current:
        blocks.append("\n".join(current).strip())
    return blocks


def test_both_routes_free_the_direct_topologys_rows():
    from maxima_board.cli import config
    assert 7 in config.DEFAULT_ROWS and 15 in config.DEFAULT_ROWS    # CE1 and the UART's RX
    section = _section(DOCS / "hardware.md", "## Enabling I2C and SPI")
    raspi, by_hand = [b for b in _code_blocks(section) if "spi" in b][:2]
    assert "raspi-config" in raspi and "raspi-config" not in by_hand
    for block in (raspi, by_hand):
        assert "dtoverlay=spi0-1cs" in block, block
    assert "do_serial_hw 1" in raspi and "do_serial_cons 1" in raspi
    assert re.search(r"^enable_uart=0\b", by_hand, re.M)


def test_the_raspi_config_route_adds_the_overlay_once(tmp_path: Path):
    section = _section(DOCS / "hardware.md", "## Enabling I2C and SPI")
    raspi = next(b for b in _code_blocks(section) if "raspi-config" in b)
    lines = [ln for ln in raspi.splitlines() if "raspi-config" not in ln]
    assert lines, raspi
    boot = tmp_path / "boot" / "firmware"
    boot.mkdir(parents=True)
    config_txt = boot / "config.txt"
    config_txt.write_text("[cm4]\notg_mode=1\n\n[all]\ndtparam=spi=on\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "sudo").write_text('#!/bin/sh\nexec "$@"\n')
    (bin_dir / "sudo").chmod(0o755)
    script = "\n".join(lines).replace("/boot/firmware/config.txt", str(config_txt)).replace(
        "/boot/config.txt", str(tmp_path / "boot" / "config.txt"))
    for _ in range(2):                            # run twice: the overlay is added once
        r = subprocess.run(["bash", "-euc", script], capture_output=True, text=True, timeout=30,
                           env={"PATH": f"{bin_dir}:/usr/bin:/bin"})
        assert r.returncode == 0, r.stderr
    text = config_txt.read_text()
    assert text.splitlines().count("dtoverlay=spi0-1cs") == 1, text
    # it stands in an [all] section: no board filter ([cm4]) applies to it
    before = text[:text.index("dtoverlay=spi0-1cs")]
    assert re.findall(r"^\[(\w+)\]", before, re.M)[-1] == "all", text


# --------------------------------------------------------------------------- the Pico 2

def test_pico_md_covers_the_rp2040_and_the_rp2350():
    pico = (DOCS / "pico.md").read_text("utf-8")
    uf2 = _section(DOCS / "hardware.md", "### MicroPython for the Pico: which UF2")
    builds = re.findall(r"\| `(RPI_PICO\w*)` \| `([\w-]+)` \|", uf2)
    assert {b for b, _ in builds} == {"RPI_PICO", "RPI_PICO_W", "RPI_PICO2", "RPI_PICO2_W"}, builds
    for chip in ("RP2040", "RP2350", "Pico 2"):
        assert chip in pico, chip
    for build, drive in builds:
        assert f"`{build}`" in pico and f"`{drive}`" in pico, (build, drive)
    assert "copy the RP2040 `.uf2`" not in pico
