#!/bin/sh
# bench/render.sh - the renderer milestone's whole-command benchmarks
# (`make bench`; not a test). Run from the build directory (./runeframe).
#
#   (a) render --jobs 2 / --jobs 1 wall time, showcase      speedup goal >= 1.7
#       (CPU time, user + system, reported for both)
#   (b) seek --time 3600 / --time 0, showcase               goal <= 1.1
#   (c) a 10 s scene settled by 1 s: reuse / --no-reuse     goal <= 0.3
#   (d) render -o x.mp4 / ffmpeg alone on the same raw frames with the
#       argv runeframe spawns (src/cmd-render.c video_start: rgb24 on a
#       pipe, -pix_fmt yuv420p)                              goal <= 1.3
#   (e) peak RSS (/usr/bin/time %M) of render --jobs 2 of every frame
#       vs the 64 MiB goal, and of every frame vs the first quarter of
#       them (flat in the number of frames)                  goal <= 1.1
#   (f) render --reduced-motion / render, showcase (issue 21:
#       reported, no goal)
#
# Method: subject and baseline run alternately (A B, B A, ...), outputs go
# to a fresh temporary directory (removed before each run, outside the
# timing), wall time from `date +%s%N`, CPU time from /usr/bin/time; every
# figure is the median of the runs (5 pairs; 20 for seek), and the ratio is
# of the medians. Usage: sh bench/render.sh [--pairs N] [--strict] [--only f]
#   --strict  exit 1 when a goal is missed
#   --only f  measure figure (f) alone
set -u

RF=${RUNEFRAME:-./runeframe}
SCENE=${SCENE:-scenes/showcase.json}
PAIRS=5
STRICT=0
ONLY=
while [ $# -gt 0 ]; do
    case $1 in
    --pairs) PAIRS=$2; shift 2 ;;
    --strict) STRICT=1; shift ;;
    --only) ONLY=$2; shift 2 ;;
    *) echo "usage: sh bench/render.sh [--pairs N] [--strict] [--only f]" >&2; exit 2 ;;
    esac
done
[ "$PAIRS" -ge 5 ] 2>/dev/null || PAIRS=5
if [ ! -x "$RF" ] || [ ! -f "$SCENE" ]; then
    echo "bench/render.sh: run from the build directory ($RF, $SCENE missing)" >&2
    exit 2
fi
case $(date +%s%N) in
*N*) echo "bench/render.sh: date +%s%N is not supported here" >&2; exit 2 ;;
esac
HAVE_TIME=0
[ -x /usr/bin/time ] && /usr/bin/time -f %U,%S -o /dev/null true 2>/dev/null && HAVE_TIME=1

T=$(mktemp -d "${TMPDIR:-/tmp}/rf-bench.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM

# run NAME CMD...: appends wall ms to $T/NAME.wall and CPU ms (user +
# system) to $T/NAME.cpu; a failing command stops the benchmark.
run() {
    name=$1
    shift
    t0=$(date +%s%N)
    if [ "$HAVE_TIME" = 1 ]; then
        /usr/bin/time -f %U,%S -o "$T/cpu.txt" "$@" >/dev/null 2>"$T/err.txt"
    else
        "$@" >/dev/null 2>"$T/err.txt"
    fi
    st=$?
    t1=$(date +%s%N)
    if [ $st -ne 0 ]; then
        echo "bench/render.sh: failed ($st): $*" >&2
        cat "$T/err.txt" >&2
        exit 2
    fi
    echo "$t0 $t1" | awk '{ printf "%.3f\n", ($2 - $1) / 1e6 }' >>"$T/$name.wall"
    if [ "$HAVE_TIME" = 1 ]; then
        tail -n 1 "$T/cpu.txt" | awk -F, '{ printf "%.0f\n", ($1 + $2) * 1000 }' >>"$T/$name.cpu"
    fi
}

median() {
    if [ ! -s "$1" ]; then
        echo nan
        return
    fi
    sort -n "$1" | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
        else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

ROWS=$T/rows
FAILS=0
# row FIGURE SUBJECT_MS BASELINE_MS RATIO GOAL_OP GOAL
# (GOAL_OP "-": informative, no goal). With BENCH_ROWS set, also appends
# the figure to that file for bench/run's table (bench/bench.h, bench_row).
row() {
    ok=$(awk -v r="$4" -v op="$5" -v g="$6" 'BEGIN {
        if (op == "-") print "-"; else if (r == "nan") print "MISSED";
        else if (op == "<=") print (r <= g ? "met" : "MISSED");
        else print (r >= g ? "met" : "MISSED") }')
    [ "$ok" = met ] || [ "$ok" = - ] || FAILS=$((FAILS + 1))
    goal="$5 $6"
    [ "$5" = - ] && goal=informative
    printf '%-36s %11s %11s %8s %11s  %s\n' "$1" "$2" "$3" "${4}x" "$goal" "$ok" >>"$ROWS"
    [ -n "${BENCH_ROWS:-}" ] && printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$SIZE" "$4" "$goal" \
        "$ok" "$2" "$3" >>"$BENCH_ROWS"
    return 0
}
# skip FIGURE WHY
skip() {
    printf '%-36s %s\n' "$1" "skipped: $2" >>"$ROWS"
    [ -n "${BENCH_ROWS:-}" ] && printf '%s\t%s\t-\t-\tskipped: %s\t-\t-\n' "$1" "$SIZE" "$2" >>"$BENCH_ROWS"
    return 0
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f\n", a / b; else print "nan" }'; }

NPROC=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?')
SIZE=$("$RF" info "$SCENE" | awk '$1 == "canvas" { print $2 }')
NFRAMES=$("$RF" info "$SCENE" | awk '$1 == "frames" { print $2 }')
echo "bench/render.sh: $RF on $NPROC CPUs, $SCENE ($SIZE, $NFRAMES frames),"
echo "  $PAIRS interleaved pairs per figure (seek: 20)"

# ---- (f) render --reduced-motion vs render ----
i=0
while [ $i -lt "$PAIRS" ]; do
    for m in $( [ $((i % 2)) = 0 ] && echo "reduced normal" || echo "normal reduced"); do
        rm -rf "$T/out"
        if [ "$m" = reduced ]; then
            run reduced "$RF" render "$SCENE" -o "$T/out" --quiet --reduced-motion
        else
            run normal "$RF" render "$SCENE" -o "$T/out" --quiet
        fi
    done
    i=$((i + 1))
done
RM1=$(median "$T/reduced.wall")
RM0=$(median "$T/normal.wall")
row "render --reduced-motion vs render" "${RM1}ms" "${RM0}ms" "$(ratio "$RM1" "$RM0")" - -
if [ "$ONLY" = f ]; then
    cat "$ROWS"
    exit 0
fi
CPU_NOTE=
MP4_NOTE=

# ---- (a) --jobs 2 vs --jobs 1 ----
i=0
while [ $i -lt "$PAIRS" ]; do
    for j in $( [ $((i % 2)) = 0 ] && echo "2 1" || echo "1 2"); do
        rm -rf "$T/out"
        run "jobs$j" "$RF" render "$SCENE" -o "$T/out" --jobs "$j" --quiet
    done
    i=$((i + 1))
done
J1=$(median "$T/jobs1.wall")
J2=$(median "$T/jobs2.wall")
row "render --jobs 2 vs 1 (speedup)" "${J2}ms" "${J1}ms" "$(ratio "$J1" "$J2")" ">=" 1.7
if [ "$HAVE_TIME" = 1 ]; then
    C1=$(median "$T/jobs1.cpu")
    C2=$(median "$T/jobs2.cpu")
    CPU_NOTE="CPU (user+system): --jobs 1 ${C1}ms, --jobs 2 ${C2}ms ($(ratio "$C2" "$C1")x of --jobs 1)"
    row "render --jobs 2 vs 1, CPU time" "${C2}ms" "${C1}ms" "$(ratio "$C2" "$C1")" - -
else
    CPU_NOTE="CPU time: /usr/bin/time missing, not measured"
fi

# ---- (b) seek --time 3600 vs --time 0 ----
i=0
while [ $i -lt 20 ]; do
    for s in $( [ $((i % 2)) = 0 ] && echo "3600 0" || echo "0 3600"); do
        run "seek$s" "$RF" seek "$SCENE" --time "$s" -o "$T/seek.png"
    done
    i=$((i + 1))
done
S0=$(median "$T/seek0.wall")
S1=$(median "$T/seek3600.wall")
row "seek --time 3600 vs --time 0" "${S1}ms" "${S0}ms" "$(ratio "$S1" "$S0")" "<=" 1.1

# ---- (c) a 10 s scene settled by 0.9 s: reuse vs --no-reuse ----
cat >"$T/settle.json" <<'EOF'
{
  "runeframe": 1,
  "canvas": { "width": 1280, "height": 720, "background": "#0b1020" },
  "timeline": { "fps": 60, "duration": 10 },
  "values": {
    "x": { "spring": { "from": 100, "to": 900, "stiffness": 400, "damping_ratio": 1 } },
    "y": { "spring": { "from": 600, "to": 300, "stiffness": 300, "damping_ratio": 0.8 } },
    "w": { "tween": { "from": 0, "to": 800, "duration": 0.8, "easing": "ease-out-cubic" } },
    "a": { "tween": { "from": 0, "to": 1, "duration": 0.6, "easing": "ease-in-out", "start": 0.2 } },
    "r": { "tween": { "from": -30, "to": 0, "duration": 0.9, "easing": "ease-out-back" } }
  },
  "layers": [
    { "type": "rect", "x": 640, "y": 360, "width": 1280, "height": 720,
      "fill": { "linear": { "from": [0, 0], "to": [1280, 720],
                            "stops": [[0, "#0b1020"], [1, "#1d2b53"]] } } },
    { "type": "circle", "x": "x", "y": "y", "r": 40, "fill": "#ffb000",
      "stroke": "#ffffff", "stroke_width": 3 },
    { "type": "rect", "x": 240, "y": 650, "width": "w", "height": 12, "radius": 6,
      "anchor": [0, 0.5], "fill": "#7bdff2" },
    { "type": "group", "x": 640, "y": 200, "rotate": "r", "opacity": "a", "children": [
      { "type": "rect", "width": 300, "height": 120, "radius": 16, "fill": "#f5f7ff",
        "stroke": "#1d2b53", "stroke_width": 3 },
      { "type": "circle", "x": -90, "y": 0, "r": 30, "fill": "#b967ff" }
    ] }
  ]
}
EOF
i=0
while [ $i -lt "$PAIRS" ]; do
    for m in $( [ $((i % 2)) = 0 ] && echo "reuse noreuse" || echo "noreuse reuse"); do
        rm -rf "$T/out"
        if [ "$m" = reuse ]; then
            run reuse "$RF" render "$T/settle.json" -o "$T/out" --quiet
        else
            run noreuse "$RF" render "$T/settle.json" -o "$T/out" --quiet --no-reuse
        fi
    done
    i=$((i + 1))
done
R1=$(median "$T/reuse.wall")
R0=$(median "$T/noreuse.wall")
row "settled 10 s: reuse vs --no-reuse" "${R1}ms" "${R0}ms" "$(ratio "$R1" "$R0")" "<=" 0.3

# ---- (d) -o x.mp4 vs ffmpeg alone ----
MP4_NOTE=
if command -v ffmpeg >/dev/null 2>&1; then
    # The raw frames once, outside the timing: runeframe's own RGBA stream,
    # then rgb24 as runeframe pipes it to ffmpeg for mp4 (the scene is opaque).
    set -- $("$RF" info "$SCENE" | awk '$1 == "canvas" { sub("x", " ", $2); print $2 }
                                       $1 == "fps" { print $2 }')
    W=$1 H=$2 FPS=$3
    "$RF" render "$SCENE" --format rgba -o "$T/frames.rgba" --quiet || exit 2
    ffmpeg -hide_banner -loglevel error -y -f rawvideo -pix_fmt rgba -s "${W}x$H" \
        -i "$T/frames.rgba" -f rawvideo -pix_fmt rgb24 "$T/frames.rgb" || exit 2
    rm -f "$T/frames.rgba"
    # ffmpeg reads a pipe, as from runeframe (fps 60 -> "60/1", cmd-render.c)
    cat >"$T/ffmpeg-alone.sh" <<EOF
cat "$T/frames.rgb" | ffmpeg -hide_banner -loglevel error -y -f rawvideo -pix_fmt rgb24 \\
    -s ${W}x$H -r $FPS/1 -i - -pix_fmt yuv420p "$T/b.mp4"
EOF
    i=0
    while [ $i -lt "$PAIRS" ]; do
        for m in $( [ $((i % 2)) = 0 ] && echo "ours ff" || echo "ff ours"); do
            rm -f "$T/a.mp4" "$T/b.mp4"
            if [ "$m" = ours ]; then
                run mp4 "$RF" render "$SCENE" -o "$T/a.mp4" --quiet
            else
                run ffmpeg sh "$T/ffmpeg-alone.sh"
            fi
        done
        i=$((i + 1))
    done
    M1=$(median "$T/mp4.wall")
    M0=$(median "$T/ffmpeg.wall")
    row "render -o x.mp4 vs ffmpeg alone" "${M1}ms" "${M0}ms" "$(ratio "$M1" "$M0")" "<=" 1.3
    if [ "$HAVE_TIME" = 1 ]; then
        MP4_NOTE="CPU (user+system): -o x.mp4 $(median "$T/mp4.cpu")ms, ffmpeg alone $(median "$T/ffmpeg.cpu")ms"
    fi
else
    skip "render -o x.mp4 vs ffmpeg alone" "ffmpeg not installed"
fi

# ---- (e) peak RSS of render --jobs 2 ----
if [ "$HAVE_TIME" = 1 ] && [ -n "$NFRAMES" ]; then
    # rss KiBFILE ARGS...: the peak RSS of one render, in KiB
    rss() {
        f=$1
        shift
        rm -rf "$T/out"
        /usr/bin/time -f %M -o "$T/rss.txt" "$RF" render "$SCENE" -o "$T/out" --jobs 2 --quiet "$@" \
            >/dev/null 2>"$T/err.txt" || { cat "$T/err.txt" >&2; exit 2; }
        tail -n 1 "$T/rss.txt" >>"$T/$f"
    }
    Q=$((NFRAMES / 4))
    [ "$Q" -ge 1 ] || Q=1
    i=0
    while [ $i -lt 3 ]; do
        rss rss.all
        rss rss.quarter --frames "0:$Q"
        i=$((i + 1))
    done
    RA=$(median "$T/rss.all")
    RQ=$(median "$T/rss.quarter")
    mib() { awk -v k="$1" 'BEGIN { printf "%.1fMiB\n", k / 1024 }'; }
    row "peak RSS, render --jobs 2" "$(mib "$RA")" "64MiB" "$(ratio "$RA" 65536)" "<=" 1.0
    row "peak RSS, $NFRAMES vs $Q frames" "$(mib "$RA")" "$(mib "$RQ")" "$(ratio "$RA" "$RQ")" "<=" 1.1
else
    skip "peak RSS, render --jobs 2" "/usr/bin/time missing"
fi

echo
printf '%-36s %11s %11s %9s %11s  %s\n' figure subject baseline ratio goal result
cat "$ROWS"
echo
echo "$CPU_NOTE"
[ -n "$MP4_NOTE" ] && echo "$MP4_NOTE"
echo "(medians of wall time, peak RSS of 3 runs; the ratio of (a) is baseline / subject, a speedup)"
[ "$STRICT" = 1 ] && [ "$FAILS" -gt 0 ] && exit 1
exit 0
