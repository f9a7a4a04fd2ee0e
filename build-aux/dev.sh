#!/usr/bin/env bash
# The one entry point for building, running and testing Strobe, used by the
# README's quick start and by CI (.ci/run).
#
#   build-aux/dev.sh run    install packages, build, open the viewer on the demo program live
#   build-aux/dev.sh test   install packages, build, run the test suite
#                           (extra arguments go to `meson test`)
#   build-aux/dev.sh build  install packages and build only
#   build-aux/dev.sh deps   install packages only
#   build-aux/dev.sh check-sanitizers
#                           install packages, then the test suite (but python-only) under
#                           ASan+UBSan (_build-asan) and the runtime's threaded
#                           tests under TSan (_build-tsan); .ci/run runs it too
#
# Works from any directory. Packages come from build-aux/debian-packages.txt
# (Debian 12); apt is skipped when all of them are already installed. The build
# directory is _build at the repository root; it is configured once and
# reconfigured on later runs, so the commands can be run again in any order.
# When CI is set the build uses -Dwerror=true, otherwise -Dwerror=false.
#
# Environment:
#   STROBE_BUILD_DIR  build directory relative to the repository root (default _build)
#   STROBE_SKIP_APT   set to 1 to never call apt-get (e.g. on a non-Debian machine)
#   STROBE_ASAN_DIR, STROBE_TSAN_DIR  sanitizer build directories
#                     (default _build-asan, _build-tsan)

set -euo pipefail

ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

BUILD_DIR=${STROBE_BUILD_DIR:-_build}
PACKAGE_LIST=build-aux/debian-packages.txt

# What `run` runs. Paths are relative to the build directory. With a display: the demo
# program starts with tracing off, and the viewer (run from the build tree, so it finds its
# schema and translations) connects to it at once, so the first thing a newcomer sees is a
# live session; the demo stops when the viewer is closed. Without a display: a few seconds
# of the demo into a file, and what strobe-cli says about it.
RUN_TRACEFILE=/tmp/strobe-demo.strobe
run_main() {
  local demo="$BUILD_DIR/runtime/strobe-demo" demo_pid
  if [[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]]; then
    [[ -x "$demo" ]] || die "$demo was not built"
    say "starting $demo (tracing off until the viewer connects)"
    "$demo" &
    demo_pid=$!
    trap 'kill "$demo_pid" 2>/dev/null || true' EXIT
    # The demo announces itself in the discovery directory as it starts.
    for _ in $(seq 50); do
      "$BUILD_DIR/core/cli/strobe-cli" ps 2>/dev/null | grep -q "^$demo_pid " && break
      sleep 0.1
    done
    run_built app/strobe --connect="$demo_pid" --channels=all
  else
    say "no display: recording 3 s of the demo into $RUN_TRACEFILE and showing it with strobe-cli"
    say "(on a desktop, this command opens the viewer on the demo running live)"
    run_built runtime/strobe-demo --duration=3 --trace=all --tracefile="$RUN_TRACEFILE"
    run_built core/cli/strobe-cli info "$RUN_TRACEFILE"
  fi
}

say() { printf 'dev.sh: %s\n' "$*"; }
die() { printf 'dev.sh: error: %s\n' "$*" >&2; exit 1; }

usage() {
  sed -n '2,25s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

# Run a program from the build tree, failing clearly when it was not built.
run_built() {
  local rel=$1
  shift
  local bin="$BUILD_DIR/$rel"
  if [[ ! -x "$bin" ]]; then
    die "$bin was not built. Is its component implemented yet, and is it listed in $(dirname -- "$rel")/meson.build? (see run_main in build-aux/dev.sh)"
  fi
  say "running $bin $*"
  "$bin" "$@"
}

read_packages() {
  # Strip comments and blank lines.
  sed -e 's/#.*//' -e 's/[[:space:]]\+//g' "$PACKAGE_LIST" | grep -v '^$'
}

install_packages() {
  if [[ "${STROBE_SKIP_APT:-0}" == 1 ]]; then
    say "STROBE_SKIP_APT=1: not installing packages"
    return 0
  fi
  [[ -r "$PACKAGE_LIST" ]] || die "$PACKAGE_LIST is missing"
  local packages=() missing=() pkg
  mapfile -t packages < <(read_packages)

  if command -v dpkg-query >/dev/null 2>&1; then
    for pkg in "${packages[@]}"; do
      if [[ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)" != "install ok installed" ]]; then
        missing+=("$pkg")
      fi
    done
    if [[ ${#missing[@]} -eq 0 ]]; then
      say "all ${#packages[@]} packages from $PACKAGE_LIST are installed"
      return 0
    fi
    say "missing packages: ${missing[*]}"
  fi

  command -v apt-get >/dev/null 2>&1 \
    || die "apt-get not found: install the packages in $PACKAGE_LIST by hand and set STROBE_SKIP_APT=1"

  local sudo=()
  if [[ "$(id -u)" -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 || die "not root and sudo is not installed: run as root"
    sudo=(sudo)
  fi
  say "installing packages from $PACKAGE_LIST"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${packages[@]}"
}

configure() {
  local werror=false
  [[ -n "${CI:-}" ]] && werror=true
  if [[ -f "$BUILD_DIR/meson-private/coredata.dat" ]]; then
    say "reconfiguring $BUILD_DIR (werror=$werror)"
    meson setup --reconfigure "$BUILD_DIR" -Dwerror="$werror"
  else
    say "configuring $BUILD_DIR (werror=$werror)"
    meson setup "$BUILD_DIR" -Dwerror="$werror"
  fi
}

build() {
  install_packages
  configure
  meson compile -C "$BUILD_DIR"
}

# Sanitizer builds: their own directories, never -Dwerror (the main build checks
# warnings; sanitizers make gcc warn differently). A sanitizer report fails the test
# that triggered it: UBSan stops at the first finding instead of going on.
SAN_ENV=(
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1:print_summary=1
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:print_summary=1
  TSAN_OPTIONS=halt_on_error=0:second_deadlock_stack=1:print_summary=1:suppressions=$ROOT/build-aux/tsan-suppressions.txt
)

# -O1, as the sanitizers' own documentation advises: a quarter less compiling than the
# default -O2 (the ASan build 213 -> 185 s on a CI machine), the tests as fast.
configure_sanitizer() {
  local dir=$1 sanitize=$2
  local options=(-Dwerror=false -Db_sanitize="$sanitize" -Db_lundef=false -Doptimization=1)
  if [[ -f "$dir/meson-private/coredata.dat" ]]; then
    meson setup --reconfigure "$dir" "${options[@]}"
  else
    meson setup "$dir" "${options[@]}"
  fi
}

# Every test under ASan+UBSan but those of suite python-only (nothing built runs in
# them); the runtime's threaded tests (suite runtime and the
# round trip), two decoders at once (test-event), the timers' summary blocks built on
# their own thread (timer-summary-apart), the live timeline read by another thread (cpu)
# and the log's filter jobs (log-list) under TSan, with GLib's locks told to TSan
# (tests/util/tsan-glib.c, preloaded; see build-aux/tsan-suppressions.txt). The meson
# logs of these runs are $ASAN_DIR/meson-logs/testlog.json,
# $TSAN_DIR/meson-logs/testlog.json and $TSAN_DIR/meson-logs/testlog-roundtrip.json
# (.ci/run counts them).
check_sanitizers() {
  local asan_dir=${STROBE_ASAN_DIR:-_build-asan} tsan_dir=${STROBE_TSAN_DIR:-_build-tsan}
  local status=0
  install_packages
  say "ASan+UBSan: every test that runs what was built ($asan_dir)"
  configure_sanitizer "$asan_dir" address,undefined
  # Not the 'streamed' suite: suites run again with the hand-overs streamed whatever the
  # machine (STROBE_CORES_FAR=1); their code is the same, and under ASan they cost a minute.
  env "${SAN_ENV[@]}" meson test -C "$asan_dir" --print-errorlogs --num-processes 2 \
    --no-suite python-only --no-suite streamed "$@" || status=1
  say "TSan: the runtime's threaded tests ($tsan_dir)"
  configure_sanitizer "$tsan_dir" thread
  # GLib's locks told to TSan (tests/util/tsan-glib.c), in every program the runs start.
  meson compile -C "$tsan_dir" tsan-glib
  local module=$ROOT/$tsan_dir/tests/util/libtsan-glib.so
  [[ $tsan_dir == /* ]] && module=$tsan_dir/tests/util/libtsan-glib.so
  # GSlice hands blocks from thread to thread through its own locks: malloc, TSan sees.
  local tsan_env=("LD_PRELOAD=$module" G_SLICE=always-malloc)
  env "${SAN_ENV[@]}" "${tsan_env[@]}" meson test -C "$tsan_dir" --print-errorlogs --num-processes 2 \
    --suite runtime "$@" || status=1
  env "${SAN_ENV[@]}" "${tsan_env[@]}" meson test -C "$tsan_dir" --print-errorlogs --num-processes 2 \
    --logbase testlog-roundtrip roundtrip test-event timer-summary-apart cpu log-list "$@" || status=1
  return $status
}

cmd=${1:-}
[[ $# -gt 0 ]] && shift

case "$cmd" in
  run)
    build
    run_main
    ;;
  test)
    build
    # exec: a signal from CI's timeout reaches meson, which then writes its log.
    exec meson test -C "$BUILD_DIR" --print-errorlogs --num-processes 2 "$@"
    ;;
  build)
    build
    ;;
  deps)
    install_packages
    ;;
  check-sanitizers)
    check_sanitizers "$@"
    ;;
  -h|--help|help)
    usage
    ;;
  *)
    usage >&2
    [[ -n "$cmd" ]] && die "unknown command: $cmd"
    exit 2
    ;;
esac
