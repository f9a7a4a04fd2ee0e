#!/bin/sh
# run-xvfb.sh [-a] [-s SERVER-ARGS] [--] COMMAND [ARGS...]
#
# Runs COMMAND with DISPLAY set to a fresh Xvfb, and stops that server after. The same
# arguments as xvfb-run (-a is accepted and implied), for the tests and the screenshots.
#
# Why not xvfb-run -a: it picks the first display without a lock file and only then starts
# the server, so two started at once (meson runs tests in parallel; several builds share a
# machine) pick the same number, one server dies, and its test fails with "cannot open
# display". Xvfb -displayfd picks the number itself, atomically, and says which.
# -noreset: an X server resets when its last client leaves, and drops whoever connects
# meanwhile; a test's first client (the accessibility bus, which only sets a property)
# leaves just as the viewer connects.
# XDG_RUNTIME_DIR: a private one, so that what COMMAND starts lives apart from other runs.
# The accessibility bus (at-spi-bus-launcher, started by a D-Bus session that COMMAND
# runs, e.g. dbus-run-session) puts its socket at $XDG_RUNTIME_DIR/at-spi/bus, one path
# for every session of the user: two end-to-end tests at once took each other's bus.
set -u

server_args="-screen 0 1280x1024x24"
while [ $# -gt 0 ]; do
  case "$1" in
    -a|--auto-servernum) shift ;;
    -s) server_args=$2; shift 2 ;;
    --server-args=*) server_args=${1#--server-args=}; shift ;;
    --) shift; break ;;
    -*) echo "run-xvfb.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "usage: run-xvfb.sh [-s SERVER-ARGS] COMMAND [ARGS...]" >&2; exit 2; }
command -v Xvfb > /dev/null || { echo "run-xvfb.sh: Xvfb not found (apt install xvfb)" >&2; exit 77; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/strobe-xvfb-XXXXXX") || exit 1
xpid=
cleanup () {
  [ -n "$xpid" ] && kill "$xpid" 2> /dev/null && wait "$xpid" 2> /dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

mkfifo "$dir/display" || exit 1
mkdir -m 700 "$dir/run" || exit 1
export XDG_RUNTIME_DIR="$dir/run"

# shellcheck disable=SC2086 # the server arguments are words, as with xvfb-run -s
Xvfb -displayfd 3 -nolisten tcp -noreset $server_args 3> "$dir/display" 2> "$dir/log" &
xpid=$!
# Blocks until the server is ready; reads nothing if it died first.
read -r display < "$dir/display"
if [ -z "${display:-}" ]; then
  echo "run-xvfb.sh: Xvfb did not start:" >&2
  cat "$dir/log" >&2
  exit 1
fi

DISPLAY=:$display "$@"
status=$?
if [ "$status" -ne 0 ] && [ "$status" -ne 77 ] && [ -s "$dir/log" ]; then
  echo "run-xvfb.sh: the command exited with $status on display :$display; the server said:" >&2
  tail -n 20 "$dir/log" >&2
fi
exit $status
