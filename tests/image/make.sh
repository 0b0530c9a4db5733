#!/bin/sh
# tests/image/make.sh - how the test images in this folder were made (run
# once by hand; the files are committed, the tests never run this).
#   pattern.png   7 x 5 RGBA, every pixel different, alphas 0, 1, 77, 128,
#                 200, 254 and 255 (tests/pngtool.py's own encoder)
#   halves.png    40 x 20 opaque: x < 20 red, x >= 20 blue (fit boxes)
#   blocks.jpg    48 x 32, 3 x 2 blocks of 16 px in six colors, cjpeg
#                 -quality 100 -sample 1x1 (no chroma subsampling): each
#                 block's inside decodes to its color within a few levels
#   orient-N.jpg  blocks.jpg with an APP1 Exif segment inserted after SOI
#                 whose IFD0 holds only Orientation = N (1..8), little-endian
#                 for odd N, big-endian for even N
#   icon.svg      a 24 x 24 icon by hand (circle, path with arcs, stroke)
set -eu
cd "$(dirname "$0")"
python3 - <<'PY'
import struct, subprocess, sys
sys.path.insert(0, '..')
import pngtool
w, h = 7, 5
pix = bytearray()
for y in range(h):
    for x in range(w):
        a = 255 if (x + y) % 3 else [0, 1, 77, 128, 200, 254][(x * y) % 6]
        pix += bytes([(x * 37 + y * 11) % 256, (x * 5 + y * 71) % 256,
                      (x * 113 + y * 29 + 7) % 256, a])
pngtool.write_rgba('pattern.png', w, h, bytes(pix))
pix = bytearray()
for y in range(20):
    for x in range(40):
        pix += bytes([255, 0, 0, 255] if x < 20 else [0, 0, 255, 255])
pngtool.write_rgba('halves.png', 40, 20, bytes(pix))
COLORS = [(220, 40, 40), (40, 180, 60), (40, 70, 220), (240, 200, 30), (30, 200, 220),
          (200, 60, 200)]
ppm = bytearray(b'P6\n48 32\n255\n')
for y in range(32):
    for x in range(48):
        ppm += bytes(COLORS[(y // 16) * 3 + x // 16])
jpg = subprocess.run(['cjpeg', '-quality', '100', '-sample', '1x1'], input=bytes(ppm),
                     check=True, capture_output=True).stdout
open('blocks.jpg', 'wb').write(jpg)
for n in range(1, 9):
    le = n % 2 == 1
    e = '<' if le else '>'
    tiff = (b'II' if le else b'MM') + struct.pack(e + 'HI', 42, 8)
    tiff += struct.pack(e + 'H', 1) + struct.pack(e + 'HHIHH', 0x0112, 3, 1, n, 0)
    tiff += struct.pack(e + 'I', 0)
    app1 = b'Exif\0\0' + tiff
    seg = b'\xff\xe1' + struct.pack('>H', len(app1) + 2) + app1
    open('orient-%d.jpg' % n, 'wb').write(jpg[:2] + seg + jpg[2:])
PY
