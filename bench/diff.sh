#!/bin/sh
# bench/diff.sh - the golden-image milestone's whole-command benchmarks
# (not a test). Run from the build directory (./runeframe). Every figure is
# wall time from process start to exit, on one PNG pair: frames 60 and 61
# of SCENE (bench/run sets it to bench/scenes/showcase-720.json, a copy of
# scenes/showcase.json whose checks are frame 60, for 1280x720); by
# default the 1920x1080 bench/scenes/showcase-1080.json (scenes/showcase.json
# scaled 1.5 by one group whose pivot [0, 0] maps every point p to exactly
# 1.5 p at every frame).
#
#   (1) runeframe diff A B / odiff A B (the native binary that the npm
#       package odiff-bin ships, not its node wrapper)       goal <= 1.0
#   (2) runeframe diff --aa A B / node + pixelmatch 7 + pngjs doing what
#       pixelmatch's bin does (PNG.sync.read both, pixelmatch with its
#       defaults, print the count); --aa because pixelmatch's default is
#       includeAA false                                       speedup >= 4
#   (3) runeframe check of the one checked frame (60) against a golden
#       written once by --update / runeframe seek --frame 60 of that frame
#       (render and encode only)                              goal <= 2.0
# Each on two encodings: (1) and (2) on the frames as runeframe writes them
# (zlib level 1, filter none) and re-encoded as other tools write goldens
# (libpng's adaptive filters, zlib level 6: seek --png-filter all
# --png-level 6); (3) on the golden as check --update writes it and on
# that adaptive re-encoding.
# Also prints the count each tool found and whether runeframe diff --aa and
# pixelmatch agree (a disagreement counts as a missed goal).
#
# Method: two warm-up runs of each side, then subject and baseline run
# alternately (A B, B A, ...), wall time from `date +%s%N`, median of each
# side, ratio of the medians; the harness floor (the same measurement of
# /bin/true) is printed beside them: both sides include it.
#
# Peers (odiff-bin, pixelmatch@7, pngjs) live in bench/peers/ (git-ignored;
# PEERS=DIR for another npm prefix) and are installed there with npm when
# missing; without node, npm or the network, figures (1) and (2) are skipped.
#
# Usage: sh bench/diff.sh [--pairs N] [--strict]
#   --pairs N  interleaved pairs per figure (default 21, at least 7)
#   --strict   exit 1 when a goal is missed
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
RF=${RUNEFRAME:-./runeframe}
SCENE=${SCENE:-$HERE/scenes/showcase-1080.json}
PEERS=${PEERS:-$HERE/peers}
PAIRS=21
STRICT=0
while [ $# -gt 0 ]; do
    case $1 in
    --pairs) [ $# -ge 2 ] || { echo "bench/diff.sh: --pairs needs a number" >&2; exit 2; }
             PAIRS=$2; shift 2 ;;
    --strict) STRICT=1; shift ;;
    *) echo "usage: sh bench/diff.sh [--pairs N] [--strict]" >&2; exit 2 ;;
    esac
done
[ "$PAIRS" -ge 7 ] 2>/dev/null || PAIRS=7
if [ ! -x "$RF" ] || [ ! -f "$SCENE" ]; then
    echo "bench/diff.sh: run from the build directory ($RF or $SCENE missing)" >&2
    exit 2
fi
case $(date +%s%N) in
*N*) echo "bench/diff.sh: date +%s%N is not supported here" >&2; exit 2 ;;
esac
case $RF in /*) ;; *) RF=$(pwd)/${RF#./} ;; esac

T=$(mktemp -d "${TMPDIR:-/tmp}/rf-diffbench.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM

# run NAME OKCODES CMD...: runs CMD with stdout in $T/out.txt, appends its
# wall ms to $T/NAME.wall (NAME "-" records nothing: a warm-up). An exit
# status not in the space-separated OKCODES stops the benchmark (odiff and
# runeframe diff exit nonzero when the images differ).
run() {
    name=$1 okcodes=$2
    shift 2
    t0=$(date +%s%N)
    "$@" >"$T/out.txt" 2>"$T/err.txt"
    st=$?
    t1=$(date +%s%N)
    case " $okcodes " in
    *" $st "*) ;;
    *)  echo "bench/diff.sh: failed ($st): $*" >&2
        cat "$T/out.txt" "$T/err.txt" >&2
        exit 2 ;;
    esac
    [ "$name" = - ] || echo "$t0 $t1" | awk '{ printf "%.3f\n", ($2 - $1) / 1e6 }' >>"$T/$name.wall"
}

median() {
    if [ ! -s "$1" ]; then
        echo nan
        return
    fi
    sort -n "$1" | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
        else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.3f\n", a / b; else print "nan" }'; }

# figure NAME OKA A OKB B: A and B are shell functions (the subject and
# the baseline); 2 warm-ups of each, then $PAIRS interleaved pairs, A B
# then B A, into $T/NAME.a.wall and $T/NAME.b.wall.
figure() {
    i=0
    while [ $i -lt $((PAIRS + 2)) ]; do
        for side in $( [ $((i % 2)) = 0 ] && echo "a b" || echo "b a"); do
            rec=$1.$side
            [ $i -lt 2 ] && rec=-
            if [ "$side" = a ]; then run "$rec" "$2" "$3"; else run "$rec" "$4" "$5"; fi
        done
        i=$((i + 1))
    done
}

ROWS=$T/rows
FAILS=0
# row FIGURE SUBJECT_MS BASELINE_MS RATIO GOAL_OP GOAL
row() {
    ok=$(awk -v r="$4" -v op="$5" -v g="$6" 'BEGIN {
        if (r == "nan") print "MISSED"; else if (op == "<=") print (r <= g ? "met" : "MISSED");
        else print (r >= g ? "met" : "MISSED") }')
    [ "$ok" = met ] || FAILS=$((FAILS + 1))
    printf '%-42s %10s %10s %8s %7s  %s\n' "$1" "$2" "$3" "${4}x" "$5 $6" "$ok" >>"$ROWS"
    # with BENCH_ROWS set, also the line of bench/run's table (bench/bench.h)
    [ -n "${BENCH_ROWS:-}" ] && printf '%s\t%s\t%s\t%s %s\t%s\t%s\t%s\n' "${1#(?) }" "$SIZE" "$4" \
        "$5" "$6" "$ok" "$2" "$3" >>"$BENCH_ROWS"
    return 0
}
skip() {
    printf '%-42s %s\n' "$1" "skipped: $2" >>"$ROWS"
    [ -n "${BENCH_ROWS:-}" ] && printf '%s\t%s\t-\t-\tskipped: %s\t-\t-\n' "${1#(?) }" "$SIZE" "$2" \
        >>"$BENCH_ROWS"
    return 0
}
# count FILE: N from a "different pixels: N" line (runeframe, pixelmatch)
# or "Found N different pixels" (odiff)
count() {
    awk '/different pixels: [0-9]/ { sub(/.*different pixels: /, ""); print $1 + 0; exit }
         /Found [0-9]+ different pixels/ { for (k = 1; k <= NF; k++) if ($k == "Found") { print $(k + 1); exit } }' "$1"
}

# ---- the PNG pairs, outside the timing ----
for f in 60 61; do
    "$RF" seek "$SCENE" --frame $f -o "$T/n$f.png" || exit 2
    "$RF" seek "$SCENE" --frame $f -o "$T/a$f.png" --png-filter all --png-level 6 || exit 2
done
SIZE=$("$RF" info "$SCENE" | awk '$1 == "canvas" { print $2 }')
NB=$(($(wc -c <"$T/n60.png") + $(wc -c <"$T/n61.png")))
AB=$(($(wc -c <"$T/a60.png") + $(wc -c <"$T/a61.png")))

# ---- peers ----
PEER_NOTE=
ODIFF=
NODE_OK=0
have_peers() {
    [ -f "$PEERS/node_modules/pngjs/package.json" ] &&
    [ -f "$PEERS/node_modules/odiff-bin/package.json" ] &&
    grep -q '"version": *"7\.' "$PEERS/node_modules/pixelmatch/package.json" 2>/dev/null
}
if ! have_peers; then
    if ! command -v npm >/dev/null 2>&1; then
        PEER_NOTE="npm is not installed and $PEERS lacks the peers"
    else
        echo "bench/diff.sh: installing odiff-bin pixelmatch@7 pngjs into $PEERS" >&2
        TO=
        command -v timeout >/dev/null 2>&1 && TO="timeout 180"
        mkdir -p "$PEERS" &&
        $TO npm install --prefix "$PEERS" --no-audit --no-fund --fetch-retries=1 \
            --fetch-timeout=30000 odiff-bin pixelmatch@7 pngjs >"$T/npm.txt" 2>&1
        if ! have_peers; then
            PEER_NOTE="npm install failed (no network?): $(grep -m 1 -i 'err' "$T/npm.txt" || tail -n 1 "$T/npm.txt")"
        fi
    fi
fi
OD_NOTE=$PEER_NOTE PM_NOTE=$PEER_NOTE
if [ -z "$PEER_NOTE" ]; then
    if command -v node >/dev/null 2>&1; then
        NODE_OK=1
        # the native binary, found as odiff-bin's own node wrapper finds it
        ODIFF=$(cd "$PEERS" && node -e 'process.stdout.write(require("odiff-bin/binary.js").findBinary())' 2>/dev/null)
    else
        PM_NOTE="node is not installed"
        for f in "$PEERS"/node_modules/@odiff/*/odiff; do
            [ -x "$f" ] && "$f" --version >/dev/null 2>&1 && { ODIFF=$f; break; }
        done
    fi
    [ -n "$ODIFF" ] && [ -x "$ODIFF" ] || { ODIFF=; OD_NOTE="odiff-bin has no native binary for this machine"; }
    version() { sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' "$PEERS/node_modules/$1/package.json"; }
    PMV=$(version pixelmatch) PNV=$(version pngjs) ODV=$(version odiff-bin)
    # pixelmatch's bin less its diff image and timer: the same work
    cat >"$T/pixelmatch.mjs" <<'EOF'
import fs from 'node:fs';
import path from 'node:path';
import {createRequire} from 'node:module';
import {pathToFileURL} from 'node:url';
const [,, peers, a, b] = process.argv;
const require = createRequire(path.join(peers, 'node_modules', 'x.js'));
const {PNG} = require('pngjs');
const match = (await import(pathToFileURL(require.resolve('pixelmatch')).href)).default;
const img1 = PNG.sync.read(fs.readFileSync(a));
const img2 = PNG.sync.read(fs.readFileSync(b));
const {width, height} = img1;
if (img2.width !== width || img2.height !== height) {
    console.log(`Image dimensions do not match: ${width}x${height} vs ${img2.width}x${img2.height}`);
    process.exit(65);
}
console.log(`different pixels: ${match(img1.data, img2.data, null, width, height, {})}`);
EOF
fi

# the subjects and baselines; $E is the encoding (n: filter none, a: adaptive)
E=n
rf_diff() { "$RF" diff "$T/${E}60.png" "$T/${E}61.png"; }
rf_diff_aa() { "$RF" diff --aa "$T/${E}60.png" "$T/${E}61.png"; }
odiff_diff() { "$ODIFF" "$T/${E}60.png" "$T/${E}61.png"; }
odiff_aa() { "$ODIFF" --aa "$T/${E}60.png" "$T/${E}61.png"; }
node_pm() { node "$T/pixelmatch.mjs" "$PEERS" "$T/${E}60.png" "$T/${E}61.png"; }
rf_check() { "$RF" check "$SCENE" --golden "$T/golden-$E"; }
rf_seek() { "$RF" seek "$SCENE" --frame 60 -o "$T/x.png"; }
floor() { /bin/true; }

# goldens for (3): written once by --update (filter none), and the same
# frame re-encoded with adaptive filters, as another tool's golden
"$RF" check "$SCENE" --golden "$T/golden-n" --update >"$T/out.txt" 2>&1 || {
    cat "$T/out.txt" >&2; exit 2; }
mkdir -p "$T/golden-a" && cp "$T/a60.png" "$T/golden-a/frame-00060.png" || exit 2
GB=$(wc -c <"$T/golden-n/frame-00060.png")
GA=$(wc -c <"$T/golden-a/frame-00060.png")

NPROC=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?')
echo "bench/diff.sh: $RF on $NPROC CPUs, $PAIRS interleaved pairs per figure after 2 warm-ups"
echo "pair: frames 60, 61 of $SCENE ($SIZE); both files: filter none + zlib 1"
echo "      $NB bytes, adaptive filters + zlib 6 $AB bytes; goldens of frame 60:"
echo "      check --update $GB bytes, adaptive $GA bytes"
if [ -z "$PEER_NOTE" ]; then
    echo "peers: pixelmatch $PMV, pngjs $PNV, odiff-bin $ODV (${ODIFF:-$OD_NOTE})"
    [ "$NODE_OK" = 1 ] && echo "       node $(node --version)" || echo "       $PM_NOTE: figure (2) skipped"
else
    echo "peers: $PEER_NOTE: figures (1) and (2) skipped"
fi

# ---- counts (untimed) ----
CNT=$T/counts
for E in n a; do
    [ $E = n ] && enc="filter none" || enc="adaptive"
    run - "0 1" rf_diff
    c_rf=$(count "$T/out.txt")
    run - "0 1" rf_diff_aa
    c_rfaa=$(count "$T/out.txt")
    printf '%-40s %s\n' "runeframe diff, $enc:" "$c_rf" "runeframe diff --aa, $enc:" "$c_rfaa" >>"$CNT"
    eval "c_rf_$E=\$c_rf c_rfaa_$E=\$c_rfaa"
    if [ -n "$ODIFF" ]; then
        run - "0 22" odiff_diff
        c=$(count "$T/out.txt")
        [ -n "$c" ] || c=$(count "$T/err.txt")
        run - "0 22" odiff_aa
        caa=$(count "$T/out.txt")
        [ -n "$caa" ] || caa=$(count "$T/err.txt")
        printf '%-40s %s\n' "odiff, $enc:" "$c" \
            "odiff --aa (its own AA test), $enc:" "$caa" >>"$CNT"
    fi
    if [ "$NODE_OK" = 1 ]; then
        run - 0 node_pm
        c=$(count "$T/out.txt")
        printf '%-40s %s\n' "node pixelmatch, $enc:" "$c" >>"$CNT"
        if [ -n "$c" ] && [ "$c" = "$c_rfaa" ]; then
            echo "  runeframe diff --aa and pixelmatch agree ($enc): $c" >>"$CNT"
            agree=met
        else
            echo "  runeframe diff --aa and pixelmatch DISAGREE ($enc): $c_rfaa vs ${c:-?}" >>"$CNT"
            FAILS=$((FAILS + 1))
            agree=MISSED
        fi
        [ -n "${BENCH_ROWS:-}" ] && printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
            "diff --aa vs pixelmatch: same count, $enc" "$SIZE" "$(ratio "${c_rfaa:-0}" "${c:-0}")" \
            "= 1" "$agree" "$c_rfaa px" "${c:-?} px" >>"$BENCH_ROWS"
    fi
done
if [ "$c_rf_n" != "$c_rf_a" ] || [ "$c_rfaa_n" != "$c_rfaa_a" ]; then
    echo "  runeframe's counts differ between the two encodings of the same pixels" >>"$CNT"
    FAILS=$((FAILS + 1))
fi

# ---- the figures ----
figure floor 0 floor 0 floor
FLOOR=$(median "$T/floor.a.wall")
for E in n a; do
    [ $E = n ] && enc="none" || enc="adaptive"
    if [ -n "$ODIFF" ]; then
        figure "odiff$E" "0 1" rf_diff "0 22" odiff_diff
        A=$(median "$T/odiff$E.a.wall") B=$(median "$T/odiff$E.b.wall")
        row "(1) diff vs odiff, $enc" "${A}ms" "${B}ms" "$(ratio "$A" "$B")" "<=" 1.0
    else
        skip "(1) diff vs odiff, $enc" "$OD_NOTE"
    fi
done
for E in n a; do
    [ $E = n ] && enc="none" || enc="adaptive"
    if [ "$NODE_OK" = 1 ]; then
        figure "pm$E" "0 1" rf_diff_aa 0 node_pm
        A=$(median "$T/pm$E.a.wall") B=$(median "$T/pm$E.b.wall")
        row "(2) diff --aa vs node pixelmatch, $enc" "${A}ms" "${B}ms" "$(ratio "$B" "$A")" ">=" 4
    else
        skip "(2) diff --aa vs node pixelmatch, $enc" "$PM_NOTE"
    fi
done
for E in n a; do
    [ $E = n ] && enc="--update golden" || enc="adaptive golden"
    figure "check$E" 0 rf_check 0 rf_seek
    A=$(median "$T/check$E.a.wall") B=$(median "$T/check$E.b.wall")
    row "(3) check vs seek, $enc" "${A}ms" "${B}ms" "$(ratio "$A" "$B")" "<=" 2.0
done

echo
cat "$CNT"
echo
printf '%-42s %10s %10s %9s %7s  %s\n' figure subject baseline ratio goal result
cat "$ROWS"
echo
echo "(medians of wall time, process start to exit; the ratio of (2) is baseline / subject,"
echo " a speedup, the others subject / baseline; the harness floor, /bin/true, is ${FLOOR}ms)"
[ "$STRICT" = 1 ] && [ "$FAILS" -gt 0 ] && exit 1
exit 0
