"""The installer for real (systemd/install.sh) into a temporary root, from a copy
of this checkout owned by an ordinary user, as a Raspberry Pi OS Lite image
without a "pi" user has it: twice, then --uninstall. Real venv, real pip build
(offline: no index, no dependencies, this test's own setuptools for the build),
real useradd/groupadd --prefix and systemctl --root; the checkout must come out
byte for byte and owner for owner as it went in.

And the package build itself (setup.py): a wheel holds the compiled engine, or,
built without a C compiler, the one line saying why."""
from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import os
import shutil
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INSTALL = ROOT / "systemd" / "install.sh"
USER_UID = 65534     # nobody: the owner of the user's checkout


def _setuptools_dir(tmp_path: Path) -> Path:
    """A folder holding (links to) this test's setuptools, for PYTHONPATH: the
    build backend of an offline, non-isolated build."""
    try:
        dist = importlib.metadata.distribution("setuptools")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("setuptools is not installed (the 'test' extra brings it)")
    if int(dist.version.split(".")[0]) < 77:
        pytest.skip(f"setuptools {dist.version} < 77 (pyproject's build requirement)")
    site = tmp_path / "setuptools-site"
    site.mkdir()
    for name in ("setuptools", "_distutils_hack"):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin:
            (site / name).symlink_to(Path(spec.origin).parent)
    (site / Path(dist._path).name).symlink_to(dist._path)  # its dist-info
    return site


def _offline_env(tmp_path: Path, **more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "PYTHON", "VIRTUAL_ENV"))}
    env.update(PYTHONPATH=str(_setuptools_dir(tmp_path)), PIP_NO_INDEX="1", PIP_NO_DEPS="1",
               PIP_NO_BUILD_ISOLATION="0", PIP_DISABLE_PIP_VERSION_CHECK="1", MAXIMA_BOARD_ENGINE_PGO="0",
               HOME=str(tmp_path / "home"))
    env["PATH"] = ":".join(p for p in env["PATH"].split(":") if "/.venv/" not in p and not p.endswith("/.venv/bin"))
    env.update(more)
    return env


def _user_checkout(tmp_path: Path) -> Path:
    """This checkout's files (tracked and new) in a git repository of their own,
    with what a user's ./start leaves (an old engine binary, a .venv file), owned
    by an ordinary user."""
    files = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-co", "--exclude-standard", "-z"],
                           capture_output=True, text=True, check=True).stdout.split("\0")
    work = tmp_path / "maxima-board"
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (work / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, work / name)
    git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "checkout"], check=True)
    (work / "engine" / "maxima-engine").write_text("#!/bin/sh\necho stale build\n")
    (work / ".venv").mkdir()
    (work / ".venv" / ".installed").write_text("x\n")
    for path in [work, *work.rglob("*")]:
        os.lchown(path, USER_UID, USER_UID)
    return work


def _snapshot(tree: Path) -> dict[str, tuple]:
    out = {}
    for path in [tree, *tree.rglob("*")]:
        st = path.lstat()
        content = (hashlib.sha256(path.read_bytes()).hexdigest() if stat.S_ISREG(st.st_mode)
                   else os.readlink(path) if stat.S_ISLNK(st.st_mode) else "")
        out[str(path.relative_to(tree))] = (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode), content)
    return out


def _git_status(work: Path) -> str:
    return subprocess.run(["git", "-c", "safe.directory=*", "--no-optional-locks", "-C", str(work), "status",
                           "--porcelain", "--ignored"], capture_output=True, text=True, check=True).stdout


def _pi_os_lite_root(root: Path) -> None:
    """/etc as Raspberry Pi OS Lite has it without a "pi" user: root only, the
    device groups there, its 99-com.rules giving them the devices."""
    etc = root / "etc"
    etc.mkdir(parents=True)
    (etc / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (etc / "shadow").write_text("root:*:19000:0:99999:7:::\n")
    groups = {"root": 0, "dialout": 20, "gpio": 993, "i2c": 994, "spi": 995}
    (etc / "group").write_text("".join(f"{g}:x:{n}:\n" for g, n in groups.items()))
    (etc / "gshadow").write_text("".join(f"{g}:*::\n" for g in groups))
    rules = root / "usr" / "lib" / "udev" / "rules.d"
    rules.mkdir(parents=True)
    (rules / "99-com.rules").write_text('SUBSYSTEM=="gpio", GROUP="gpio", MODE="0660"\n')


needs_root_tools = pytest.mark.skipif(
    os.geteuid() != 0 or not all(shutil.which(t) for t in ("useradd", "groupadd", "usermod", "systemctl", "git")),
    reason="the installer runs as root with useradd, groupadd, usermod, systemctl and git")


@needs_root_tools
def test_installer_installs_twice_uninstalls_and_leaves_the_checkout_as_it_was(tmp_path: Path):
    work = _user_checkout(tmp_path)
    before, status = _snapshot(work), _git_status(work)
    root = tmp_path / "root"
    _pi_os_lite_root(root)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = _offline_env(tmp_path, ROOT=str(root), TMPDIR=str(scratch))
    script = work / "systemd" / "install.sh"

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["bash", str(script), *args], env=env, cwd=work, capture_output=True, text=True,
                              timeout=600)

    first = run()
    assert first.returncode == 0, first.stdout + first.stderr
    venv = root / "opt" / "maxima-board" / "venv"
    engines = list(venv.glob("lib/python3*/site-packages/maxima_board/opponent/bin/maxima-engine"))
    assert len(engines) == 1 and os.access(engines[0], os.X_OK), first.stdout
    uci = subprocess.run([str(engines[0])], input="uci\nisready\nquit\n", capture_output=True, text=True, timeout=30)
    assert "uciok" in uci.stdout and "readyok" in uci.stdout          # built from source, not the stale file
    check = subprocess.run([str(venv / "bin" / "maxima-board"), "engine", "--check"], env=env, capture_output=True,
                           text=True, timeout=60)
    assert check.returncode == 0 and check.stdout.strip() == str(engines[0]), check.stderr
    assert (root / "opt/maxima-board/docs/hardware.md").read_bytes() == (ROOT / "docs/hardware.md").read_bytes()
    assert (root / "etc/systemd/system/maxima-board.service").read_bytes() == \
        (ROOT / "systemd/maxima-board.service").read_bytes()
    assert (root / "etc/udev/rules.d/99-maxima-board.rules").exists()
    assert not (root / "etc/udev/rules.d/60-maxima-board-devices.rules").exists()   # Raspberry Pi OS has its own
    passwd = (root / "etc/passwd").read_text()
    assert "\nmaxima:" in passwd and "\npi:" not in passwd
    members = {line.split(":")[0]: line.split(":")[3].split(",") for line in (root / "etc/group").read_text().split()}
    assert all("maxima" in members[g] for g in ("gpio", "i2c", "spi", "dialout"))
    assert "still the example" in first.stdout
    assert not (root / "etc/systemd/system/multi-user.target.wants").exists()

    config = root / "etc/maxima-board/config.toml"
    config.write_text(config.read_text().replace("address = 0x3C", "address = 0x3D"))
    second = run()
    assert second.returncode == 0, second.stdout + second.stderr
    assert "keeping" in second.stdout and "address = 0x3D" in config.read_text()
    assert "creating" not in second.stdout                                # user and groups exist now
    assert (root / "etc/systemd/system/multi-user.target.wants/maxima-board.service").is_symlink()
    assert passwd.count("maxima:") == (root / "etc/passwd").read_text().count("maxima:")

    gone = run("--uninstall")
    assert gone.returncode == 0, gone.stdout + gone.stderr
    assert not (root / "opt/maxima-board").exists()
    assert not (root / "etc/systemd/system/maxima-board.service").exists()
    assert not (root / "etc/systemd/system/multi-user.target.wants/maxima-board.service").exists()
    assert not (root / "etc/udev/rules.d/99-maxima-board.rules").exists()
    assert "address = 0x3D" in config.read_text()                          # the config stays

    assert _snapshot(work) == before                 # byte for byte, owner for owner: nothing root-owned added
    assert _git_status(work) == status
    assert list(scratch.iterdir()) == []             # the build folder is gone


def _load_setup_py():
    spec = importlib.util.spec_from_file_location("maxima_board_setup", ROOT / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_engine_build_without_a_compiler_is_one_line(tmp_path: Path, monkeypatch):
    setup = _load_setup_py()
    monkeypatch.setenv("CC", "no-such-cc")
    why = setup.build_engine(tmp_path / "bin" / "maxima-engine")
    assert why is not None and "\n" not in why and "no no-such-cc" in why and "build-essential" in why
    assert not (tmp_path / "bin" / "maxima-engine").exists()


@pytest.mark.skipif(shutil.which("gcc") is None or shutil.which("make") is None, reason="needs gcc and make")
@pytest.mark.parametrize("compiler", ["gcc", "no-such-cc"])
def test_a_wheel_holds_the_engine_or_says_why_not(tmp_path: Path, compiler: str):
    """pip wheel of a copy of the checkout (offline, this test's setuptools)."""
    env = _offline_env(tmp_path, CC=compiler)
    copy = tmp_path / "src"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".git", ".venv", "build", "*.egg-info", "tests",
                                                              "maxima-engine", "*.pgo", "node_modules"))
    made = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp_path / "dist"),
                           str(copy)], env=env, capture_output=True, text=True, timeout=600)
    assert made.returncode == 0, made.stdout + made.stderr
    wheel, = (tmp_path / "dist").glob("maxima_board-*.whl")
    assert not wheel.name.endswith("-none-any.whl")          # a machine's binary: tagged for this platform
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        tops = {n.split("/", 1)[0] for n in names if ".dist-info/" not in n}
        assert tops == {"maxima_board"}, tops      # one top-level package, nothing else in site-packages
        if compiler == "gcc":
            info = z.getinfo("maxima_board/opponent/bin/maxima-engine")
            assert info.external_attr >> 16 & 0o111 and info.file_size > 50_000
            assert "maxima_board/opponent/bin/NOT-BUILT" not in names
        else:
            assert "maxima_board/opponent/bin/maxima-engine" not in names
            why = z.read("maxima_board/opponent/bin/NOT-BUILT").decode()
            assert why.count("\n") == 1 and "no no-such-cc" in why


def test_the_sdist_carries_the_engine_sources_and_builds_them(tmp_path: Path):
    """setuptools' own build backend makes the sdist of a copy of the checkout (with a
    stale binary beside the sources): C sources, Makefile and setup.py in, no binary;
    pip then installs it (offline) and the install holds an engine that speaks UCI."""
    env = _offline_env(tmp_path)
    copy = tmp_path / "src"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".git", ".venv", "build", "*.egg-info", "tests",
                                                              "*.pgo", "node_modules"))
    (copy / "engine" / "maxima-engine").write_text("#!/bin/sh\necho stale build\n")
    made = subprocess.run([sys.executable, "-c", "import sys; from setuptools import build_meta as b; "
                           "print(b.build_sdist(sys.argv[1]))", str(tmp_path / "dist")],
                          cwd=copy, env=env, capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    sdist = tmp_path / "dist" / made.stdout.split()[-1]
    import tarfile
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    sources = {p.relative_to(ROOT).as_posix() for p in (ROOT / "engine").glob("*.[ch]")}
    assert sources and sources | {"engine/Makefile", "setup.py", "MANIFEST.in"} <= names
    assert "engine/maxima-engine" not in names and not any("/bin/" in n for n in names)
    target = tmp_path / "installed"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--target", str(target), str(sdist)],
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert {p.name for p in target.iterdir() if not p.name.endswith(".dist-info")} == {"maxima_board", "bin"}
    engine = target / "maxima_board" / "opponent" / "bin" / "maxima-engine"
    uci = subprocess.run([str(engine)], input="uci\nisready\nquit\n", capture_output=True, text=True, timeout=30)
    assert "uciok" in uci.stdout and "readyok" in uci.stdout
