#!/usr/bin/env bash
# The README's screenshots: records the demo program into a trace file and saves a picture
# of each of the viewer's views of it, as a user would see them.
#
#   build-aux/make-screenshots.sh [OUTDIR]     (default docs/screenshots)
#
# Needs a build (build-aux/dev.sh build). Runs under Xvfb (run-xvfb.sh) when there is no display,
# always with the cairo renderer so that pictures do not depend on the GPU. LANGUAGE is
# passed on: LANGUAGE=ru build-aux/make-screenshots.sh /tmp/ru shows the Russian viewer.
#
# Environment:
#   STROBE_BUILD_DIR   build directory, absolute or relative to the repository root (default _build)
#   SHOT_DURATION      seconds of the demo to record (default 12)
#   SHOT_SIZE          window size (default 1400x860)
#   SHOT_PAGES         views to save (default "overview timeline log memory samples"; samples:
#                      the timeline's Samples panel on the demo's slowest "A* search")

set -euo pipefail

ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${STROBE_BUILD_DIR:-_build}
[[ "$BUILD_DIR" = /* ]] || BUILD_DIR=$ROOT/$BUILD_DIR
OUTDIR=${1:-$ROOT/docs/screenshots}
DURATION=${SHOT_DURATION:-12}
SIZE=${SHOT_SIZE:-1400x860}
read -r -a PAGES <<< "${SHOT_PAGES:-overview timeline log memory samples}"

die() { printf 'make-screenshots.sh: error: %s\n' "$*" >&2; exit 1; }

DEMO=$BUILD_DIR/runtime/strobe-demo
SHOT=$BUILD_DIR/tests/app/strobe-shot
[[ -x "$DEMO" && -x "$SHOT" ]] || die "build first: $DEMO and $SHOT are needed (build-aux/dev.sh build)"

mkdir -p "$OUTDIR"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
TRACE=$WORK/demo.strobe

# The demo's generators have fixed seeds: alike traces, so alike pictures, on every run.
# With call stacks, so the memory view shows where memory goes, and sampled, so the
# timeline shows what the CPU did (where the kernel does not allow it, the picture says so).
STROBE_CALLSTACKS=1 "$DEMO" --duration="$DURATION" --trace=all,sampling --tracefile="$TRACE" > "$WORK/demo.log" 2>&1 \
  || { cat "$WORK/demo.log" >&2; die "the demo failed"; }

export GSK_RENDERER=cairo GDK_BACKEND=x11 GTK_A11Y=none
# A session bus of its own (GtkApplication wants one), when there is none.
BUS=()
[[ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ]] && command -v dbus-run-session > /dev/null && BUS=(dbus-run-session --)
if [[ -n "${DISPLAY:-}" ]]; then
  "${BUS[@]}" "$SHOT" "$TRACE" "$OUTDIR" "$SIZE" "${PAGES[@]}"
else
  command -v Xvfb > /dev/null || die "no display and no Xvfb (apt install xvfb)"
  "${BUS[@]}" "$ROOT/build-aux/run-xvfb.sh" -s "-screen 0 1920x1200x24" "$SHOT" "$TRACE" "$OUTDIR" "$SIZE" "${PAGES[@]}"
fi
