#!/usr/bin/env python3
"""bench/preview.py - `runeframe preview` against `seek` as a process
(`make bench`; not a test). Run from the build directory (./runeframe).

  (a) GET /frame.png?t=T, warm and not cached (a new T each time: the
      server's renderers are made, the frame is drawn and encoded), from
      sending the request to the last byte / `seek --time T -o F.png` as
      a whole process (start, scene load, fonts, render, encode, write)
                                                          goal <= 0.5
  (b) the same request again (from the cache of recent frames) / seek
                                                          informative
  (c) saving the scene file (a rename over it, as editors do) to the
      Server-Sent Event on an open /events stream, against 200 ms
                                                          goal <= 1.0

Method: A and B alternate (A B, B A, ...), wall time from
time.perf_counter_ns, each figure the median of the runs (--pairs N, at
least 5; 3x that for (c)), the ratio of the medians. The bytes of every
frame are checked equal to seek's output for the same T (outside the
timing). Environment: RUNEFRAME (default ./runeframe), SCENE (default
scenes/showcase.json), SIZE (the table's size column), BENCH_ROWS (append
the figures to bench/run's table).
Usage: python3 bench/preview.py [--pairs N] [--strict]
"""
import http.client, os, re, shutil, socket, statistics, subprocess, sys, tempfile, time

RF = os.path.abspath(os.environ.get('RUNEFRAME', './runeframe'))
SCENE = os.environ.get('SCENE', 'scenes/showcase.json')
pairs, strict = 5, False
args = sys.argv[1:]
while args:
    if args[0] == '--pairs':
        pairs = max(5, int(args[1])); args = args[2:]
    elif args[0] == '--strict':
        strict = True; args = args[1:]
    else:
        sys.exit('usage: python3 bench/preview.py [--pairs N] [--strict]')

tmp = tempfile.mkdtemp(prefix='rf-bench-preview.')
scene = os.path.join(tmp, 'scene.json')
shutil.copy(SCENE, scene)
for f in os.listdir(os.path.dirname(os.path.abspath(SCENE))):
    p = os.path.join(os.path.dirname(os.path.abspath(SCENE)), f)
    if os.path.isdir(p) and not os.path.exists(os.path.join(tmp, f)):
        os.symlink(p, os.path.join(tmp, f))     # asset folders beside the scene
server = subprocess.Popen([RF, 'preview', scene, '--port', '0'], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True)
rows, fails = [], 0


def row(name, subject, baseline, ratio, op, goal, unit='ms'):
    global fails
    ok = '-' if op == '-' else ('met' if (ratio <= goal if op == '<=' else ratio >= goal)
                                else 'MISSED')
    if ok == 'MISSED':
        fails += 1
    g = 'informative' if op == '-' else '%s %s' % (op, goal)
    print('%-44s %10.2f %s %10.2f %s %8.3fx %12s  %s' % (name, subject, unit, baseline, unit,
                                                        ratio, g, ok))
    if os.environ.get('BENCH_ROWS'):
        with open(os.environ['BENCH_ROWS'], 'a') as f:
            f.write('%s\t%s\t%.3f\t%s\t%s\t%.2f %s\t%.2f %s\n' % (
                name, os.environ.get('SIZE', '-'), ratio, g, ok, subject, unit, baseline, unit))


try:
    m = re.match(r'runeframe: preview: http://127\.0\.0\.1:(\d+)/ ', server.stdout.readline())
    port = int(m.group(1))

    def get(t):
        c = http.client.HTTPConnection('127.0.0.1', port, timeout=120)
        t0 = time.perf_counter_ns()
        c.request('GET', '/frame.png?t=%r' % t)
        body = c.getresponse().read()
        ns = time.perf_counter_ns() - t0
        c.close()
        return ns / 1e6, body

    def seek(t, out):
        t0 = time.perf_counter_ns()
        subprocess.run([RF, 'seek', scene, '--time', repr(t), '-o', out], check=True)
        return (time.perf_counter_ns() - t0) / 1e6

    get(0.05)                                   # the first request of the process
    uncached, cached, seeks = [], [], []
    for i in range(pairs):
        t = 0.1 + 0.0137 * (i + 1)              # a new time: drawn, not cached
        out = os.path.join(tmp, 'seek.png')
        order = [0, 1] if i % 2 == 0 else [1, 0]
        for k in order:
            if k == 0:
                ms, body = get(t)
                uncached.append(ms)
            else:
                seeks.append(seek(t, out))
        ms2, body2 = get(t)
        cached.append(ms2)
        with open(out, 'rb') as f:
            want = f.read()
        if body != want or body2 != want:
            sys.exit('bench/preview.py: the frame at t=%r is not seek\'s bytes' % t)
    a, c, b = statistics.median(uncached), statistics.median(cached), statistics.median(seeks)
    row('preview frame, warm, uncached / seek', a, b, a / b, '<=', 0.5)
    row('preview frame, cached / seek', c, b, c / b, '-', 0)

    # (c) save -> event
    s = socket.create_connection(('127.0.0.1', port), timeout=60)
    s.sendall(b'GET /events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n' % port)
    buf = b''

    def wait_event(n):
        global buf
        while b'data: %d\n' % n not in buf:
            chunk = s.recv(4096)
            if not chunk:
                sys.exit('bench/preview.py: the event stream closed')
            buf += chunk
    wait_event(0)
    text = open(scene).read()
    lat = []
    for i in range(3 * pairs):
        time.sleep(0.4)                         # the watcher is idle again
        with open(scene + '.tmp', 'w') as f:
            f.write(text + ' ' * (i + 1))        # same scene, another file
        t0 = time.perf_counter_ns()
        os.rename(scene + '.tmp', scene)
        wait_event(i + 1)
        lat.append((time.perf_counter_ns() - t0) / 1e6)
    s.close()
    L = statistics.median(lat)
    row('save to SSE event / 200 ms', L, 200.0, L / 200.0, '<=', 1.0)
finally:
    server.terminate()
    server.wait(timeout=60)
    shutil.rmtree(tmp, ignore_errors=True)
sys.exit(1 if strict and fails else 0)
