#!/usr/bin/env python3
"""blend-ref.py - the W3C Compositing and Blending Level 1 formulas
(https://www.w3.org/TR/compositing-1/#blending) for the sixteen
mix-blend-mode names, applied to an opaque source color over an opaque
backdrop; prints the C table tests/check_compose.c holds the renderer to
(the result of an opaque source over an opaque backdrop is B(Cb, Cs))."""
import math

CB = (40, 200, 120)    # backdrop
CS = (220, 90, 30)    # source

def sep(f):
    return lambda cb, cs: tuple(f(b, s) for b, s in zip(cb, cs))

def multiply(b, s): return b * s
def screen(b, s): return b + s - b * s
def hard_light(b, s): return multiply(b, 2 * s) if s <= 0.5 else screen(b, 2 * s - 1)
def overlay(b, s): return hard_light(s, b)
def color_dodge(b, s):
    if b == 0: return 0
    if s == 1: return 1
    return min(1, b / (1 - s))
def color_burn(b, s):
    if b == 1: return 1
    if s == 0: return 0
    return 1 - min(1, (1 - b) / s)
def soft_light(b, s):
    if s <= 0.5:
        return b - (1 - 2 * s) * b * (1 - b)
    d = ((16 * b - 12) * b + 4) * b if b <= 0.25 else math.sqrt(b)
    return b + (2 * s - 1) * (d - b)

def lum(c): return 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2]
def clip_color(c):
    l = lum(c); n = min(c); x = max(c)
    if n < 0: c = tuple(l + (v - l) * l / (l - n) for v in c)
    if x > 1: c = tuple(l + (v - l) * (1 - l) / (x - l) for v in c)
    return c
def set_lum(c, l):
    d = l - lum(c)
    return clip_color(tuple(v + d for v in c))
def sat(c): return max(c) - min(c)
def set_sat(c, s):
    c = list(c)
    order = sorted(range(3), key=lambda i: c[i])
    mn, md, mx = order
    if c[mx] > c[mn]:
        c[md] = (c[md] - c[mn]) * s / (c[mx] - c[mn])
        c[mx] = s
    else:
        c[md] = c[mx] = 0
    c[mn] = 0
    return tuple(c)

MODES = [
    ("normal", sep(lambda b, s: s)),
    ("multiply", sep(multiply)),
    ("screen", sep(screen)),
    ("overlay", sep(overlay)),
    ("darken", sep(min)),
    ("lighten", sep(max)),
    ("color-dodge", sep(color_dodge)),
    ("color-burn", sep(color_burn)),
    ("hard-light", sep(hard_light)),
    ("soft-light", sep(soft_light)),
    ("difference", sep(lambda b, s: abs(b - s))),
    ("exclusion", sep(lambda b, s: b + s - 2 * b * s)),
    ("hue", lambda cb, cs: set_lum(set_sat(cs, sat(cb)), lum(cb))),
    ("saturation", lambda cb, cs: set_lum(set_sat(cb, sat(cs)), lum(cb))),
    ("color", lambda cb, cs: set_lum(cs, lum(cb))),
    ("luminosity", lambda cb, cs: set_lum(cb, lum(cs))),
]

cb = tuple(v / 255 for v in CB)
cs = tuple(v / 255 for v in CS)
for name, f in MODES:
    r = f(cb, cs)
    print('    { "%s", { %s } },' % (name, ", ".join(str(int(math.floor(v * 255 + 0.5))) for v in r)))
