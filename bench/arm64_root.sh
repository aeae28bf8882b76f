#!/usr/bin/env bash
# The board as a Pi owner installs it, on Debian arm64 (Raspberry Pi OS's base), without a Pi.
# Not part of CI: it takes many minutes.
#
#   sudo bench/arm64_root.sh [DIR]          # DIR: the arm64 root (default /tmp/maxima-arm64-root)
#   TESTS="tests/test_x.py ..." sudo bench/arm64_root.sh     # other tests than the default set
#
# 1. debootstrap builds a Debian root for arm64 (this machine's release, from the
#    mirror its apt uses: /etc/apt/sources.list and sources.list.d) with what
#    docs/hardware.md's apt line installs, minus the Raspberry Pi OS only
#    python3-lgpio; the second stage runs under qemu-user (through proot: no
#    binfmt_misc, no privileges beyond writing DIR). A finished root is reused.
# 2. A copy of this checkout goes to DIR/root/maxima-board; there ./start installs
#    it (pip: ready-made aarch64 wheels, the compiled engine built by the package
#    with its profile-guided build, lgpio and spidev of the pi extra) and starts it
#    with --help.
# 3. The platform-sensitive tests run there, one file at a time; prints PASS or
#    FAIL per file, the figures (times, the engine's size) and a summary.
# Needs: debootstrap, qemu-user-static, proot (apt-get installs them when run as root).
#
# Known limit of the emulation (not of arm64): under proot 5.3 (Debian bookworm) with
# qemu-user, access()/faccessat on a path inside the root is not translated (os.access of
# /usr/lib/gcc/aarch64-linux-gnu/12/cc1 is False while the file exists). So gcc cannot
# find cc1 (no engine, no spidev build: ./start installs without both and says so), bash
# may skip scripts on PATH, and checks of writable files fail (tests/test_controller_store.py).
# Those FAILs say nothing about arm64; judging them needs a chroot with qemu registered in
# binfmt_misc, which changes the whole machine's kernel and is left to the operator.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DIR=$(realpath -m "${1:-/tmp/maxima-arm64-root}")
TESTS=${TESTS:-"tests/test_opponent_engine_movegen.py tests/test_opponent_engine_uci.py tests/test_opponent_engine_fen_checks.py tests/test_opponent_engine_optima.py tests/test_opponent_board_builtin.py tests/test_engine_cli.py tests/test_install.py tests/test_start_script.py tests/test_hw_missing_modules.py tests/test_hw_scanner.py tests/test_hw_max7219.py tests/test_hw_oled.py tests/test_hw_buzzer.py tests/test_serial_link.py tests/test_link_device.py tests/test_controller_store.py"}
PACKAGES=python3,python3-venv,python3-dev,build-essential,python3-spidev,i2c-tools,ca-certificates,git

say() { printf 'arm64_root: %s\n' "$*"; }
die() { printf 'arm64_root: %s\n' "$*" >&2; exit 1; }

missing=()
for tool in debootstrap:debootstrap qemu-aarch64-static:qemu-user-static proot:proot; do
    command -v "${tool%%:*}" >/dev/null || missing+=("${tool#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || die "install ${missing[*]} first"
    say "installing ${missing[*]} (apt-get)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The release and the mirror this machine's apt uses.
. /etc/os-release
SUITE=${VERSION_CODENAME:?no VERSION_CODENAME in /etc/os-release}
mirror_of() {   # the first URI of a deb source that serves $SUITE
    local f
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        awk -v s="$SUITE" '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i ~ /:\/\//) { if ($(i+1) == s) { print $i; exit } break } }' "$f"
    done
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        awk -v s="$SUITE" 'BEGIN { RS = ""; FS = "\n" }
            { t = u = ""; ok = 0
              for (i = 1; i <= NF; i++) {
                  if ($i ~ /^Types:/) t = $i
                  if ($i ~ /^URIs:/) { u = $i; sub(/^URIs:[ \t]*/, "", u); sub(/[ \t].*/, "", u) }
                  if ($i ~ /^Suites:/) { n = split($i, w, /[ \t]+/); for (j = 2; j <= n; j++) if (w[j] == s) ok = 1 }
              }
              if (t ~ /deb( |$)/ && ok && u != "") { print u; exit } }' "$f"
    done
}
MIRROR=$(mirror_of | head -n 1)
[ -n "$MIRROR" ] || die "no apt source for $SUITE in /etc/apt/sources.list*"

in_root() {   # run a shell command in the arm64 root, as root, under qemu
    proot -0 -q qemu-aarch64-static -r "$DIR" -b /dev -b /proc -b /sys -w "${WD:-/root}" \
        /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb ${HOST_CA:+PIP_CERT=$HOST_CA SSL_CERT_FILE=$HOST_CA} \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c "$1"
}
now() { date +%s; }

t0=$(now)
if [ ! -e "$DIR/.stage2-done" ]; then
    say "debootstrap $SUITE arm64 from $MIRROR into $DIR (first stage here, second under qemu)"
    rm -rf "$DIR"
    debootstrap --arch=arm64 --foreign --variant=minbase --include="$PACKAGES" "$SUITE" "$DIR" "$MIRROR" \
        > "$DIR.debootstrap.log" 2>&1 || die "debootstrap failed: see $DIR.debootstrap.log"
    WD=/ in_root "DEBOOTSTRAP_DIR=/debootstrap /debootstrap/debootstrap --second-stage" >> "$DIR.debootstrap.log" 2>&1 \
        || die "the second stage failed: see $DIR.debootstrap.log (and $DIR/debootstrap/debootstrap.log)"
    touch "$DIR/.stage2-done"
fi
cp /etc/resolv.conf "$DIR/etc/resolv.conf"
# pip in the root trusts what this machine trusts (a TLS-inspecting proxy's CA, where there is one)
HOST_CA=
for ca in "${PIP_CERT:-}" "${SSL_CERT_FILE:-}" /etc/ssl/certs/ca-certificates.crt; do
    if [ -n "$ca" ] && [ -f "$ca" ]; then
        cp "$ca" "$DIR/etc/ssl/certs/host-ca-bundle.crt"
        HOST_CA=/etc/ssl/certs/host-ca-bundle.crt
        break
    fi
done
t1=$(now)
say "root ready in $((t1 - t0)) s: $(in_root 'uname -m; . /etc/os-release; echo $PRETTY_NAME; python3 --version' | tr '\n' ' ')"

# A copy of the checkout: what git tracks and what is new, not what runs left.
rm -rf "$DIR/root/maxima-board"
mkdir -p "$DIR/root/maxima-board"
(cd "$SRC" && git ls-files -co --exclude-standard -z | xargs -0 tar -cf - --no-recursion) \
    | tar -C "$DIR/root/maxima-board" -xf -

WD=/root/maxima-board in_root './start --help >/dev/null 2>../start.log; echo $? > ../start.rc' || true
t2=$(now)
start_rc=$(cat "$DIR/root/start.rc" 2>/dev/null || echo "?")
say "./start (install and --help): exit $start_rc in $((t2 - t1)) s"
sed 's/^/    /' "$DIR/root/start.log"
WD=/root/maxima-board in_root '
    set -e
    e=$(.venv/bin/maxima-board engine --check) && echo "engine: $e, $(stat -c %s "$e") bytes, $(file -b "$e" 2>/dev/null | cut -d, -f1-2)" || true
    .venv/bin/python -c "import lgpio, spidev; print(\"pi extra: lgpio\", lgpio.__file__.split(\"/\")[-3], \"spidev\", spidev.__file__.split(\"/\")[-3])" || echo "pi extra: missing"
    .venv/bin/python -m pip install --quiet "setuptools>=77" pytest hypothesis selenium 2>&1 | tail -n 3' \
    | sed 's/^/    /'

passed=0 failed=0
for test in $TESTS; do
    [ -f "$SRC/$test" ] || { say "SKIP $test (no such file)"; continue; }
    t=$(now)
    if out=$(WD=/root/maxima-board in_root ".venv/bin/python -m pytest -q -p no:cacheprovider $test 2>&1"); then
        passed=$((passed + 1)); verdict=PASS
    else
        failed=$((failed + 1)); verdict=FAIL
    fi
    say "$verdict $test ($(printf '%s\n' "$out" | tail -n 1), $(( $(now) - t )) s)"
    if [ "$verdict" = FAIL ]; then
        printf '%s\n' "$out" | grep -E '^(FAILED|ERROR|E  )' | head -n 15 | sed 's/^/    /' || true
    fi
done
say "summary: $passed test files passed, $failed failed; root $((t1 - t0)) s, ./start $((t2 - t1)) s, tests $(( $(now) - t2 )) s"
[ "$failed" = 0 ] && [ "$start_rc" = 0 ]
