#!/bin/sh
# run-fuzzer.sh FUZZER WORK_DIR SECONDS SEED_DIR... — one time-boxed libFuzzer run, as
# the `fuzz` test suite does it. New inputs go to WORK_DIR/corpus (the seed folders in
# the source tree are never written), crashes to WORK_DIR/artifacts/. Extra libFuzzer
# flags can be passed in STROBE_FUZZ_ARGS.
set -eu
fuzzer=$1 work=$2 seconds=$3
shift 3
mkdir -p "$work/corpus" "$work/artifacts"
# Seed folders that do not exist (an empty regressions/ folder is not in git) are left out.
for dir in "$@"; do
  shift
  [ -d "$dir" ] && set -- "$@" "$dir"
done
# shellcheck disable=SC2086
exec "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -malloc_limit_mb=512 -print_final_stats=1 -artifact_prefix="$work/artifacts/" \
  ${STROBE_FUZZ_ARGS:-} "$work/corpus" "$@"
