#!/usr/bin/env python3
"""tests/deflate-tokens.py - what a PNG's deflate stream is made of.

An independent inflater written from RFC 1950/1951 (standard library
only, sharing no code with runeframe or zlib): it decodes the zlib stream
of a PNG's IDAT chunks symbol by symbol and reports the symbols, so tests
can hold runeframe's coder to how it codes, not only to what it decodes
to. The bytes it inflates are compared with zlib.decompress's; any
difference, a bad block, a distance before the start or a bad Adler-32 is
an error (exit 1), so the report is only printed for a stream both
decoders read alike.

Usage: deflate-tokens.py FILE.png
Prints one JSON object:
  blocks        the blocks, by type: {"stored": n, "fixed": n, "dynamic": n}
  literals      literal symbols
  matches       length/distance pairs
  match_bytes   {"DISTANCE": bytes copied at that distance, ...}
  hdist         the number of distance codes of each dynamic block, in order

       deflate-tokens.py --runs FILE.png
Checks the symbols against what runeframe's level 1 promises for rows
filtered as one stream (pngio-huff.c; an 8-bit RGB or RGBA image under
1 MiB of filtered rows, which is coded in one piece): row by row, a byte
at a time, a run where the next 3 bytes of the row equal the byte before
them (not at the stream's first byte), all such bytes, as matches of up
to 258 at distance 1 and 0 to 2 literals; every other byte a literal.
Prints "ok SYMBOLS RUNS", or the first symbol that differs (exit 1).
"""
import json
import struct
import sys
import zlib

LEN_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
            35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
LEN_EXTRA = [0] * 8 + [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4 + [5] * 4 + [0]
DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
             257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
             8193, 12289, 16385, 24577]
DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8,
              9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
CL_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]


class Bad(Exception):
    pass


class Bits:
    def __init__(self, data):
        self.data = data
        self.at = 0         # the next byte to take
        self.buf = 0        # bits taken, not used yet
        self.cnt = 0

    def get(self, n):
        while self.cnt < n:
            if self.at >= len(self.data):
                raise Bad('the stream ends inside a block')
            self.buf |= self.data[self.at] << self.cnt
            self.at += 1
            self.cnt += 8
        v = self.buf & ((1 << n) - 1)
        self.buf >>= n
        self.cnt -= n
        return v

    def align(self):
        """To the next byte; the byte position then."""
        self.get(self.cnt & 7)
        return self.at - (self.cnt >> 3)

    def skip_to(self, at):
        self.at, self.buf, self.cnt = at, 0, 0


def table(lengths):
    """A canonical Huffman code (RFC 1951 3.2.2) as {(length, code): symbol}."""
    count = [0] * 16
    for n in lengths:
        count[n] += 1
    count[0] = 0
    code, nxt = 0, [0] * 16
    for bits in range(1, 16):
        code = (code + count[bits - 1]) << 1
        nxt[bits] = code
    out = {}
    for sym, n in enumerate(lengths):
        if n:
            out[(n, nxt[n])] = sym
            nxt[n] += 1
    return out


def symbol(bits, codes):
    code = 0
    for n in range(1, 16):
        code = (code << 1) | bits.get(1)
        if (n, code) in codes:
            return codes[(n, code)]
    raise Bad('a code that is not in the table')


def inflate(data, report):
    if len(data) < 6 or (data[0] * 256 + data[1]) % 31 or data[0] & 15 != 8:
        raise Bad('not a zlib stream')
    bits, out = Bits(data[2:]), bytearray()
    while True:
        final, kind = bits.get(1), bits.get(2)
        if kind == 0:
            at = bits.align()
            n, nn = struct.unpack('<HH', bits.data[at:at + 4])
            if n ^ nn != 0xffff:
                raise Bad('a stored block with a bad length')
            out += bits.data[at + 4:at + 4 + n]
            report['tokens'] += [('L', b) for b in bits.data[at + 4:at + 4 + n]]
            bits.skip_to(at + 4 + n)
            report['blocks']['stored'] += 1
        elif kind in (1, 2):
            if kind == 1:
                lit = table([8] * 144 + [9] * 112 + [7] * 24 + [8] * 8)
                dist = table([5] * 30)
                report['blocks']['fixed'] += 1
            else:
                hlit, hdist, hclen = bits.get(5) + 257, bits.get(5) + 1, bits.get(4) + 4
                cl = [0] * 19
                for i in range(hclen):
                    cl[CL_ORDER[i]] = bits.get(3)
                clt, lens = table(cl), []
                while len(lens) < hlit + hdist:
                    s = symbol(bits, clt)
                    if s < 16:
                        lens.append(s)
                    elif s == 16:
                        if not lens:
                            raise Bad('a repeat with nothing before it')
                        lens += [lens[-1]] * (3 + bits.get(2))
                    else:
                        lens += [0] * ((3 + bits.get(3)) if s == 17 else (11 + bits.get(7)))
                if len(lens) != hlit + hdist:
                    raise Bad('code lengths run past HLIT + HDIST')
                lit, dist = table(lens[:hlit]), table(lens[hlit:])
                report['blocks']['dynamic'] += 1
                report['hdist'].append(hdist)
            while True:
                s = symbol(bits, lit)
                if s < 256:
                    out.append(s)
                    report['literals'] += 1
                    report['tokens'].append(('L', s))
                    continue
                if s == 256:
                    break
                if s > 285:
                    raise Bad('length symbol %d' % s)
                n = LEN_BASE[s - 257] + bits.get(LEN_EXTRA[s - 257])
                d = symbol(bits, dist)
                if d > 29:
                    raise Bad('distance symbol %d' % d)
                d = DIST_BASE[d] + bits.get(DIST_EXTRA[d])
                if d > len(out):
                    raise Bad('a distance before the start')
                for _ in range(n):
                    out.append(out[-d])
                report['matches'] += 1
                report['tokens'].append(('M', n, d))
                key = str(d)
                report['match_bytes'][key] = report['match_bytes'].get(key, 0) + n
        else:
            raise Bad('block type 3')
        if final:
            break
    at = bits.align()
    if struct.unpack('>I', bits.data[at:at + 4])[0] != zlib.adler32(bytes(out)):
        raise Bad('bad Adler-32')
    return bytes(out)


def runs_expected(raw, stride):
    """The symbols the --runs rule (above) makes of the filtered rows."""
    toks = []
    for y in range(len(raw) // stride):
        row = raw[y * stride:(y + 1) * stride]
        i = 0
        if y == 0:
            toks.append(('L', row[0]))
            i = 1
        while i < stride:
            prev = raw[y * stride + i - 1]
            if i + 3 <= stride and row[i] == row[i + 1] == row[i + 2] == prev:
                r = 3
                while i + r < stride and row[i + r] == prev:
                    r += 1
                i += r
                while r >= 3:
                    toks.append(('M', min(r, 258), 1))
                    r -= min(r, 258)
                toks += [('L', prev)] * r
            else:
                toks.append(('L', row[i]))
                i += 1
    return toks


def main(path, runs):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise Bad('not a PNG')
    pos, idat, ihdr = 8, b'', None
    while pos + 8 <= len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        if kind == b'IDAT':
            idat += data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            ihdr = struct.unpack('>IIBBBBB', data[pos + 8:pos + 21])
        pos += 12 + n
    report = {'blocks': {'stored': 0, 'fixed': 0, 'dynamic': 0}, 'literals': 0,
              'matches': 0, 'match_bytes': {}, 'hdist': [], 'tokens': []}
    ours = inflate(idat, report)
    if ours != zlib.decompress(idat):
        raise Bad('inflates to other bytes than zlib.decompress gives')
    toks = report.pop('tokens')
    if not runs:
        print(json.dumps(report, sort_keys=True))
        return
    if ihdr is None or ihdr[2] != 8 or ihdr[3] not in (2, 6) or ihdr[6]:
        raise Bad('--runs: 8-bit RGB or RGBA, not interlaced')
    want = runs_expected(ours, 1 + ihdr[0] * (3 if ihdr[3] == 2 else 4))
    for k, (got, exp) in enumerate(zip(toks, want)):
        if got != exp:
            print('symbol %d: %r, expected %r' % (k, got, exp))
            sys.exit(1)
    if len(toks) != len(want):
        print('%d symbols, expected %d' % (len(toks), len(want)))
        sys.exit(1)
    print('ok %d %d' % (len(toks), sum(1 for t in toks if t[0] == 'M')))


if __name__ == '__main__':
    args = [a for a in sys.argv[1:] if a != '--runs']
    if len(args) != 1:
        sys.stderr.write('usage: deflate-tokens.py [--runs] FILE.png\n')
        sys.exit(2)
    try:
        main(args[0], len(args) + 1 != len(sys.argv))
    except (Bad, OSError, zlib.error, struct.error) as e:
        sys.stderr.write('deflate-tokens.py: %s: %s\n' % (args[0], e))
        sys.exit(1)
