#!/bin/sh
# build.sh - builds the seven libFuzzer harnesses with clang.
#
#   tests/fuzz/build.sh [OUTDIR]      (default: tests/fuzz/bin under the cwd)
#
# Compiles the library sources (src/*.c except main.c, cmd*.c and preview.c) once with
# coverage instrumentation and ASan + UBSan, then links each
# tests/fuzz/fuzz-<h>.c with libFuzzer into OUTDIR/fuzz-<h>, for h in
# scene path expr png render text query image. `make fuzz` calls it; tests/fuzz/run.sh runs
# the results. Needs clang with libFuzzer (Debian: clang libclang-rt-14-dev)
# and pkg-config for cairo, libpng, libcjson, libdeflate, HarfBuzz, FreeType,
# libjpeg and librsvg.
# Environment: CLANG (default clang), JOBS (parallel compiles, default 2),
# FUZZ_CFLAGS (added to every compile).
# Exit status: 0 when all seven were built, 77 when clang or libFuzzer is
# missing (nothing to do), 1 on a build failure.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${1:-tests/fuzz/bin}
cc=${CLANG:-clang}
jobs=${JOBS:-2}
harnesses="scene path expr png render text query image"

if ! command -v "$cc" >/dev/null 2>&1; then
    echo "build.sh: $cc not found: install clang and libclang-rt-14-dev to fuzz" >&2
    exit 77
fi
# libFuzzer itself is a separate package on Debian: try a link first
probe=$(mktemp -d "${TMPDIR:-/tmp}/rf-fuzz-probe.XXXXXX")
trap 'rm -rf "$probe"' EXIT
printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' \
    >"$probe/p.c"
if ! "$cc" -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" 2>"$probe/err"; then
    echo "build.sh: $cc cannot link -fsanitize=fuzzer (install libclang-rt-14-dev):" >&2
    cat "$probe/err" >&2
    exit 77
fi

pkgs="cairo libpng libcjson libdeflate harfbuzz freetype2 libjpeg librsvg-2.0"
pc_cflags=$(pkg-config --cflags $pkgs)
pc_libs=$(pkg-config --libs $pkgs)
cflags="-g -O1 -fno-omit-frame-pointer -ffp-contract=off -std=c11 -Wall -Wextra
    -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
    -iquote $top/src -iquote $here -DRF_VERSION=\"fuzz\" ${FUZZ_CFLAGS:-}"

mkdir -p "$out/obj"
out=$(cd "$out" && pwd)

# The library objects, JOBS at a time.
srcs=
for f in "$top"/src/*.c; do
    case $(basename "$f") in
    main.c | cmd*.c | preview.c | lazylib.c) ;;   # preview.c: the HTTP server, not fuzzed here;
        # lazylib.c: these harnesses link librsvg itself (pkgs above)
    *) srcs="$srcs $f" ;;
    esac
done
printf '%s\n' $srcs | xargs -P "$jobs" -I{} sh -c '
    src=$1; shift
    obj="'"$out"'/obj/$(basename "$src" .c).o"
    echo "  CC      $(basename "$src")"
    exec "'"$cc"'" "$@" -c "$src" -o "$obj"
' sh {} $cflags $pc_cflags

objs=
for f in $srcs; do
    objs="$objs $out/obj/$(basename "$f" .c).o"
done
for h in $harnesses; do
    echo "  CCLD    fuzz-$h"
    # shellcheck disable=SC2086
    "$cc" $cflags $pc_cflags -fsanitize=fuzzer,address,undefined \
        "$here/fuzz-$h.c" $objs $pc_libs -lm -lpthread -o "$out/fuzz-$h"
done
echo "build.sh: built $harnesses in $out"
