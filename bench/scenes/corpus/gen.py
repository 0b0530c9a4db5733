#!/usr/bin/env python3
"""bench/scenes/corpus/gen.py - writes the PNG benchmark's frame corpus:
one runeframe scene per frame kind and size, KIND-720.json (1280x720) and
KIND-1080.json (1920x1080), next to this script. bench/png renders frame
time 1.0 of each and encodes it. The generated files are committed; run
this again only to change them (fixed seed: same files every time).

Kinds:
  flat-ui      cards, buttons, avatars and dividers in flat colors on a
               plain background (large runs of one color, sharp edges)
  showcase     not generated: bench/scenes/showcase-720.json and
               showcase-1080.json, the benchmarks' showcase scenes
  gradient     a full-canvas linear gradient, radial glows, gradient panels
  photo        a photo-like screenshot: gradients under 3,000 small
               translucent shapes of random colors (noise)
  translucent  no background (a transparent canvas: RGBA PNG), translucent
               shapes and gradients with soft edges
  strokes      many thin strokes (0.5 to 1.5 px lines and curves), a chart
  text         a text-heavy screen: a document of wrapped paragraphs in
               the built-in sans at 13 to 16 px, headings, a code block
               in mono and a sidebar list, on a white page (antialiased
               glyph edges, few runs)
"""
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
SIZES = {720: (1280, 720), 1080: (1920, 1080)}


def color(rnd, alpha=None):
    c = '#%02x%02x%02x' % (rnd.randrange(256), rnd.randrange(256), rnd.randrange(256))
    if alpha is not None:
        c += '%02x' % alpha
    return c


def scene(w, h, layers, background=None, paths=None):
    s = {'runeframe': 1, 'canvas': {'width': w, 'height': h}}
    if background:
        s['canvas']['background'] = background
    s['timeline'] = {'fps': 30, 'duration': 2}
    if paths:
        s['paths'] = paths
    s['layers'] = layers
    return s


def flat_ui(w, h, rnd):
    k = w / 1280
    L = []
    # top bar, side bar
    L.append({'type': 'rect', 'x': w / 2, 'y': 32 * k, 'width': w, 'height': 64 * k, 'fill': '#1f2937'})
    L.append({'type': 'rect', 'x': 120 * k, 'y': h / 2 + 32 * k, 'width': 240 * k,
              'height': h - 64 * k, 'fill': '#f3f4f6'})
    for i in range(8):
        L.append({'type': 'rect', 'x': 120 * k, 'y': (110 + 52 * i) * k, 'width': 200 * k,
                  'height': 36 * k, 'radius': 6 * k, 'fill': '#3b82f6' if i == 2 else '#e5e7eb'})
    # cards in a grid
    palette = ['#ef4444', '#f59e0b', '#10b981', '#3b82f6', '#8b5cf6', '#ec4899']
    for r in range(3):
        for c in range(3):
            x = (330 + c * 310) * k
            y = (130 + r * 200) * k
            L.append({'type': 'rect', 'x': x + 140 * k, 'y': y + 85 * k, 'width': 280 * k,
                      'height': 170 * k, 'radius': 12 * k, 'fill': '#ffffff',
                      'stroke': '#d1d5db', 'stroke_width': 1})
            L.append({'type': 'circle', 'x': x + 36 * k, 'y': y + 36 * k, 'r': 18 * k,
                      'fill': palette[(r * 3 + c) % 6]})
            for j in range(3):
                L.append({'type': 'rect', 'x': x + 120 * k, 'y': y + (80 + 22 * j) * k,
                          'width': (200 - 40 * j) * k, 'height': 10 * k, 'radius': 5 * k,
                          'fill': '#e5e7eb'})
            L.append({'type': 'rect', 'x': x + 220 * k, 'y': y + 145 * k, 'width': 90 * k,
                      'height': 28 * k, 'radius': 14 * k, 'fill': palette[(r + c) % 6]})
            L.append({'type': 'line', 'x1': x + 10 * k, 'y1': y + 128 * k, 'x2': x + 270 * k,
                      'y2': y + 128 * k, 'stroke': '#e5e7eb', 'stroke_width': 1})
    # a moving toast
    L.append({'type': 'rect', 'x': {'expr': '%g + 40 * t' % (w - 200 * k)}, 'y': h - 60 * k,
              'width': 300 * k, 'height': 56 * k, 'radius': 10 * k, 'fill': '#111827'})
    return scene(w, h, L, background='#f9fafb')


def gradient(w, h, rnd):
    k = w / 1280
    L = [{'type': 'rect', 'x': w / 2, 'y': h / 2, 'width': w, 'height': h,
          'fill': {'linear': {'from': [-w / 2, -h / 2], 'to': [w / 2, h / 2],
                              'stops': [[0, '#0f172a'], [0.5, '#6d28d9'], [1, '#f97316']]}}}]
    for i in range(6):
        r = (120 + rnd.random() * 220) * k
        L.append({'type': 'circle', 'x': rnd.random() * w, 'y': rnd.random() * h, 'r': r,
                  'fill': {'radial': {'center': [0, 0], 'radius': r,
                                      'stops': [[0, color(rnd, 200)], [1, color(rnd, 0)]]}}})
    for i in range(4):
        pw, ph = (200 + rnd.random() * 300) * k, (100 + rnd.random() * 200) * k
        L.append({'type': 'rect', 'x': rnd.random() * w, 'y': rnd.random() * h, 'width': pw,
                  'height': ph, 'radius': 20 * k, 'rotate': {'expr': '%g * t' % (rnd.random() * 20)},
                  'fill': {'linear': {'from': [-pw / 2, 0], 'to': [pw / 2, 0],
                                      'stops': [[0, color(rnd, 230)], [1, color(rnd, 120)]]}}})
    return scene(w, h, L, background='#000000')


def photo(w, h, rnd):
    k = w / 1280
    L = [{'type': 'rect', 'x': w / 2, 'y': h / 2, 'width': w, 'height': h,
          'fill': {'linear': {'from': [0, -h / 2], 'to': [0, h / 2],
                              'stops': [[0, '#87a8c8'], [0.55, '#d8c8a8'], [1, '#4a5a30']]}}}]
    for i in range(12):
        r = (80 + rnd.random() * 200) * k
        L.append({'type': 'ellipse', 'x': rnd.random() * w, 'y': h * (0.5 + rnd.random() / 2),
                  'rx': r, 'ry': r * 0.6,
                  'fill': {'radial': {'center': [0, 0], 'radius': r,
                                      'stops': [[0, color(rnd, 180)], [1, color(rnd, 0)]]}}})
    # noise: small translucent shapes, each drifting by an expression
    for i in range(3000):
        x, y = rnd.random() * w, rnd.random() * h
        s = (1 + rnd.random() * 6) * k
        drift = '%g + %g * sin(%g * t + %g)' % (x, 3 * k, 1 + rnd.random() * 3, rnd.random() * 6)
        if i % 2:
            L.append({'type': 'circle', 'x': {'expr': drift}, 'y': y, 'r': s,
                      'fill': color(rnd, 40 + rnd.randrange(120))})
        else:
            L.append({'type': 'rect', 'x': {'expr': drift}, 'y': y, 'width': s * 2, 'height': s,
                      'rotate': rnd.random() * 90, 'fill': color(rnd, 40 + rnd.randrange(120))})
    return scene(w, h, L, background='#000000')


def translucent(w, h, rnd):
    k = w / 1280
    L = []
    for i in range(10):
        r = (60 + rnd.random() * 160) * k
        L.append({'type': 'circle', 'x': rnd.random() * w, 'y': rnd.random() * h, 'r': r,
                  'fill': {'radial': {'center': [0, 0], 'radius': r,
                                      'stops': [[0, color(rnd, 220)], [1, color(rnd, 0)]]}}})
    for i in range(14):
        L.append({'type': 'rect', 'x': rnd.random() * w, 'y': rnd.random() * h,
                  'width': (60 + rnd.random() * 300) * k, 'height': (40 + rnd.random() * 200) * k,
                  'radius': 14 * k, 'rotate': rnd.random() * 40 - 20,
                  'fill': color(rnd, 60 + rnd.randrange(160)), 'stroke': '#ffffffb0',
                  'stroke_width': 2 * k})
    L.append({'type': 'group', 'opacity': 0.5, 'children': [
        {'type': 'ellipse', 'x': w * 0.3, 'y': h * 0.6, 'rx': 220 * k, 'ry': 120 * k, 'fill': '#22d3ee'},
        {'type': 'ellipse', 'x': w * 0.45, 'y': h * 0.55, 'rx': 200 * k, 'ry': 140 * k, 'fill': '#f472b6'}]})
    return scene(w, h, L)


def strokes(w, h, rnd):
    k = w / 1280
    L = []
    # a grid
    for i in range(0, int(w), int(40 * k)):
        L.append({'type': 'line', 'x1': i + 0.5, 'y1': 0, 'x2': i + 0.5, 'y2': h,
                  'stroke': '#2a2f3a', 'stroke_width': 1})
    for j in range(0, int(h), int(40 * k)):
        L.append({'type': 'line', 'x1': 0, 'y1': j + 0.5, 'x2': w, 'y2': j + 0.5,
                  'stroke': '#2a2f3a', 'stroke_width': 1})
    paths = {}
    # chart series: polylines of 120 points, thin
    for s in range(8):
        pts = []
        v = h / 2
        for i in range(121):
            v += (rnd.random() - 0.5) * 30 * k
            v = min(max(v, 20), h - 20)
            pts.append('%s %.2f %.2f' % ('M' if i == 0 else 'L', i * w / 120, v))
        paths['s%d' % s] = ' '.join(pts)
        L.append({'type': 'path', 'path': 's%d' % s, 'trim': [0, {'expr': 'min(1, 0.6 + t / 2)'}],
                  'stroke': color(rnd), 'stroke_width': 0.75 + 0.25 * (s % 3)})
    # hairline curves
    for i in range(150):
        x0, y0 = rnd.random() * w, rnd.random() * h
        d = 'M %.2f %.2f C %.2f %.2f %.2f %.2f %.2f %.2f' % (
            x0, y0, rnd.random() * w, rnd.random() * h, rnd.random() * w, rnd.random() * h,
            rnd.random() * w, rnd.random() * h)
        L.append({'type': 'path', 'path': d, 'stroke': color(rnd, 200),
                  'stroke_width': 0.5 + rnd.random()})
    return scene(w, h, L, background='#14161c', paths=paths)


WORDS = ('frame render scene layer value spring easing golden check timeline '
         'gradient stroke canvas shape motion path sample encode filter deflate '
         'pixel alpha preview shard output ratio median noise text glyph line').split()


def sentence(rnd, n):
    return ' '.join(rnd.choice(WORDS) for _ in range(n)).capitalize() + '.'


def text(w, h, rnd):
    k = w / 1280
    L = [{'type': 'rect', 'x': 130 * k, 'y': h / 2, 'width': 260 * k, 'height': h,
          'fill': '#f3f4f6'}]
    for i in range(22):   # the sidebar list
        L.append({'type': 'text', 'text': sentence(rnd, 3), 'size': 14 * k, 'x': 24 * k,
                  'y': (30 + 30 * i) * k, 'anchor': [0, 0.5],
                  'fill': '#1d4ed8' if i == 4 else '#374151'})
    y = 40 * k
    col = 300 * k
    while y < h - 60 * k:
        L.append({'type': 'text', 'text': sentence(rnd, 5), 'font': 'sans-bold',
                  'size': 24 * k, 'x': col, 'y': y, 'anchor': [0, 0], 'fill': '#111827'})
        y += 40 * k
        size = rnd.choice([13, 14, 15, 16]) * k
        body = ' '.join(sentence(rnd, rnd.randrange(6, 14)) for _ in range(rnd.randrange(4, 9)))
        L.append({'type': 'text', 'text': body, 'size': size, 'width': w - col - 40 * k,
                  'x': col, 'y': y, 'anchor': [0, 0], 'fill': '#374151'})
        y += (len(body) * size * 0.5 / (w - col - 40 * k) + 1) * 1.25 * size + 20 * k
        if rnd.random() < 0.4 and y < h - 160 * k:
            code = '\n'.join('$ runeframe %s scenes/%s.json --%s' % (rnd.choice(WORDS), rnd.choice(WORDS),
                                                                     rnd.choice(WORDS))
                             for _ in range(4))
            L.append({'type': 'rect', 'x': col + (w - col - 40 * k) / 2, 'y': y + 45 * k,
                      'width': w - col - 40 * k, 'height': 90 * k, 'radius': 6 * k,
                      'fill': '#111827'})
            L.append({'type': 'text', 'text': code, 'font': 'mono', 'size': 13 * k,
                      'x': col + 12 * k, 'y': y + 10 * k, 'anchor': [0, 0], 'fill': '#a7f3d0'})
            y += 110 * k
    return scene(w, h, L, background='#ffffff')


KINDS = [('flat-ui', flat_ui), ('gradient', gradient),
         ('photo', photo), ('translucent', translucent), ('strokes', strokes),
         ('text', text)]

if __name__ == '__main__':
    for name, fn in KINDS:
        for tag, (w, h) in SIZES.items():
            rnd = random.Random('%s-%d' % (name, tag))
            with open(os.path.join(HERE, '%s-%d.json' % (name, tag)), 'w') as f:
                json.dump(fn(w, h, rnd), f, separators=(',', ':'))
                f.write('\n')
