#!/usr/bin/env python3
"""blur-ref.py - the W3C Filter Effects feGaussianBlur of one white pixel
(255 in all four channels) in the middle of an N x N transparent region,
computed from the specification's text in exact integers, independently of
src/blur.c: for s >= 2, d = floor(s * 3 * sqrt(2 * pi) / 4 + 0.5) and three
box blurs (d odd: centered; d even: size d centered on the left pixel
boundary, size d on the right one, then size d + 1 centered); below 2, the
Gaussian exp(-k^2 / (2 s^2)) for |k| <= ceil(3 s), as 16.16 weights that sum
to 65536 (the center takes the remainder). Each pass rounds (blur.h):
box (sum + d // 2) // d, kernel (acc + 32768) >> 16. Rows first, then
columns. Prints tests/blur-ref.h."""
import math

N = 31

def box(line, lo, hi):
    d = lo + hi + 1
    out = []
    for i in range(len(line)):
        s = sum(line[j] for j in range(i - lo, i + hi + 1) if 0 <= j < len(line))
        out.append((s + d // 2) // d)
    return out

def gauss_weights(s):
    r = min(math.ceil(3 * s), 6)
    w = [math.exp(-k * k / (2 * s * s)) for k in range(r + 1)]
    tot = w[0] + 2 * sum(w[1:])
    wt = [0] + [math.floor(65536 * w[k] / tot + 0.5) for k in range(1, r + 1)]
    wt[0] = 65536 - 2 * sum(wt[1:])
    return r, wt

def blur1(line, s):
    if s < 2:
        r, wt = gauss_weights(s)
        n = len(line)
        return [(32768 + sum(wt[abs(k)] * line[i + k] for k in range(-r, r + 1)
                             if 0 <= i + k < n)) >> 16 for i in range(n)]
    d = math.floor(s * 3 * math.sqrt(2 * math.pi) / 4 + 0.5)
    if d % 2:
        for _ in range(3):
            line = box(line, d // 2, d // 2)
        return line
    line = box(line, d // 2, d // 2 - 1)
    line = box(line, d // 2 - 1, d // 2)
    return box(line, d // 2, d // 2)

def blur2(img, s):
    img = [blur1(row, s) for row in img]
    cols = [blur1([img[y][x] for y in range(N)], s) for x in range(N)]
    return [[cols[x][y] for x in range(N)] for y in range(N)]

print("/* blur-ref.h - printed by tests/blur-ref.py: the feGaussianBlur of one")
print(" * white pixel at the center of a %d x %d region, one channel (all four" % (N, N))
print(" * are equal), row by row. */")
print("#define BLUR_REF_N %d" % N)
print("static const struct { double s; int d; unsigned char px[%d]; } blur_ref[] = {" % (N * N))
for s in (1.2, 2.5, 3.0, 4.3):
    img = [[0] * N for _ in range(N)]
    img[N // 2][N // 2] = 255
    out = blur2(img, s)
    d = math.floor(s * 3 * math.sqrt(2 * math.pi) / 4 + 0.5) if s >= 2 else 0
    vals = [v for row in out for v in row]
    print("    { %g, %d, {" % (s, d))
    for i in range(0, len(vals), 20):
        print("        " + ", ".join(str(v) for v in vals[i:i + 20]) + ",")
    print("    } },")
print("};")
