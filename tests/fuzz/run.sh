#!/bin/sh
# run.sh - runs the libFuzzer harnesses for a bounded time each.
#
#   tests/fuzz/run.sh [SECONDS] [JOBS]
#
# Runs each harness (tests/fuzz/build.sh builds them) for SECONDS seconds
# (default 60), JOBS harnesses at a time (default 2: one process each, so
# JOBS cores), on a COPY of its seed corpus and regressions in a work
# directory: the repository's corpus is never written. Prints, per harness,
# the executions, the coverage (cov: and ft: of libFuzzer's last status
# line), the corpus size and the crashes found (crash-, leak-, timeout- and
# oom- artifacts). A harness stops at its first crash; its artifact and
# log stay in the work directory, whose path is printed.
#
# Run long, e.g. overnight on 2 cores:   tests/fuzz/run.sh 28800 2
# Reproduce a crash:   tests/fuzz/bin/fuzz-scene WORK/scene/crash-...
# Minimize it:         tests/fuzz/bin/fuzz-scene -minimize_crash=1 -runs=10000 FILE
# then add it to tests/fuzz/regress/<harness>/ (make check replays it).
#
# Environment: FUZZ_BIN (the harness binaries, default tests/fuzz/bin),
# FUZZ_WORK (work directory, default a new one under $TMPDIR),
# FUZZ_HARNESSES (default "scene path expr png render text query image"),
# FUZZ_MERGE=1 (merge the new inputs into the repository's corpus after the
# run: the one way this script writes there), FUZZ_ARGS (more libFuzzer
# options).
# Exit status: 0 when nothing crashed, 1 when something did, 2 on a usage
# error, 77 when the harnesses are not built.
set -u

here=$(cd "$(dirname "$0")" && pwd)
# the text harness finds the built-in fonts here
RUNEFRAME_FONT_DIR=${RUNEFRAME_FONT_DIR:-$here/../../fonts}
export RUNEFRAME_FONT_DIR
secs=${1:-60}
jobs=${2:-2}
bin=${FUZZ_BIN:-tests/fuzz/bin}
harnesses=${FUZZ_HARNESSES:-scene path expr png render text query image}

case $secs in '' | *[!0-9]*) echo "run.sh: SECONDS must be a whole number, got '$secs'" >&2; exit 2 ;; esac
case $jobs in '' | *[!0-9]* | 0) echo "run.sh: JOBS must be a positive whole number, got '$jobs'" >&2; exit 2 ;; esac
for h in $harnesses; do
    if [ ! -x "$bin/fuzz-$h" ]; then
        echo "run.sh: $bin/fuzz-$h is not built (make fuzz, or tests/fuzz/build.sh $bin)" >&2
        exit 77
    fi
done
bin=$(cd "$bin" && pwd)
work=${FUZZ_WORK:-$(mktemp -d "${TMPDIR:-/tmp}/rf-fuzz.XXXXXX")}
mkdir -p "$work"
work=$(cd "$work" && pwd)

# Per harness: the longest input and the dictionary.
max_len() {
    case $1 in
    scene | render | expr | text) echo 8192 ;;
    png | image) echo 16384 ;;
    *) echo 4096 ;;
    esac
}
dict() {
    case $1 in
    scene | render) echo "$here/scene.dict" ;;
    *) echo "$here/$1.dict" ;;
    esac
}

run_one() {
    h=$1
    d=$work/$h
    mkdir -p "$d/corpus" "$d/artifacts"
    [ -d "$here/corpus/$h" ] && cp "$here/corpus/$h"/* "$d/corpus/" 2>/dev/null
    [ -d "$here/regress/$h" ] && cp "$here/regress/$h"/* "$d/corpus/" 2>/dev/null
    dictopt=
    [ -f "$(dict "$h")" ] && dictopt=-dict=$(dict "$h")
    # shellcheck disable=SC2086
    "$bin/fuzz-$h" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 \
        -max_len="$(max_len "$h")" -print_final_stats=1 -artifact_prefix="$d/artifacts/" \
        $dictopt ${FUZZ_ARGS:-} "$d/corpus" >"$d/log" 2>&1
    echo $? >"$d/status"
}

summary() {
    h=$1
    d=$work/$h
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$d/log" | tail -n 1)
    last=$(grep -E '^#[0-9]+' "$d/log" | tail -n 1)
    cov=$(printf '%s\n' "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
    ft=$(printf '%s\n' "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
    corp=$(printf '%s\n' "$last" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
    crashes=$(find "$d/artifacts" -type f \( -name 'crash-*' -o -name 'leak-*' -o \
        -name 'timeout-*' -o -name 'oom-*' \) | wc -l | tr -d ' ')
    status=$(cat "$d/status" 2>/dev/null || echo '?')
    printf '%-7s %10s execs  cov %6s  ft %7s  corpus %6s  crashes %s  (exit %s)\n' "$h" \
        "${execs:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$crashes" "$status"
    if [ "$crashes" != 0 ] || [ "$status" != 0 ]; then
        find "$d/artifacts" -type f | sed 's/^/        /'
        grep -m 3 -E 'ERROR: |SUMMARY: |fuzz: ' "$d/log" | sed 's/^/        /'
        return 1
    fi
    return 0
}

echo "run.sh: $secs s per harness, $jobs at a time, work directory $work"
set -- $harnesses
while [ $# -gt 0 ]; do
    i=0
    while [ $# -gt 0 ] && [ $i -lt "$jobs" ]; do
        run_one "$1" &
        i=$((i + 1))
        shift
    done
    wait
done

failed=0
for h in $harnesses; do
    summary "$h" || failed=1
done
if [ "${FUZZ_MERGE:-0}" = 1 ] && [ $failed = 0 ]; then
    for h in $harnesses; do
        "$bin/fuzz-$h" -merge=1 -max_len="$(max_len "$h")" "$here/corpus/$h" "$work/$h/corpus" \
            >"$work/$h/merge.log" 2>&1 || failed=1
    done
fi
if [ $failed = 0 ] && [ -z "${FUZZ_WORK:-}" ]; then
    rm -rf "$work"
else
    echo "run.sh: logs and artifacts in $work"
fi
exit $failed
