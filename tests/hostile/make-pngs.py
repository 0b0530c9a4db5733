#!/usr/bin/env python3
"""tests/hostile/make-pngs.py - writes the PNG cases of tests/hostile/.

Run by hand from the source tree (python3 tests/hostile/make-pngs.py). The
images are built with tests/pngtool.py (a PNG writer from the specification
that shares no code with runeframe) and then broken on purpose: truncated,
bad CRCs, impossible headers, odd chunks. Each case NAME.png gets NAME.cmd
and NAME.rc; NAME.err (the exact first line of stderr) and NAME.out are
judged by hand. Also writes ref.png (the reference every "decodes the same"
case is compared with), refa.png (the same with transparency), the goldens
NAME.golden.png of the drawing cases, NAME.ref.png where a case has its own reference (independent of runeframe: the pixels
are written out here), and png-scene.json, whose frame 0 is ref.png.
"""
import json
import os
import struct
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import pngtool as P  # noqa: E402

W, H = 8, 8
BG = (0x20, 0x40, 0x80, 255)
FG = (0xff, 0xb0, 0x00, 255)


def ref_pixels(alpha=False):
    px = []
    for y in range(H):
        for x in range(W):
            inside = 2 <= x < 6 and 2 <= y < 5
            c = FG if inside else BG
            if alpha and not inside:
                c = (0, 0, 0, 0)
            px.append(list(c))
    return px


def rgba_bytes(px):
    return b"".join(bytes(p) for p in px)


def ihdr(w, h, d=8, ct=6, comp=0, filt=0, inter=0):
    return (b"IHDR", struct.pack(">IIBBBBB", w, h, d, ct, comp, filt, inter))


def raw_rgba(px, w=W, h=H):
    return b"".join(b"\x00" + rgba_bytes(px[y * w:(y + 1) * w]) for y in range(h))


def idat(raw):
    return (b"IDAT", zlib.compress(raw))


IEND = (b"IEND", b"")
GOOD_RAW = raw_rgba(ref_pixels())

CASES = {}


def case(name, data, cmd, rc):
    CASES[name] = (data, cmd, rc)


def png(chunks):
    return P.write_chunks(chunks)


REF = P.encode(W, H, ref_pixels(), 8, 6)
REFA = P.encode(W, H, ref_pixels(True), 8, 6)
w_, h_, REF_RGBA, _ = P.decode(REF)
_, _, REFA_RGBA, _ = P.decode(REFA)


def recode(kind, src=REF_RGBA):
    return P.recode(W, H, src, kind, False)


# --- damaged files: exit 3, one line naming the file
case("png-truncated-header", REF[:20], "diff @ REF", 3)
case("png-truncated-idat", REF[:60], "diff @ REF", 3)
case("png-truncated-no-iend", REF[:-12], "diff @ REF -o OUT/d.png", 3)
bad = bytearray(REF)
bad[8 + 8 + 13] ^= 0x55           # IHDR's CRC
case("png-bad-crc-ihdr", bytes(bad), "diff @ REF", 3)


def flip_in(data, kind, offset_in_body, crc=False):
    d = bytearray(data)
    at = 8
    while d[at + 4:at + 8] != kind:
        n, = struct.unpack(">I", d[at:at + 4])
        at += 12 + n
    n, = struct.unpack(">I", d[at:at + 4])
    d[at + 8 + (n if crc else offset_in_body)] ^= 0x55
    return bytes(d)


case("png-bad-crc-idat", flip_in(REF, b"IDAT", 0, crc=True), "diff REF @", 3)
case("png-flipped-idat-byte", flip_in(REF, b"IDAT", 2), "diff @ REF", 3)
case("png-bad-crc-text", flip_in(REF, b"tEXt", 0, crc=True), "diff @ REF", 3)
case("png-dims-100000", png([ihdr(100000, 100000), idat(GOOD_RAW), IEND]), "diff @ REF", 3)
case("png-dims-max", png([ihdr(2 ** 32 - 1, 2 ** 32 - 1), idat(GOOD_RAW), IEND]), "diff @ REF", 3)
case("png-dims-2e31", png([ihdr(2 ** 31, 1), idat(GOOD_RAW), IEND]), "diff @ REF", 3)
case("png-dims-16385", png([ihdr(16385, 1), idat(GOOD_RAW), IEND]), "diff @ REF", 3)
case("png-dims-pixels", png([ihdr(16384, 4097), idat(GOOD_RAW), IEND]), "diff @ REF", 3)
case("png-dims-at-limit-short-data", png([ihdr(16384, 4096), idat(GOOD_RAW), IEND]), "diff @ @", 3)
case("png-zero-width", png([ihdr(0, 8), idat(GOOD_RAW), IEND]), "diff @ REF", 3)
case("png-zero-height", png([ihdr(8, 0), idat(GOOD_RAW), IEND]), "diff @ REF", 3)
case("png-bit-depth-3", png([ihdr(W, H, d=3), idat(GOOD_RAW), IEND]), "diff @ REF", 3)
case("png-color-type-5", png([ihdr(W, H, ct=5), idat(GOOD_RAW), IEND]), "diff @ REF", 3)
case("png-interlace-2", png([ihdr(W, H, inter=2), idat(GOOD_RAW), IEND]), "diff @ REF", 3)
case("png-compression-1", png([ihdr(W, H, comp=1), idat(GOOD_RAW), IEND]), "diff @ REF", 3)
case("png-ihdr-short", png([(b"IHDR", struct.pack(">IIBBBB", W, H, 8, 6, 0, 0)), idat(GOOD_RAW), IEND]), "diff @ REF", 3)
case("png-no-ihdr", png([idat(GOOD_RAW), IEND]), "diff @ REF", 3)
case("png-two-ihdr", png([ihdr(W, H), ihdr(W, H), idat(GOOD_RAW), IEND]), "diff @ REF", 3)
case("png-row-filter-5", png([ihdr(W, H), idat(b"".join(b"\x05" + bytes(4 * W) for _ in range(H))), IEND]), "diff @ REF", 3)
case("png-no-idat", png([ihdr(W, H), IEND]), "diff @ REF", 3)
case("png-empty-idat", png([ihdr(W, H), (b"IDAT", b""), IEND]), "diff @ REF", 3)
case("png-idat-short", png([ihdr(W, H), idat(GOOD_RAW[:-10]), IEND]), "diff @ REF", 3)
case("png-idat-not-zlib", png([ihdr(W, H), (b"IDAT", b"hello, not zlib"), IEND]), "diff @ REF", 3)
case("png-unknown-critical", png([ihdr(W, H), (b"ABCD", b"xyz"), idat(GOOD_RAW), IEND]), "diff @ REF", 3)
pal_raw = b"".join(b"\x00" + bytes([(x + y) % 4 for x in range(W)]) for y in range(H))
PLTE = (b"PLTE", bytes([255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]))
case("png-palette-missing", png([ihdr(W, H, 8, 3), idat(pal_raw), IEND]), "diff @ REF", 3)
case("png-palette-index", png([ihdr(W, H, 8, 3), (b"PLTE", bytes([255, 0, 0, 0, 255, 0])), idat(pal_raw), IEND]), "diff @ REF", 3)
case("png-palette-257", png([ihdr(W, H, 8, 3), (b"PLTE", bytes(3 * 257)), idat(pal_raw), IEND]), "diff @ REF", 3)
d = bytearray(png([ihdr(W, H), idat(GOOD_RAW), IEND]))
d[33:37] = struct.pack(">I", 0x7fffffff)
case("png-chunk-length-2g", bytes(d), "diff @ REF", 3)
d[33:37] = struct.pack(">I", 0xffffffff)
case("png-chunk-length-4g", bytes(d), "diff @ REF", 3)
case("png-signature-only", P.SIG, "diff @ REF", 3)
case("png-bad-signature", b"\x89PNX\r\n\x1a\n" + REF[8:], "diff @ REF", 3)
case("png-crlf-mangled", b"\x89PNG\n\x1a\n" + REF[8:], "diff @ REF", 3)
case("png-jpeg", b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(64), "diff @ REF", 3)
case("png-text-file", b"not a png at all\n", "diff @ REF", 3)
case("png-empty", b"", "diff @ REF", 3)
case("png-both-bad", REF[:30], "diff @ @ -o OUT/d.png", 3)

# --- unusual but valid files: decode to ref.png's pixels exactly, exit 0
case("png-rgba16", recode("rgba16"), "diff @ REF", 0)
case("png-rgb16-rounding", recode("rgb16r"), "diff @ REF", 0)
case("png-rgb8", recode("rgb8"), "diff @ REF", 0)
case("png-palette", recode("palette"), "diff @ REF", 0)
case("png-interlaced", recode("rgba8-i"), "diff @ REF", 0)
case("png-palette-trns", P.recode(W, H, REFA_RGBA, "palette", False), "diff @ REFA", 0)
case("png-rgb8-trns-key", P.recode(W, H, REFA_RGBA, "rgb8-trns", False), "diff @ REFA", 0)
GRAY = bytes(b for p in range(W * H) for b in ((0, 0, 0, 0) if p % 3 == 0 else (90, 90, 90, 255)))
case("png-gray16-trns", P.recode(W, H, GRAY, "gray16-trns", False), "diff @ REF", 0)
OWN_REF = {"png-gray16-trns": P.recode(W, H, GRAY, "rgba8", False)}
cs = P.read_chunks(REF)
# APNG: acTL, fcTL, a second frame in fdAT: the default image is read
inv = zlib.compress(b"".join(b"\x00" + bytes(255 - v if (i % 4) < 3 else v for i, v in enumerate(rgba_bytes(ref_pixels()[y * W:(y + 1) * W]))) for y in range(H)))
fctl = lambda seq: struct.pack(">IIIIIHHBB", seq, W, H, 0, 0, 1, 10, 0, 0)  # noqa: E731
out = [cs[0], (b"acTL", struct.pack(">II", 2, 0))]
for k, b in cs[1:]:
    if k == b"IDAT" and not any(c[0] == b"fcTL" for c in out):
        out.append((b"fcTL", fctl(0)))
    if k == b"IEND":
        out.append((b"fcTL", fctl(1)))
        out.append((b"fdAT", struct.pack(">I", 2) + inv))
    out.append((k, b))
case("png-apng", P.write_chunks(out), "diff @ REF", 0)
case("png-trailing-garbage", REF + b"garbage after IEND", "diff @ REF", 0)
case("png-chunk-after-iend", REF + P.chunk(b"IDAT", b"zz"), "diff @ REF", 0)
case("png-unknown-ancillary", png([ihdr(W, H), (b"abCd", b"xyz"), idat(GOOD_RAW), IEND]), "diff @ REF", 0)
case("png-idat-extra-data", png([ihdr(W, H), idat(GOOD_RAW + bytes(1000)), IEND]), "diff @ REF", 0)
# a wrong Adler-32 under a right CRC: the CRC covers every byte, and pngjs
# and odiff decode it too
z = bytearray(zlib.compress(GOOD_RAW))
z[-1] ^= 0xff
case("png-idat-adler", png([ihdr(W, H), (b"IDAT", bytes(z)), IEND]), "diff @ REF", 0)
case("png-idat-1-byte-chunks", P.encode(W, H, ref_pixels(), 8, 6, idat_split=1), "diff @ REF", 0)
case("png-iccp-junk", png([ihdr(W, H), (b"iCCP", b"prof\x00\x00notzlib"), idat(GOOD_RAW), IEND]), "diff @ REF", 0)
case("png-1x1", P.encode(1, 1, [[1, 2, 3, 4]], 8, 6), "diff @ @", 0)
# cases the reader's fast way (src/pngio-inflate.c) must leave to libpng:
# the data split by another chunk; a stream that reaches further back than
# the window its header declares (512 bytes; zlib refuses it, libdeflate
# would not); IEND with data (libpng: benign)
zg = zlib.compress(GOOD_RAW)
case("png-idat-split-by-text", png([ihdr(W, H), (b"IDAT", zg[:20]), (b"tEXt", b"a\x00b"), (b"IDAT", zg[20:]), IEND]), "diff @ REF", 3)
FAR_RAW = b"".join(b"\x00" + bytes((x * 7 + (y % 2) * 3) % 256 for x in range(4 * 64)) for y in range(8))
zf = bytearray(zlib.compress(FAR_RAW, 9))
zf[0] = 0x18                     # CINFO 1: a 512-byte window
zf[1] = (zf[1] & 0xe0) + (31 - (zf[0] * 256 + (zf[1] & 0xe0)) % 31) % 31
case("png-zlib-window-too-small", png([ihdr(64, 8), (b"IDAT", bytes(zf)), IEND]), "diff @ @", 3)
case("png-iend-with-data", png([ihdr(W, H), idat(GOOD_RAW), (b"IEND", b"xx")]), "diff @ REF", 0)

# --- as goldens of `check`: the frame's verdict on stdout
case("golden-rgba16", recode("rgba16"), "check SCENE --golden GOLDEN", 0)
case("golden-palette", recode("palette"), "check SCENE --golden GOLDEN", 0)
case("golden-truncated", REF[:50], "check SCENE --golden GOLDEN", 3)
case("golden-bad-crc", flip_in(REF, b"IDAT", 0, crc=True), "check SCENE --golden GOLDEN", 3)
case("golden-huge-dims", png([ihdr(100000, 100000), idat(GOOD_RAW), IEND]), "check SCENE --golden GOLDEN", 3)
case("golden-zero-dims", png([ihdr(0, 0), idat(GOOD_RAW), IEND]), "check SCENE --golden GOLDEN", 3)
case("golden-wrong-size", P.encode(4, 4, [list(BG)] * 16, 8, 6), "check SCENE --golden GOLDEN", 1)
case("golden-not-png", b"GIF89a", "check SCENE --golden GOLDEN", 3)
case("golden-update-over-broken", REF[:50], "check SCENE --golden GOLDEN --update", 0)


def golden_stripes(w, h, white):
    """A w x h opaque black image, white where white(x, y)."""
    px = [[255, 255, 255, 255] if white(x, y) else [0, 0, 0, 255] for y in range(h) for x in range(w)]
    return P.encode(w, h, px, 8, 6)


def golden_columns(w, h, color_of_x):
    """A w x h opaque image whose column x is color_of_x(x) (r, g, b)."""
    px = [list(color_of_x(x)) + [255] for y in range(h) for x in range(w)]
    return P.encode(w, h, px, 8, 6)


GOLDENS = {
    # x < 7 the fill, the 2 px stroke over 7..9, the background after
    "draw-stroke-huge-circle": golden_columns(16, 8, lambda x: (255, 255, 255) if x < 7 else (255, 0, 0) if x < 9 else (0, 0, 0)),
    "draw-rect-1e9-edge": golden_stripes(16, 8, lambda x, y: x < 8),
    "draw-circle-1e300": golden_stripes(16, 8, lambda x, y: True),
    "draw-circle-1e15-edge": golden_stripes(16, 8, lambda x, y: x < 8),
    "draw-line-1e7": golden_stripes(16, 8, lambda x, y: x >= 2 and 3 <= y < 5),
    "draw-ellipse-1e9": golden_stripes(16, 8, lambda x, y: 2 <= y < 6),
    "draw-rounded-1e300": golden_stripes(16, 8, lambda x, y: True),
    "draw-scale-1e155": golden_stripes(16, 8, lambda x, y: False),
    "draw-scale-1e100": golden_stripes(16, 8, lambda x, y: True),
    "draw-every-prop-1e308": P.encode(16, 8, [[0, 0, 0, 0]] * 128, 8, 6),
    "draw-every-prop-denormal": P.encode(16, 8, [[0, 0, 0, 0]] * 128, 8, 6),
    "draw-every-prop-negzero": P.encode(16, 8, [[0, 0, 0, 0]] * 128, 8, 6),
    "draw-nonfinite-values": golden_stripes(16, 8, lambda x, y: False),
}


def main():
    with open(os.path.join(HERE, "ref.png"), "wb") as f:
        f.write(REF)
    with open(os.path.join(HERE, "refa.png"), "wb") as f:
        f.write(REFA)
    scene = {"runeframe": 1,
             "canvas": {"width": W, "height": H, "background": "#204080"},
             "timeline": {"fps": 10, "duration": 0.1},
             "layers": [{"type": "rect", "x": 2, "y": 2, "anchor": [0, 0], "width": 4, "height": 3,
                         "fill": "#ffb000"}],
             "checks": {"frames": [0]}}
    with open(os.path.join(HERE, "png-scene.json"), "w") as f:
        f.write(json.dumps(scene, indent=1) + "\n")
    for name, (data, cmd, rc) in CASES.items():
        base = os.path.join(HERE, name)
        with open(base + ".png", "wb") as f:
            f.write(data)
        with open(base + ".cmd", "w") as f:
            f.write(cmd + "\n")
        if rc != 2:
            with open(base + ".rc", "w") as f:
                f.write("%d\n" % rc)
    for name, data in OWN_REF.items():
        with open(os.path.join(HERE, name + ".ref.png"), "wb") as f:
            f.write(data)
    for name, data in GOLDENS.items():
        with open(os.path.join(HERE, name + ".golden.png"), "wb") as f:
            f.write(data)
    print(len(CASES), "PNG cases,", len(GOLDENS), "goldens")


if __name__ == "__main__":
    main()
