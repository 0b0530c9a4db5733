#!/usr/bin/env python3
"""tests/pngtool.py - an independent PNG toolkit for tests/check.test.

Written from the PNG specification (ISO/IEC 15948) and pngjs's documented
decoding rules, sharing no code with runeframe, so the tests never use our
own reader to judge our reader. Standard library only (zlib, struct).

Decoding is pngjs's (the decoder of pixelmatch's test suite): every color
type and bit depth, PLTE + tRNS, a tRNS color key compared at full depth
that makes matching pixels 0,0,0,0, samples of depth d != 8 scaled by
floor(v * 255 / (2^d - 1) + 0.5), Adam7, unknown ancillary chunks (APNG's
acTL, fcTL, fdAT) skipped, every CRC checked.

The differ is pixelmatch 7.2 (index.js) re-derived in Python doubles, in
the same operations and order; `selftest` checks it against pixelmatch's
own published fixtures before the tests trust it.

Commands (pixels are "x,y,r,g,b,a"; colors "r,g,b,a"):
  decode IN [OUT.raw]          print "W H"; write RGBA (to stdout with '-')
  info IN                      print "W H depth colortype interlace"
  filters IN                   the filter type of each row, one digit a row
                               (8-bit RGB or RGBA, not interlaced)
  recode IN OUT KIND [--lossy] re-encode IN's pixels as KIND (see KINDS);
                               without --lossy refuse unless exact
  poke IN OUT PIXEL...         set pixels (written as RGB/RGBA 8-bit)
  solid W H COLOR OUT          a one-color image
  pixels-of IN COLOR           the "x,y" of every pixel of exactly COLOR
  count-of IN COLOR            how many pixels have exactly COLOR
  pixel IN X Y                 one pixel's "r,g,b,a"
  same A B                     print the number of pixels that differ
  colors IN                    number of distinct RGBA colors
  match A B [JSON]             pixelmatch(A, B) count with options JSON
                               (runeframe's defaults: includeAA true)
  diffpng A B OUT [JSON]       pixelmatch's diff image, as pixelmatch draws it
  gray-of IN X Y [ALPHA]       drawGrayPixel of one pixel (the faded copy)
  truncate IN OUT N            the first N bytes
  badcrc IN OUT [crc|data [CHUNK]]  flip one byte inside the first IDAT's
                               (or CHUNK's) data, or with crc of its CRC
  dims IN OUT W H              rewrite IHDR's width and height (valid CRC)
  apng IN OUT                  add acTL, fcTL and a second, different frame
                               (fcTL + fdAT): the default image is unchanged
  trailing IN OUT              append garbage after IEND
  junit FILE                   "tests failures errors ncases nfailure nerror"
  json-summary FILE            "passed failed nframes" of a JSON report
  html-images FILE PREFIX      extract an HTML page's data: PNGs; print count
  moved-check LINE T NAME A B  check a "moved:" line of check's trace output
  selftest DIR [all]           check decode + pixelmatch against a
                               cases.tsv of pixelmatch's fixtures
"""
import json
import math
import os
import struct
import sys
import zlib

SIG = b'\x89PNG\r\n\x1a\n'


class PngError(Exception):
    pass


# ------------------------------------------------------------------ chunks

def read_chunks(data):
    if data[:8] != SIG:
        raise PngError('no PNG signature')
    p = 8
    out = []
    while True:
        if p + 12 > len(data):
            raise PngError('truncated at byte %d' % p)
        n, = struct.unpack('>I', data[p:p + 4])
        kind = data[p + 4:p + 8]
        if p + 12 + n > len(data):
            raise PngError('truncated %r chunk' % kind)
        body = data[p + 8:p + 8 + n]
        crc, = struct.unpack('>I', data[p + 8 + n:p + 12 + n])
        if zlib.crc32(kind + body) & 0xffffffff != crc:
            raise PngError('bad CRC in %r' % kind)
        out.append((kind, body))
        p += 12 + n
        if kind == b'IEND':
            return out


def chunk(kind, body):
    return (struct.pack('>I', len(body)) + kind + body +
            struct.pack('>I', zlib.crc32(kind + body) & 0xffffffff))


def write_chunks(chunks):
    return SIG + b''.join(chunk(k, b) for k, b in chunks)


# ------------------------------------------------------------------ decode

CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
DEPTHS = {0: (1, 2, 4, 8, 16), 2: (8, 16), 3: (1, 2, 4, 8), 4: (8, 16), 6: (8, 16)}
# Adam7: (x0, y0, dx, dy)
ADAM7 = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4),
         (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2))


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def unfilter(raw, pos, w, h, bits_pp):
    """Unfilters one (sub)image of w x h; returns (rows, new pos)."""
    stride = (w * bits_pp + 7) // 8
    bpp = max(1, bits_pp // 8)
    rows = []
    prev = bytearray(stride)
    for _ in range(h):
        if pos + 1 + stride > len(raw):
            raise PngError('image data too short')
        f = raw[pos]
        cur = bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        if f == 1:
            for i in range(bpp, stride):
                cur[i] = (cur[i] + cur[i - bpp]) & 255
        elif f == 2:
            for i in range(stride):
                cur[i] = (cur[i] + prev[i]) & 255
        elif f == 3:
            for i in range(stride):
                a = cur[i - bpp] if i >= bpp else 0
                cur[i] = (cur[i] + ((a + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = cur[i - bpp] if i >= bpp else 0
                c = prev[i - bpp] if i >= bpp else 0
                cur[i] = (cur[i] + paeth(a, prev[i], c)) & 255
        elif f != 0:
            raise PngError('filter type %d' % f)
        rows.append(cur)
        prev = cur
    return rows, pos


def samples(row, w, depth, ch):
    """The w * ch samples of one unfiltered row."""
    n = w * ch
    if depth == 8:
        return list(row[:n])
    if depth == 16:
        return [(row[2 * i] << 8) | row[2 * i + 1] for i in range(n)]
    per = 8 // depth
    mask = (1 << depth) - 1
    out = []
    for i in range(n):
        byte = row[i // per]
        shift = 8 - depth * (i % per + 1)
        out.append((byte >> shift) & mask)
    return out


def decode(data):
    """(w, h, RGBA bytes, ihdr dict) as pngjs decodes the file's bytes."""
    cs = read_chunks(data)
    if cs[0][0] != b'IHDR' or len(cs[0][1]) != 13:
        raise PngError('IHDR is not first')
    w, h, depth, ct, comp, filt, inter = struct.unpack('>IIBBBBB', cs[0][1])
    if w == 0 or h == 0:
        raise PngError('zero size')
    if ct not in CHANNELS or depth not in DEPTHS[ct] or comp or filt or inter > 1:
        raise PngError('bad IHDR')
    plte = None
    trns = None
    idat = []
    for k, b in cs[1:]:
        if k == b'PLTE':
            plte = b
        elif k == b'tRNS':
            trns = b
        elif k == b'IDAT':
            idat.append(b)
        elif k[0] & 0x20 == 0 and k not in (b'IEND',):
            raise PngError('unknown critical chunk %r' % k)
    if ct == 3 and plte is None:
        raise PngError('no PLTE')
    raw = zlib.decompress(b''.join(idat))
    ch = CHANNELS[ct]
    bits_pp = depth * ch
    if depth == 8 and ct in (2, 6) and not inter and trns is None:
        # the common case, with byte slices instead of per-pixel lists
        rows, _ = unfilter(raw, 0, w, h, bits_pp)
        flat = b''.join(bytes(r) for r in rows)
        if ct == 6:
            return w, h, flat, {'depth': depth, 'ct': ct, 'interlace': inter}
        out = bytearray(b'\xff' * (4 * w * h))
        for c in range(3):
            out[c::4] = flat[c::3]
        return w, h, bytes(out), {'depth': depth, 'ct': ct, 'interlace': inter}
    # samples of every pixel, full depth, in raster order
    px = [None] * (w * h)
    pos = 0
    if inter:
        for x0, y0, dx, dy in ADAM7:
            pw = (w - x0 + dx - 1) // dx if w > x0 else 0
            ph = (h - y0 + dy - 1) // dy if h > y0 else 0
            if pw == 0 or ph == 0:
                continue
            rows, pos = unfilter(raw, pos, pw, ph, bits_pp)
            for j, r in enumerate(rows):
                s = samples(r, pw, depth, ch)
                for i in range(pw):
                    px[(y0 + j * dy) * w + x0 + i * dx] = s[i * ch:(i + 1) * ch]
    else:
        rows, pos = unfilter(raw, 0, w, h, bits_pp)
        for y, r in enumerate(rows):
            s = samples(r, w, depth, ch)
            for x in range(w):
                px[y * w + x] = s[x * ch:(x + 1) * ch]
    maxv = (1 << depth) - 1
    out = bytearray(4 * w * h)

    def scale(v):
        # pngjs's scaleDepth: Math.floor(v * 255 / max + 0.5)
        return v if depth == 8 else math.floor(v * 255 / maxv + 0.5)

    key = None
    if trns is not None and ct in (0, 2):
        key = list(struct.unpack('>%dH' % (len(trns) // 2), trns))
    for i, s in enumerate(px):
        if ct == 3:
            idx = s[0]
            if 3 * idx + 3 > len(plte):
                raise PngError('palette index %d beyond the palette' % idx)
            a = trns[idx] if trns is not None and idx < len(trns) else 255
            out[4 * i:4 * i + 4] = bytes((plte[3 * idx], plte[3 * idx + 1], plte[3 * idx + 2], a))
            continue
        if ct == 0:
            full = [s[0], s[0], s[0], maxv]
        elif ct == 2:
            full = [s[0], s[1], s[2], maxv]
        elif ct == 4:
            full = [s[0], s[0], s[0], s[1]]
        else:
            full = list(s)
        # a tRNS color key, compared at full depth, clears all four channels
        if key is not None and full[:len(key)] == key:
            full = [0, 0, 0, 0]
        out[4 * i:4 * i + 4] = bytes(scale(v) for v in full)
    return w, h, bytes(out), {'depth': depth, 'ct': ct, 'interlace': inter}


def load(path):
    with open(path, 'rb') as f:
        return decode(f.read())


# ------------------------------------------------------------------ encode

def pack_row(svals, depth):
    if depth == 8:
        return bytes(svals)
    if depth == 16:
        return b''.join(struct.pack('>H', v) for v in svals)
    per = 8 // depth
    out = bytearray((len(svals) + per - 1) // per)
    for i, v in enumerate(svals):
        out[i // per] |= v << (8 - depth * (i % per + 1))
    return bytes(out)


def filter_row(cur, prev, bpp, f):
    out = bytearray([f])
    for i in range(len(cur)):
        a = cur[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 0:
            pr = 0
        elif f == 1:
            pr = a
        elif f == 2:
            pr = b
        elif f == 3:
            pr = (a + b) >> 1
        else:
            pr = paeth(a, b, c)
        out.append((cur[i] - pr) & 255)
    return out


def encode(w, h, pix, depth, ct, interlace=0, plte=None, trns=None, idat_split=97):
    """pix: per pixel a list of samples (full depth). Every row's filter is
    the next of 0..4 in turn (across passes), the IDAT data is split in
    pieces of idat_split bytes."""
    ch = CHANNELS[ct]
    bits_pp = depth * ch
    bpp = max(1, bits_pp // 8)
    raw = bytearray()
    counter = [0]

    def emit(sub_rows):
        prev = None
        for r in sub_rows:
            cur = pack_row([v for p in r for v in p], depth)
            if prev is None:
                prev = bytes(len(cur))
            raw.extend(filter_row(cur, prev, bpp, counter[0] % 5))
            counter[0] += 1
            prev = cur

    if interlace:
        for x0, y0, dx, dy in ADAM7:
            sub = [[pix[y * w + x] for x in range(x0, w, dx)] for y in range(y0, h, dy)]
            sub = [r for r in sub if r]
            emit(sub)
    else:
        emit([pix[y * w:(y + 1) * w] for y in range(h)])
    z = zlib.compress(bytes(raw), 9)
    cs = [(b'IHDR', struct.pack('>IIBBBBB', w, h, depth, ct, 0, 0, interlace))]
    # an ancillary chunk the reader must skip
    cs.append((b'tEXt', b'Comment\x00pngtool.py'))
    if plte is not None:
        cs.append((b'PLTE', plte))
    if trns is not None:
        cs.append((b'tRNS', trns))
    for i in range(0, len(z), idat_split):
        cs.append((b'IDAT', z[i:i + idat_split]))
    cs.append((b'IEND', b''))
    return write_chunks(cs)


def rgba_tuples(w, h, data):
    return [tuple(data[4 * i:4 * i + 4]) for i in range(w * h)]


KINDS = ('rgba8 rgb8 rgba16 rgb16 rgba16r rgb16r gray8 gray16 gray16r graya8 graya16 '
         'gray1 gray2 gray4 palette palette-bits rgb8-trns rgb16-trns gray8-trns '
         'gray16-trns').split()


def jitter(v):
    """v * 257 moved by 128 towards the neighbour a truncating reader
    would land on: decodes to v only when 16-bit samples are rounded."""
    if v == 0:
        return 0
    return v * 257 - 128 if v < 128 or v == 255 else v * 257 + 128


def lum(r, g, b):
    return int(0.299 * r + 0.587 * g + 0.114 * b + 0.5)


def recode(w, h, data, kind, lossy):
    """The PNG bytes of the image re-encoded as kind. Without lossy, a
    kind that cannot hold the pixels exactly is an error."""
    inter = 0
    if kind.endswith('-i'):
        inter = 1
        kind = kind[:-2]
    if kind not in KINDS:
        raise SystemExit('unknown kind %s (kinds: %s, each also with -i)' % (kind, ' '.join(KINDS)))
    px = rgba_tuples(w, h, data)
    opaque = all(p[3] == 255 for p in px)
    gray = all(p[0] == p[1] == p[2] for p in px)

    def need(cond, why):
        if not cond and not lossy:
            raise SystemExit('recode %s: not exact: %s (use --lossy)' % (kind, why))

    if kind in ('rgba8', 'rgba16', 'rgba16r'):
        d = 8 if kind == 'rgba8' else 16
        f = (lambda v: v) if d == 8 else (lambda v: v * 257) if kind == 'rgba16' else jitter
        return encode(w, h, [[f(v) for v in p] for p in px], d, 6, inter)
    if kind in ('rgb8', 'rgb16', 'rgb16r'):
        need(opaque, 'the image has alpha')
        d = 8 if kind == 'rgb8' else 16
        f = (lambda v: v) if d == 8 else (lambda v: v * 257) if kind == 'rgb16' else jitter
        return encode(w, h, [[f(v) for v in p[:3]] for p in px], d, 2, inter)
    if kind in ('gray8', 'gray16', 'gray16r', 'gray1', 'gray2', 'gray4'):
        need(opaque, 'the image has alpha')
        need(gray, 'the image has colors')
        d = {'gray8': 8, 'gray16': 16, 'gray16r': 16}.get(kind, int(kind[4:]) if kind[4:].isdigit() else 8)
        g = [p[0] if gray else lum(*p[:3]) for p in px]
        if d < 8:
            step = 255 // ((1 << d) - 1)
            need(all(v % step == 0 for v in g), 'gray levels are not multiples of %d' % step)
            vals = [[(v + step // 2) // step] for v in g]
        elif d == 16:
            vals = [[v * 257 if kind == 'gray16' else jitter(v)] for v in g]
        else:
            vals = [[v] for v in g]
        return encode(w, h, vals, d, 0, inter)
    if kind in ('graya8', 'graya16'):
        need(gray, 'the image has colors')
        d = 8 if kind == 'graya8' else 16
        m = 1 if d == 8 else 257
        return encode(w, h, [[(p[0] if gray else lum(*p[:3])) * m, p[3] * m] for p in px], d, 4, inter)
    if kind in ('palette', 'palette-bits'):
        colors = sorted(set(px), key=lambda c: (c[3], c))   # translucent first: short tRNS
        need(len(colors) <= 256, '%d colors' % len(colors))
        colors = colors[:256]
        index = {c: i for i, c in enumerate(colors)}
        d = 8
        if kind == 'palette-bits':
            need(len(colors) <= 16, '%d colors do not fit 4 bits' % len(colors))
            if len(colors) > 16:
                # lossy: the 16 most frequent colors, the others mapped to
                # the nearest of them
                freq = {}
                for p in px:
                    freq[p] = freq.get(p, 0) + 1
                colors = sorted(sorted(freq, key=lambda c: (-freq[c], c))[:16],
                                key=lambda c: (c[3], c))
                index = {c: i for i, c in enumerate(colors)}
            d = 1 if len(colors) <= 2 else 2 if len(colors) <= 4 else 4

        def near(p):
            return min(range(len(colors)), key=lambda i: sum((a - b) ** 2 for a, b in zip(colors[i], p)))
        idx = [[index[p] if p in index else near(p)] for p in px]
        plte = b''.join(bytes(c[:3]) for c in colors)
        alphas = [c[3] for c in colors]
        while alphas and alphas[-1] == 255:
            alphas.pop()
        trns = bytes(alphas) if alphas else None
        return encode(w, h, idx, d, 3, inter, plte, trns)
    if kind in ('rgb8-trns', 'rgb16-trns', 'gray8-trns', 'gray16-trns'):
        need(all(p[3] in (0, 255) for p in px), 'translucent pixels')
        need(all(p == (0, 0, 0, 0) for p in px if p[3] == 0), 'transparent pixels with colors')
        isgray = kind.startswith('gray')
        if isgray:
            need(gray, 'the image has colors')
        used = set(p[:3] for p in px if p[3] == 255)
        if kind.endswith('16-trns'):
            # the key is one 16-bit step away from an opaque color: the
            # two decode to the same 8-bit color, so only a full-depth
            # comparison tells them apart
            base = sorted(used)[0] if used else (7, 7, 7)
            key = tuple(v * 257 + (1 if v < 255 else -1) for v in base)
            f = lambda v: v * 257
            d = 16
        else:
            free = [c for c in ((v, v, v) for v in range(256)) if c not in used] if isgray else \
                [c for c in ((r, 255 - r, (r * 7) & 255) for r in range(256)) if c not in used]
            need(bool(free), 'no free color for the key')
            key = free[0]
            f = lambda v: v
            d = 8
        if isgray:
            vals = [[key[0]] if p[3] == 0 else [f(p[0])] for p in px]
            trns = struct.pack('>H', key[0])
            return encode(w, h, vals, d, 0, inter, trns=trns)
        vals = [list(key) if p[3] == 0 else [f(v) for v in p[:3]] for p in px]
        trns = struct.pack('>HHH', *key)
        return encode(w, h, vals, d, 2, inter, trns=trns)
    raise SystemExit('unhandled kind ' + kind)


def write_rgba(path, w, h, data):
    px = rgba_tuples(w, h, data)
    if all(p[3] == 255 for p in px):
        png = encode(w, h, [list(p[:3]) for p in px], 8, 2)
    else:
        png = encode(w, h, [list(p) for p in px], 8, 6)
    with open(path, 'wb') as f:
        f.write(png)


# ------------------------------------------------------------------ pixelmatch 7.2

def color_delta(img1, img2, k, m, y_only, checkerboard=True):
    r1, g1, b1, a1 = img1[k], img1[k + 1], img1[k + 2], img1[k + 3]
    r2, g2, b2, a2 = img2[m], img2[m + 1], img2[m + 2], img2[m + 3]
    dr = r1 - r2
    dg = g1 - g2
    db = b1 - b2
    da = a1 - a2
    if not dr and not dg and not db and not da:
        return 0
    if a1 < 255 or a2 < 255:
        if checkerboard:
            rb = 48 + 159 * (k % 2)
            gb = 48 + 159 * (int(k / 1.618033988749895) % 2)
            bb = 48 + 159 * (int(k / 2.618033988749895) % 2)
        else:
            rb = gb = bb = 255
        dr = (r1 * a1 - r2 * a2 - rb * da) / 255
        dg = (g1 * a1 - g2 * a2 - gb * da) / 255
        db = (b1 * a1 - b2 * a2 - bb * da) / 255
    y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
    if y_only:
        return y
    i = dr * 0.59597799 - dg * 0.2741761 - db * 0.32180189
    q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
    delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
    return -delta if y > 0 else delta


def has_many_siblings(img, x1, y1, w, h):
    x0, y0 = max(x1 - 1, 0), max(y1 - 1, 0)
    x2, y2 = min(x1 + 1, w - 1), min(y1 + 1, h - 1)
    val = img[y1 * w + x1]
    zeroes = 1 if x1 == x0 or x1 == x2 or y1 == y0 or y1 == y2 else 0
    for x in range(x0, x2 + 1):
        for y in range(y0, y2 + 1):
            if x == x1 and y == y1:
                continue
            zeroes += 1 if val == img[y * w + x] else 0
            if zeroes > 2:
                return True
    return False


def antialiased(img, x1, y1, w, h, a32, b32, cb=True):
    x0, y0 = max(x1 - 1, 0), max(y1 - 1, 0)
    x2, y2 = min(x1 + 1, w - 1), min(y1 + 1, h - 1)
    pos = y1 * w + x1
    zeroes = 1 if x1 == x0 or x1 == x2 or y1 == y0 or y1 == y2 else 0
    mn = mx = 0
    minx = miny = maxx = maxy = 0
    for x in range(x0, x2 + 1):
        for y in range(y0, y2 + 1):
            if x == x1 and y == y1:
                continue
            delta = color_delta(img, img, pos * 4, (y * w + x) * 4, True, cb)
            if delta == 0:
                zeroes += 1
                if zeroes > 2:
                    return False
            elif delta < mn:
                mn, minx, miny = delta, x, y
            elif delta > mx:
                mx, maxx, maxy = delta, x, y
    if mn == 0 or mx == 0:
        return False
    return ((has_many_siblings(a32, minx, miny, w, h) and has_many_siblings(b32, minx, miny, w, h)) or
            (has_many_siblings(a32, maxx, maxy, w, h) and has_many_siblings(b32, maxx, maxy, w, h)))


def to_u8(v):
    # a JavaScript Uint8Array store: ToInt32 truncation, modulo 256
    return int(v) & 255


def pixelmatch(img1, img2, w, h, opts, output=None):
    threshold = opts.get('threshold', 0.1)
    alpha = opts.get('alpha', 0.1)
    aa = opts.get('aaColor', [255, 255, 0])
    dc = opts.get('diffColor', [255, 0, 0])
    alt = opts.get('diffColorAlt') or dc
    include_aa = opts.get('includeAA', False)
    mask = opts.get('diffMask', False)
    cb = opts.get('checkerboard', True)
    n = w * h
    a32 = [bytes(img1[4 * i:4 * i + 4]) for i in range(n)]
    b32 = [bytes(img2[4 * i:4 * i + 4]) for i in range(n)]

    def draw(pos, r, g, b):
        output[pos:pos + 4] = bytes((to_u8(r), to_u8(g), to_u8(b), 255))

    def gray(pos):
        val = 255 + (img1[pos] * 0.29889531 + img1[pos + 1] * 0.58662247 +
                     img1[pos + 2] * 0.11448223 - 255) * alpha * img1[pos + 3] / 255
        draw(pos, val, val, val)

    if a32 == b32:
        if output is not None and not mask:
            for i in range(n):
                gray(4 * i)
        return 0
    max_delta = 35215 * threshold * threshold
    diff = 0
    for y in range(h):
        for x in range(w):
            i = y * w + x
            pos = 4 * i
            delta = 0 if a32[i] == b32[i] else color_delta(img1, img2, pos, pos, False, cb)
            if abs(delta) > max_delta:
                is_aa = (antialiased(img1, x, y, w, h, a32, b32, cb) or
                         antialiased(img2, x, y, w, h, b32, a32, cb))
                if not include_aa and is_aa:
                    if output is not None and not mask:
                        draw(pos, *aa)
                else:
                    if output is not None:
                        draw(pos, *(alt if delta < 0 else dc))
                    diff += 1
            elif output is not None and not mask:
                gray(pos)
    return diff


def parse_opts(s, runeframe_defaults=True):
    o = json.loads(s) if s else {}
    if runeframe_defaults and 'includeAA' not in o:
        o['includeAA'] = True   # runeframe counts anti-aliased pixels unless --aa
    return o


# ------------------------------------------------------------------ selftest

def selftest(folder, everything=False):
    """Every case of folder/cases.tsv: decode both images, run pixelmatch
    with and without an output, compare the count and the diff image with
    the published ones."""
    n = 0
    with open(os.path.join(folder, 'cases.tsv')) as f:
        lines = [l.rstrip('\n').split('\t') for l in f if l.strip() and not l.startswith('#')]
    head = lines[0]
    for row in lines[1:]:
        c = dict(zip(head, row))
        if c['version'] != 'v7.2.0-yiq':
            continue
        w, h = int(c['width']), int(c['height'])
        if w * h > 50000 and not everything:
            continue   # pure Python: the small fixtures are enough
        _, _, a, _ = load(os.path.join(folder, c['imgA']))
        _, _, b, _ = load(os.path.join(folder, c['imgB']))
        opts = json.loads(c['options_json'])
        out = bytearray(4 * w * h)
        got = pixelmatch(a, b, w, h, opts, out)
        if got != int(c['expected_mismatch']):
            raise SystemExit('%s %s %s: count %d, expected %s' % (c['imgA'], c['imgB'], c['options_json'], got, c['expected_mismatch']))
        if pixelmatch(a, b, w, h, opts) != got:
            raise SystemExit('count differs without an output')
        if not c['expected_diff_png'].startswith('NOT'):
            ew, eh, exp, _ = load(os.path.join(folder, c['expected_diff_png']))
            if bytes(out) != exp:
                bad = sum(1 for i in range(w * h) if out[4 * i:4 * i + 4] != exp[4 * i:4 * i + 4])
                raise SystemExit('%s: diff image differs in %d pixels' % (c['expected_diff_png'], bad))
        n += 1
    if n == 0:
        raise SystemExit('no cases')
    print(n)


# ------------------------------------------------------------------ reports, traces

def junit_counts(path):
    """'tests failures errors testcases failure-elements error-elements' of
    a JUnit file's root <testsuites> (or a lone <testsuite>)."""
    import xml.etree.ElementTree as ET
    root = ET.parse(path).getroot()
    cases = root.findall('.//testcase')
    return '%s %s %s %d %d %d' % (root.get('tests'), root.get('failures'), root.get('errors'),
                                  len(cases), sum(1 for c in cases if c.find('failure') is not None),
                                  sum(1 for c in cases if c.find('error') is not None))


def html_images(path, prefix):
    """Writes every data:image/png;base64 image of an HTML page to
    PREFIX1.png, PREFIX2.png, ... in page order; returns their number."""
    import base64
    import re
    text = open(path, encoding='utf-8').read()
    imgs = re.findall(r'data:image/png;base64,([A-Za-z0-9+/=]+)', text)
    for i, b in enumerate(imgs):
        with open('%s%d.png' % (prefix, i + 1), 'wb') as f:
            f.write(base64.b64decode(b, validate=True))
    return len(imgs)


def moved_check(line, t, name, was, now):
    """'' when line is check's report of value name moving from was to now
    at time t (trace.h): "  moved: NAME at t=T: A -> B (+D)", A and B with
    the fewest significant digits from 4 to 17 that tell them apart, D
    their difference (its sign always written), else what is wrong."""
    a, b = float(was), float(now)
    if a == b:
        return 'the value did not move (%r)' % a
    for p in range(4, 18):
        sa, sb = '%.*g' % (p, a), '%.*g' % (p, b)
        if sa != sb:
            break
    head = '  moved: %s at t=%s: %s -> %s (' % (name, '%.6g' % float(t), sa, sb)
    if not line.startswith(head) or not line.endswith(')'):
        return 'expected a line starting %r, got %r' % (head, line)
    d = line[len(head):-1]
    if d[:1] != ('+' if b > a else '-'):
        return 'the difference %r has the wrong sign' % d
    try:
        dv = float(d)
    except ValueError:
        return 'the difference %r is not a number' % d
    # consistent with the exact difference to the precision of the three
    # printed numbers (half a unit in the last place of each)
    tol = (unit(sa) + unit(sb) + unit(d)) / 2
    if abs(dv - (b - a)) > tol * (1 + 1e-9):
        return 'the difference %r is not %r (to within %g)' % (d, b - a, tol)
    return ''


def unit(s):
    """The place value of the last digit of a printed number."""
    mant, _, exp = s.lower().partition('e')
    dec = len(mant.partition('.')[2])
    return 10.0 ** (int(exp or 0) - dec)


# ------------------------------------------------------------------ main

def color(s):
    v = tuple(int(x) for x in s.split(','))
    if len(v) != 4:
        raise SystemExit('a color is r,g,b,a: ' + s)
    return v


def main(argv):
    if len(argv) < 2:
        raise SystemExit(__doc__)
    cmd, a = argv[1], argv[2:]
    if cmd == 'decode':
        w, h, data, _ = load(a[0])
        if len(a) > 1 and a[1] == '-':
            sys.stdout.buffer.write(data)
            return
        if len(a) > 1:
            with open(a[1], 'wb') as f:
                f.write(data)
        print(w, h)
    elif cmd == 'info':
        w, h, _, ih = load(a[0])
        print(w, h, ih['depth'], ih['ct'], ih['interlace'])
    elif cmd == 'filters':
        with open(a[0], 'rb') as f:
            cs = read_chunks(f.read())
        w, h, depth, ct, _, _, inter = struct.unpack('>IIBBBBB', cs[0][1])
        if depth != 8 or ct not in (2, 6) or inter:
            raise SystemExit('filters: 8-bit RGB or RGBA, not interlaced')
        raw = zlib.decompress(b''.join(b for k, b in cs if k == b'IDAT'))
        stride = 1 + w * CHANNELS[ct]
        if len(raw) != stride * h:
            raise SystemExit('filters: %d bytes of image data, not %d' % (len(raw), stride * h))
        print(''.join(str(raw[y * stride]) for y in range(h)))
    elif cmd == 'recode':
        lossy = '--lossy' in a
        a = [x for x in a if x != '--lossy']
        w, h, data, _ = load(a[0])
        png = recode(w, h, data, a[2], lossy)
        w2, h2, data2, _ = decode(png)
        if not lossy and (w2, h2, data2) != (w, h, data):
            raise SystemExit('recode %s: the result does not decode to the same pixels' % a[2])
        if lossy and data2 == data:
            raise SystemExit('recode %s --lossy: nothing was lost' % a[2])
        with open(a[1], 'wb') as f:
            f.write(png)
    elif cmd == 'poke':
        w, h, data, _ = load(a[0])
        data = bytearray(data)
        for p in a[2:]:
            x, y, r, g, b, al = (int(v) for v in p.split(','))
            if not (0 <= x < w and 0 <= y < h):
                raise SystemExit('pixel %d,%d is outside %dx%d' % (x, y, w, h))
            data[4 * (y * w + x):4 * (y * w + x) + 4] = bytes((r, g, b, al))
        write_rgba(a[1], w, h, bytes(data))
    elif cmd == 'solid':
        w, h = int(a[0]), int(a[1])
        write_rgba(a[3], w, h, bytes(color(a[2])) * (w * h))
    elif cmd in ('pixels-of', 'count-of'):
        w, h, data, _ = load(a[0])
        c = bytes(color(a[1]))
        hits = ['%d,%d' % (i % w, i // w) for i in range(w * h) if data[4 * i:4 * i + 4] == c]
        if cmd == 'count-of':
            print(len(hits))
        else:
            for s in sorted(hits):
                print(s)
    elif cmd == 'pixel':
        w, h, data, _ = load(a[0])
        i = 4 * (int(a[2]) * w + int(a[1]))
        print(','.join(str(v) for v in data[i:i + 4]))
    elif cmd == 'same':
        wa, ha, da, _ = load(a[0])
        wb, hb, db, _ = load(a[1])
        if (wa, ha) != (wb, hb):
            print('size %dx%d %dx%d' % (wa, ha, wb, hb))
            return
        print(sum(1 for i in range(wa * ha) if da[4 * i:4 * i + 4] != db[4 * i:4 * i + 4]))
    elif cmd == 'colors':
        w, h, data, _ = load(a[0])
        print(len(set(rgba_tuples(w, h, data))))
    elif cmd == 'match':
        wa, ha, da, _ = load(a[0])
        wb, hb, db, _ = load(a[1])
        if (wa, ha) != (wb, hb):
            raise SystemExit('sizes differ')
        print(pixelmatch(da, db, wa, ha, parse_opts(a[2] if len(a) > 2 else '')))
    elif cmd == 'diffpng':
        wa, ha, da, _ = load(a[0])
        wb, hb, db, _ = load(a[1])
        out = bytearray(4 * wa * ha)
        pixelmatch(da, db, wa, ha, parse_opts(a[3] if len(a) > 3 else ''), out)
        write_rgba(a[2], wa, ha, bytes(out))
    elif cmd == 'gray-of':
        w, h, data, _ = load(a[0])
        i = 4 * (int(a[2]) * w + int(a[1]))
        alpha = float(a[3]) if len(a) > 3 else 0.1
        val = to_u8(255 + (data[i] * 0.29889531 + data[i + 1] * 0.58662247 +
                           data[i + 2] * 0.11448223 - 255) * alpha * data[i + 3] / 255)
        print('%d,%d,%d,255' % (val, val, val))
    elif cmd == 'truncate':
        with open(a[0], 'rb') as f:
            data = f.read()
        with open(a[1], 'wb') as f:
            f.write(data[:int(a[2])])
    elif cmd == 'badcrc':
        with open(a[0], 'rb') as f:
            data = bytearray(f.read())
        want = (a[3] if len(a) > 3 else 'IDAT').encode('ascii')
        at = 8
        while data[at + 4:at + 8] != want:
            n, = struct.unpack('>I', data[at:at + 4])
            at += 12 + n
            if at + 8 > len(data):
                raise SystemExit('badcrc: no %r chunk' % want)
        at += 4
        if len(a) > 2 and a[2] == 'crc':
            # the chunk's stored CRC; its data stay intact
            n, = struct.unpack('>I', data[at - 4:at])
            p = at + 4 + n
        else:
            p = at + 4 + 2   # inside the data, past the zlib header
        data[p] ^= 0x55
        with open(a[1], 'wb') as f:
            f.write(bytes(data))
    elif cmd == 'dims':
        with open(a[0], 'rb') as f:
            cs = read_chunks(f.read())
        ih = bytearray(cs[0][1])
        ih[0:8] = struct.pack('>II', int(a[2]), int(a[3]))
        cs[0] = (b'IHDR', bytes(ih))
        with open(a[1], 'wb') as f:
            f.write(write_chunks(cs))
    elif cmd == 'apng':
        with open(a[0], 'rb') as f:
            data = f.read()
        cs = read_chunks(data)
        w, h, px, ih = decode(data)
        if ih['depth'] != 8 or ih['ct'] not in (2, 6) or ih['interlace']:
            raise SystemExit('apng: needs an 8-bit RGB/RGBA non-interlaced input')
        ch = CHANNELS[ih['ct']]
        # frame 1: the default image (fcTL before IDAT); frame 2: every
        # sample inverted, in fdAT chunks
        inv = bytearray()
        for y in range(h):
            inv.append(0)
            for x in range(w):
                p = px[4 * (y * w + x):4 * (y * w + x) + ch]
                inv.extend(255 - v if j < 3 else v for j, v in enumerate(p))
        z = zlib.compress(bytes(inv))

        def fctl(seq):
            return struct.pack('>IIIIIHHBB', seq, w, h, 0, 0, 1, 10, 0, 0)
        out = [cs[0], (b'acTL', struct.pack('>II', 2, 0))]
        seq = 0
        done = False
        for k, b in cs[1:]:
            if k == b'IDAT' and not done:
                out.append((b'fcTL', fctl(seq)))
                seq += 1
                done = True
            if k == b'IEND':
                out.append((b'fcTL', fctl(seq)))
                seq += 1
                out.append((b'fdAT', struct.pack('>I', seq) + z))
                seq += 1
            out.append((k, b))
        with open(a[1], 'wb') as f:
            f.write(write_chunks(out))
    elif cmd == 'trailing':
        with open(a[0], 'rb') as f:
            data = f.read()
        with open(a[1], 'wb') as f:
            f.write(data + b'garbage after IEND')
    elif cmd == 'junit':
        print(junit_counts(a[0]))
    elif cmd == 'json-summary':
        with open(a[0]) as f:
            doc = json.load(f)
        print(doc['passed'], doc['failed'], len(doc['frames']))
    elif cmd == 'html-images':
        print(html_images(a[0], a[1]))
    elif cmd == 'moved-check':
        why = moved_check(*a[:5])
        if why:
            raise SystemExit(why)
    elif cmd == 'selftest':
        selftest(a[0], len(a) > 1 and a[1] == 'all')
    else:
        raise SystemExit('unknown command %s\n%s' % (cmd, __doc__))


if __name__ == '__main__':
    try:
        main(sys.argv)
    except PngError as e:
        raise SystemExit('pngtool: %s' % e)
