#!/usr/bin/env bash
# Installs maxima-board as a systemd service on a Raspberry Pi (Raspberry Pi OS,
# with or without a "pi" user, or another Debian image). Safe to re-run: it
# upgrades the program, keeps an existing config, and restarts the service.
#
#   git clone "$REPO_URL" maxima-board && cd maxima-board   # REPO_URL: see README
#   sudo systemd/install.sh               # install or upgrade, from a checkout
#   sudo systemd/install.sh --uninstall   # remove it (keeps the config and the games)
#
# What it does:
#   - installs, with apt-get where missing, APT_PACKAGES below: python3-venv,
#     python3-dev and build-essential (gcc, make: the computer opponent's engine,
#     and the Python packages pip builds from source: spidev; on 32-bit Raspberry
#     Pi OS also Pillow, msgspec, rpi_ws281x), libjpeg-dev and zlib1g-dev (Pillow
#     from source); and APT_IF_AVAILABLE, python3-lgpio and python3-spidev, where
#     the distribution has them (docs/hardware.md's apt line is the same, plus git
#     and i2c-tools). On a 32-bit Python it holds cbor2 below 6 (6 is Rust).
#   - creates the system user "maxima" (groups gpio, i2c, spi, dialout)
#   - copies this checkout to a temporary folder and installs that copy into
#     the virtual environment /opt/maxima-board/venv with the "pi" extra
#     (lgpio, spidev on a Raspberry Pi); the install builds the compiled engine
#     (setup.py). Nothing is written into the checkout.
#   - copies docs/ to /opt/maxima-board/docs (the unit's Documentation=)
#   - copies systemd/config.example.toml to /etc/maxima-board/config.toml
#     unless that file exists
#   - installs the udev rule /etc/udev/rules.d/99-maxima-board.rules
#     (/dev/maxima-pico for the Pico, group dialout) and, on images without
#     Raspberry Pi OS's 99-com.rules, 60-maxima-board-devices.rules (gpiochip,
#     spidev, i2c-dev and ttyACM for the groups gpio, spi, i2c, dialout)
#   - installs maxima-board.service; enables and (re)starts it only once
#     /etc/maxima-board/config.toml differs from the example: a board is never
#     started on a config nobody has edited (pins, topology, OLED address are
#     the builder's). After the first run: edit the config, then
#     sudo systemctl enable --now maxima-board   (or run this script again)
#
# Environment: ROOT (prefix for every path, default "" = the real system; with
# it set, it must hold the users and groups of a system, ROOT/etc/passwd and
# ROOT/etc/group; users and groups are made with --prefix, the unit is enabled with
# systemctl --root, and nothing acts on the running system: no apt-get,
# udevadm, daemon-reload, start or stop), MAXIMA_BOARD_NO_START=1 (enable but
# do not start), MAXIMA_BOARD_NO_APT=1 (install no Debian packages).
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=${ROOT:-}
case "$ROOT" in ""|/*) ;; *) ROOT=$PWD/$ROOT ;; esac   # a relative ROOT: from where it was given
cd /   # python -c puts the working directory on sys.path: never the checkout
PREFIX=$ROOT/opt/maxima-board
VENV=$PREFIX/venv
CONF_DIR=$ROOT/etc/maxima-board
UNIT_NAME=maxima-board.service
UNIT=$ROOT/etc/systemd/system/$UNIT_NAME
RULES_DIR=$ROOT/etc/udev/rules.d
PICO_RULES=99-maxima-board.rules
DEVICE_RULES=60-maxima-board-devices.rules
USER_NAME=maxima
GROUPS_WANTED=(gpio i2c spi dialout)
# Debian packages (docs/hardware.md's apt line: these, git and i2c-tools)
APT_PACKAGES=(python3-venv python3-dev build-essential libjpeg-dev zlib1g-dev)
APT_IF_AVAILABLE=(python3-lgpio python3-spidev)   # ready-built on Raspberry Pi OS (python3-lgpio not in Debian)

say() { printf 'install.sh: %s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

mode=install
case "${1:-}" in
    "") ;;
    --uninstall) mode=uninstall ;;
    -h|--help) sed -n '2,/^set -euo/p' "$SRC/systemd/install.sh" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (expected nothing, --uninstall or --help)" ;;
esac
[ $# -le 1 ] || die "one argument at most (--uninstall), got $#"
[ "$(id -u)" -eq 0 ] || die "run as root: sudo $0${1:+ $1}"

# On the real system systemctl acts; under ROOT only what works offline.
live() { [ -z "$ROOT" ]; }
systemctl_() {
    if live; then
        systemctl "$@"
    elif [ "$1" = enable ] || [ "$1" = disable ]; then
        systemctl --root="$ROOT" "$@"
    else
        say "ROOT is set: not running systemctl $*"
    fi
}
# users and groups: the system's databases, or the files under ROOT
has() {   # has group|passwd NAME
    if live; then getent "$1" "$2" >/dev/null; else grep -q "^$2:" "$ROOT/etc/$1" 2>/dev/null; fi
}
prefix_opt=()
live || prefix_opt=(--prefix "$ROOT")

uninstall() {
    if [ -e "$UNIT" ]; then
        if live; then systemctl disable --now "$UNIT_NAME" || true; else systemctl_ disable "$UNIT_NAME"; fi
    fi
    rm -f "$UNIT" "$RULES_DIR/$PICO_RULES" "$RULES_DIR/$DEVICE_RULES"
    rm -rf "$PREFIX"
    systemctl_ daemon-reload
    if live && command -v udevadm >/dev/null; then udevadm control --reload-rules; fi
    say "removed the service, the udev rules and /opt/maxima-board"
    say "kept: /etc/maxima-board (your config), /var/lib/maxima-board (the games) and the user $USER_NAME;"
    say "remove them by hand if you want them gone: sudo rm -r /etc/maxima-board /var/lib/maxima-board; sudo userdel $USER_NAME"
}
if [ "$mode" = uninstall ]; then
    uninstall
    exit 0
fi

if ! live && { [ ! -f "$ROOT/etc/passwd" ] || [ ! -f "$ROOT/etc/group" ]; }; then
    die "ROOT=$ROOT has no etc/passwd and etc/group: ROOT must be a system's root folder, whose users and groups get the user $USER_NAME"
fi
command -v python3 >/dev/null || die "python3 is missing: sudo apt-get install python3 python3-venv"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' || die "python3 is older than 3.11"

# 0. Debian packages ---------------------------------------------------------------
if live && [ "${MAXIMA_BOARD_NO_APT:-0}" != 1 ] && command -v apt-get >/dev/null; then
    want=()
    installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
    for pkg in "${APT_PACKAGES[@]}"; do
        case $pkg in
            # Debian's own python3 makes venvs with pip only with python3-venv
            python3-venv) [ "$(command -v python3)" != /usr/bin/python3 ] || installed "$pkg" || want+=("$pkg") ;;
            build-essential) { command -v gcc && command -v make; } >/dev/null || want+=("$pkg") ;;
            python3-dev) python3 -c 'import sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
                || want+=("$pkg") ;;
            *) installed "$pkg" || want+=("$pkg") ;;
        esac
    done
    for pkg in "${APT_IF_AVAILABLE[@]}"; do
        if ! installed "$pkg" && apt-cache show "$pkg" >/dev/null 2>&1; then want+=("$pkg"); fi
    done
    if [ ${#want[@]} -gt 0 ]; then
        say "installing ${want[*]} (apt-get)"
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${want[@]}"; } >/dev/null \
            || say "warning: apt-get could not install ${want[*]}; going on"
    fi
fi

# 1. groups and user ------------------------------------------------------
for group in "${GROUPS_WANTED[@]}"; do
    if ! has group "$group"; then
        say "creating group $group"
        groupadd "${prefix_opt[@]}" --system "$group"
    fi
done
if ! has passwd "$USER_NAME"; then
    say "creating user $USER_NAME"
    useradd "${prefix_opt[@]}" --system --user-group --home-dir /var/lib/maxima-board --no-create-home \
        --shell /usr/sbin/nologin --comment "maxima-board service" "$USER_NAME"
fi
usermod "${prefix_opt[@]}" --append --groups "$(IFS=,; echo "${GROUPS_WANTED[*]}")" "$USER_NAME"

# 2. program: built from a copy, never in the checkout ---------------------------------
BUILD=$(mktemp -d "${TMPDIR:-/tmp}/maxima-board-install.XXXXXX")
trap 'rm -rf "$BUILD" "$BUILD.pip" "$BUILD.constraints"' EXIT
# What a run, a build or the tests left in the checkout stays behind.
tar -C "$SRC" --exclude=.git --exclude=.venv --exclude=./build --exclude='*.egg-info' \
    --exclude=__pycache__ --exclude=node_modules --exclude=./tests --exclude=.pytest_cache \
    --exclude=.hypothesis --exclude=./engine/maxima-engine --exclude='*.pgo' -cf - . \
    | tar -C "$BUILD" --no-same-owner -xf -
install -d -m 0755 "$PREFIX"
if [ ! -x "$VENV/bin/python" ]; then
    say "creating $VENV"
    # system site packages: Raspberry Pi OS ships python3-lgpio and python3-spidev ready-built
    python3 -m venv --system-site-packages "$VENV"
fi
say "installing maxima-board from $SRC (built in $BUILD)"
# cbor2 (luma.core's) is Rust from version 6 on, with no wheel for 32-bit ARM, and Debian 12's
# Rust cannot build it: a 32-bit Python keeps 5.x (pure Python). PIP_CONSTRAINT reaches every pip below.
if "$VENV/bin/python" -c 'import platform, struct, sys
sys.exit(not (struct.calcsize("P") == 4 and platform.machine().startswith(("arm", "aarch64"))))'; then
    printf 'cbor2<6\n' > "$BUILD.constraints"
    export PIP_CONSTRAINT="$BUILD.constraints"
fi
"$VENV/bin/python" -m pip install --quiet --no-cache-dir --upgrade pip \
    || say "warning: could not upgrade pip; going on with $("$VENV/bin/python" -m pip --version)"
if ! "$VENV/bin/python" -m pip install --quiet --no-cache-dir --upgrade "$BUILD[pi]" 2>"$BUILD.pip"; then
    # spidev has no wheel: without python3-spidev it is built (gcc, python3-dev)
    say "the pi extra (lgpio, spidev) did not install ($(grep -m1 -oE 'ERROR: .*' "$BUILD.pip" || tail -n 1 "$BUILD.pip"));" \
        "installing without it: 'maxima-board diag' names what the direct topology lacks"
    "$VENV/bin/python" -m pip install --quiet --no-cache-dir --upgrade "$BUILD"
fi
rm -f "$BUILD.pip"
if ! why=$("$VENV/bin/maxima-board" engine --check 2>&1 >/dev/null); then
    say "the computer opponent is unavailable: ${why#maxima-board engine: }"
fi
rm -rf "$PREFIX/docs"
cp -R "$BUILD/docs" "$PREFIX/docs"
chmod -R u=rwX,go=rX "$PREFIX/docs"

# 3. configuration ------------------------------------------------------------
install -d -m 0755 "$CONF_DIR"
if [ -e "$CONF_DIR/config.toml" ]; then
    say "keeping $CONF_DIR/config.toml"
else
    say "writing $CONF_DIR/config.toml (edit it, then: sudo systemctl restart maxima-board)"
    install -m 0644 "$SRC/systemd/config.example.toml" "$CONF_DIR/config.toml"
fi
if ! "$VENV/bin/python" -c '
import sys
from maxima_board.cli.config import ConfigError, load_config
try:
    load_config(sys.argv[1])
except ConfigError as exc:
    sys.exit(str(exc))' "$CONF_DIR/config.toml"; then
    say "warning: the config above has an error; the service will not start until it is fixed"
fi

# 4. udev rules: the Pico; the devices where Raspberry Pi OS's rules are missing -------------
install -d -m 0755 "$RULES_DIR"
install -m 0644 "$SRC/systemd/$PICO_RULES" "$RULES_DIR/$PICO_RULES"
if [ -e "$ROOT/etc/udev/rules.d/99-com.rules" ] || [ -e "$ROOT/usr/lib/udev/rules.d/99-com.rules" ] \
        || [ -e "$ROOT/lib/udev/rules.d/99-com.rules" ]; then
    rm -f "$RULES_DIR/$DEVICE_RULES"
else
    say "installing $RULES_DIR/$DEVICE_RULES (gpiochip, spidev, i2c, ttyACM for the groups ${GROUPS_WANTED[*]})"
    install -m 0644 "$SRC/systemd/$DEVICE_RULES" "$RULES_DIR/$DEVICE_RULES"
fi
if live && command -v udevadm >/dev/null; then
    udevadm control --reload-rules
    for subsystem in tty gpio spidev i2c-dev; do
        udevadm trigger --subsystem-match="$subsystem" --action=change
    done
fi

# 5. service -------------------------------------------------------------------
install -d -m 0755 "$(dirname "$UNIT")"
install -m 0644 "$SRC/systemd/$UNIT_NAME" "$UNIT"
systemctl_ daemon-reload
if cmp -s "$CONF_DIR/config.toml" "$SRC/systemd/config.example.toml"; then
    say "not started: $CONF_DIR/config.toml is still the example."
    say "edit it for your board (hardware, pins, OLED), then: sudo systemctl enable --now maxima-board"
    exit 0
fi
systemctl_ enable "$UNIT_NAME"
if [ "${MAXIMA_BOARD_NO_START:-0}" = 1 ]; then
    say "enabled; start it with: sudo systemctl start maxima-board"
else
    systemctl_ restart "$UNIT_NAME"
    if live; then say "started; follow it with: journalctl -u maxima-board -f"; else say "enabled"; fi
fi
