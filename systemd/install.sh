#!/usr/bin/env bash
# Installs maxima-board as a systemd service on a Raspberry Pi. Safe to re-run:
# it upgrades the program, keeps an existing config, and restarts the service.
#
#   git clone "$REPO_URL" maxima-board && cd maxima-board   # REPO_URL: see README
#   sudo systemd/install.sh            # from a checkout of the repository
#
# What it does:
#   - creates the system user "maxima" (groups gpio, i2c, spi, dialout)
#   - creates the virtual environment /opt/maxima-board/venv and installs
#     this checkout into it (with the "pi" extra: lgpio)
#   - copies systemd/config.example.toml to /etc/maxima-board/config.toml
#     unless that file exists
#   - installs the udev rule /etc/udev/rules.d/99-maxima-board.rules
#     (/dev/maxima-pico for the Pico, group dialout)
#   - installs maxima-board.service; enables and (re)starts it only once
#     /etc/maxima-board/config.toml differs from the example: a board is never
#     started on a config nobody has edited (pins, topology, OLED address are
#     the builder's). After the first run: edit the config, then
#     sudo systemctl enable --now maxima-board   (or run this script again)
#
# Environment: ROOT (prefix for every path, default "" = the real system),
# MAXIMA_BOARD_NO_START=1 (enable but do not start).
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=${ROOT:-}
PREFIX=$ROOT/opt/maxima-board
VENV=$PREFIX/venv
CONF_DIR=$ROOT/etc/maxima-board
UNIT=$ROOT/etc/systemd/system/maxima-board.service
RULES=$ROOT/etc/udev/rules.d/99-maxima-board.rules
USER_NAME=maxima
GROUPS_WANTED=(gpio i2c spi dialout)

say() { printf 'install.sh: %s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "run as root: sudo $0"
command -v python3 >/dev/null || die "python3 is missing: sudo apt-get install python3 python3-venv"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' || die "python3 is older than 3.11"

# 1. groups and user ------------------------------------------------------
for group in "${GROUPS_WANTED[@]}"; do
    if ! getent group "$group" >/dev/null; then
        say "creating group $group"
        groupadd --system "$group"
    fi
done
if ! getent passwd "$USER_NAME" >/dev/null; then
    say "creating user $USER_NAME"
    useradd --system --user-group --home-dir /var/lib/maxima-board --no-create-home \
        --shell /usr/sbin/nologin --comment "maxima-board service" "$USER_NAME"
fi
usermod --append --groups "$(IFS=,; echo "${GROUPS_WANTED[*]}")" "$USER_NAME"

# 2. program ----------------------------------------------------------------
install -d -m 0755 "$PREFIX"
if [ ! -x "$VENV/bin/python" ]; then
    say "creating $VENV"
    # system site packages: Raspberry Pi OS ships python3-lgpio ready-built
    python3 -m venv --system-site-packages "$VENV"
fi
say "installing maxima-board from $SRC"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet --upgrade "$SRC[pi]"

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
from hardware.config import ConfigError, load_config
try:
    load_config(sys.argv[1])
except ConfigError as exc:
    sys.exit(str(exc))' "$CONF_DIR/config.toml"; then
    say "warning: the config above has an error; the service will not start until it is fixed"
fi

# 4. udev rule for the Pico -------------------------------------------------------
install -d -m 0755 "$(dirname "$RULES")"
install -m 0644 "$SRC/systemd/99-maxima-board.rules" "$RULES"
if command -v udevadm >/dev/null && [ -z "$ROOT" ]; then
    udevadm control --reload-rules
    udevadm trigger --subsystem-match=tty --action=change
fi

# 5. service -------------------------------------------------------------------
install -d -m 0755 "$(dirname "$UNIT")"
install -m 0644 "$SRC/systemd/maxima-board.service" "$UNIT"
systemctl daemon-reload
if cmp -s "$CONF_DIR/config.toml" "$SRC/systemd/config.example.toml"; then
    say "not started: $CONF_DIR/config.toml is still the example."
    say "edit it for your board (hardware, pins, OLED), then: sudo systemctl enable --now maxima-board"
    exit 0
fi
systemctl enable maxima-board.service
if [ "${MAXIMA_BOARD_NO_START:-0}" = 1 ]; then
    say "enabled; start it with: sudo systemctl start maxima-board"
else
    systemctl restart maxima-board.service
    say "started; follow it with: journalctl -u maxima-board -f"
fi
