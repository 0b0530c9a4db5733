#!/usr/bin/env python3
"""tests/preview-browser.py - the preview page in a real browser.

    preview-browser.py RUNEFRAME CHROMIUM TMPDIR

Starts `runeframe preview` on a free port and headless Chromium, and drives
the page over the Chrome DevTools Protocol: a websocket client written here
with the standard library only (RFC 6455: the handshake, masked client
frames, continuation, ping). Checks, each against an independent reference:

  - the page honours #t=1.25: a screenshot of the frame's region at device
    scale 1 is `seek --time 1.25`'s pixels, compared by tests/pngtool.py
    (its own PNG decoder: exact RGBA, and pixelmatch with threshold 0);
  - the scene file replaced by a rename: the page shows the new frame
    within 1 s (a second try before it fails, for a loaded machine), and
    the screenshot is the new scene's `seek`;
  - a broken scene: the error text in the DOM is exactly `validate`'s lines,
    over the last good frame;
  - keyboard: ArrowRight one frame, Shift+ArrowLeft ten; the values table
    holds `sample`'s numbers at that time, also when the answer for the
    frame before arrives late; space plays and pauses.

Prints one line per check, "ok: ..." or "FAIL: ...", and exits 1 on a
failure. Every process it starts is killed at the end.
"""
import base64, hashlib, json, os, re, signal, socket, struct, subprocess, sys, time
import urllib.request

RUNEFRAME, CHROMIUM, TMP = sys.argv[1:4]
HERE = os.path.dirname(os.path.abspath(__file__))
PNGTOOL = os.path.join(HERE, 'pngtool.py')
failed = 0
procs = []


def ok(what):
    print('ok: ' + what, flush=True)


def fail(what):
    global failed
    failed += 1
    print('FAIL: ' + what, flush=True)


def scene(color):
    return json.dumps({
        "runeframe": 1,
        "canvas": {"width": 320, "height": 180, "background": "#101418"},
        "timeline": {"fps": 30, "duration": 2},
        "values": {
            "x": {"tween": {"from": 20, "to": 260, "duration": 1.5, "easing": "ease-in-out"}},
            "y": {"spring": {"from": 20, "to": 120, "stiffness": 170, "damping": 12}}},
        "layers": [
            {"type": "rect", "x": "x", "y": "y", "width": 40, "height": 40, "radius": 6,
             "fill": color, "anchor": [0, 0]},
            {"type": "circle", "x": 160, "y": 90, "r": 30, "fill": "#ffffff80",
             "stroke": "#ffd93d", "stroke_width": 3},
            {"type": "text", "text": "x = {x:.2f}", "x": 10, "y": 160, "size": 14,
             "fill": "#e8eaed", "anchor": [0, 0]}]}, indent=1)


def save(path, text):
    """As editors save: a new file renamed over the old one."""
    with open(path + '.tmp', 'w') as f:
        f.write(text)
    os.rename(path + '.tmp', path)


# ---------------------------------------------------------------- websocket

class WebSocket:
    def __init__(self, url):
        m = re.match(r'ws://([^:/]+):(\d+)(/.*)', url)
        host, port, path = m.group(1), int(m.group(2)), m.group(3)
        self.s = socket.create_connection((host, port), timeout=120)
        key = base64.b64encode(os.urandom(16)).decode()
        self.s.sendall(('GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\n'
                        'Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n'
                        'Sec-WebSocket-Version: 13\r\n\r\n' % (path, host, port, key)).encode())
        buf = b''
        while b'\r\n\r\n' not in buf:
            chunk = self.s.recv(4096)
            if not chunk:
                raise RuntimeError('websocket handshake: connection closed')
            buf += chunk
        head, self.buf = buf.split(b'\r\n\r\n', 1)
        head = head.decode('latin-1')
        if ' 101 ' not in head.split('\r\n')[0]:
            raise RuntimeError('websocket handshake: ' + head.split('\r\n')[0])
        want = base64.b64encode(hashlib.sha1(
            (key + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').encode()).digest()).decode()
        if ('sec-websocket-accept: ' + want).lower() not in head.lower():
            raise RuntimeError('websocket handshake: bad Sec-WebSocket-Accept')

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.s.recv(1 << 20)
            if not chunk:
                raise RuntimeError('websocket: connection closed')
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def _send(self, opcode, payload):
        head = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack('>H', n)
        else:
            head += bytes([0x80 | 127]) + struct.pack('>Q', n)
        mask = os.urandom(4)
        self.s.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def send(self, text):
        self._send(0x1, text.encode())

    def recv(self):
        message = b''
        while True:
            b0, b1 = self._read(2)
            opcode, n = b0 & 0x0f, b1 & 0x7f
            if n == 126:
                n = struct.unpack('>H', self._read(2))[0]
            elif n == 127:
                n = struct.unpack('>Q', self._read(8))[0]
            mask = self._read(4) if b1 & 0x80 else None
            data = self._read(n)
            if mask:
                data = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
            if opcode == 0x9:
                self._send(0xA, data)
                continue
            if opcode == 0x8:
                raise RuntimeError('websocket: closed by the browser')
            if opcode in (0x0, 0x1, 0x2):
                message += data
                if b0 & 0x80:
                    return message.decode()


class Page:
    def __init__(self, ws):
        self.ws, self.next = ws, 0

    def call(self, method, **params):
        self.next += 1
        ident = self.next
        self.ws.send(json.dumps({'id': ident, 'method': method, 'params': params}))
        while True:
            m = json.loads(self.ws.recv())
            if m.get('id') == ident:
                if 'error' in m:
                    raise RuntimeError('%s: %s' % (method, m['error']))
                return m['result']

    def eval(self, expr):
        r = self.call('Runtime.evaluate', expression=expr, returnByValue=True)
        return r['result'].get('value')

    def key(self, key, code, vk, shift=False):
        mods = 8 if shift else 0
        for t in ('rawKeyDown', 'keyUp'):
            self.call('Input.dispatchKeyEvent', type=t, key=key, code=code,
                      windowsVirtualKeyCode=vk, modifiers=mods)


STATE = '''(() => { const i = document.getElementById("frame"),
  e = document.getElementById("errors");
  const r = i.getBoundingClientRect();
  return { t: i.dataset.t, gen: i.dataset.gen, ready: i.dataset.ready, complete: i.complete,
    x: r.x, y: r.y, w: r.width, h: r.height, nw: i.naturalWidth, nh: i.naturalHeight,
    errors: e.textContent, errshown: getComputedStyle(e).display,
    hash: location.hash, playing: window.rf.playing,
    rows: Array.from(document.querySelectorAll("#values tbody tr")).map(
      (tr) => [tr.cells[0].textContent, tr.cells[1].textContent]) }; })()'''


def wait(page, cond, seconds=60, step=0.02):
    end = time.monotonic() + seconds
    while True:
        st = page.eval(STATE)
        if cond(st):
            return st
        if time.monotonic() > end:
            return None
        time.sleep(step)


def shot(page, st, out):
    r = page.call('Page.captureScreenshot', format='png',
                  clip={'x': st['x'], 'y': st['y'], 'width': st['w'], 'height': st['h'],
                        'scale': 1})
    with open(out, 'wb') as f:
        f.write(base64.b64decode(r['data']))


def compare(what, a, b):
    same = subprocess.run([sys.executable, PNGTOOL, 'same', a, b], capture_output=True,
                          text=True).stdout.strip()
    match = subprocess.run([sys.executable, PNGTOOL, 'match', a, b, '{"threshold": 0}'],
                           capture_output=True, text=True)
    if same == '0' and match.stdout.strip() == '0':
        ok(what + ': the screenshot is seek\'s pixels (0 different, pixelmatch 0)')
    else:
        fail('%s: %s pixels differ from seek (pixelmatch: %s %s)' %
             (what, same, match.stdout.strip(), match.stderr.strip()[-200:]))


def seek(scene_path, t, out):
    subprocess.run([RUNEFRAME, 'seek', scene_path, '--time', t, '-o', out], check=True)


def main():
    scene_path = os.path.join(TMP, 'scene.json')
    save(scene_path, scene('#4d96ff'))
    server = subprocess.Popen([RUNEFRAME, 'preview', scene_path, '--port', '0'],
                              stdout=subprocess.PIPE, stderr=open(os.path.join(TMP, 'server.err'), 'w'),
                              text=True)
    procs.append(server)
    line = server.stdout.readline()
    m = re.match(r'runeframe: preview: http://127\.0\.0\.1:(\d+)/ ', line)
    if not m:
        server.wait(timeout=60)
        fail('no address line: %r (%s)' % (line, open(os.path.join(TMP, 'server.err')).read()[-500:]))
        return
    port = int(m.group(1))
    profile = os.path.join(TMP, 'profile')
    browser = subprocess.Popen(
        [CHROMIUM, '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
         '--no-default-browser-check', '--disable-extensions', '--hide-scrollbars',
         '--force-device-scale-factor=1', '--force-color-profile=srgb',
         '--window-size=900,700', '--remote-debugging-port=0',
         '--user-data-dir=' + profile, 'about:blank'],
        stdout=subprocess.DEVNULL, stderr=open(os.path.join(TMP, 'chromium.err'), 'w'),
        start_new_session=True)
    procs.append(browser)
    active = os.path.join(profile, 'DevToolsActivePort')
    end = time.monotonic() + 120
    while not (os.path.exists(active) and open(active).read().count('\n') >= 1):
        if time.monotonic() > end or browser.poll() is not None:
            fail('chromium did not start: ' + open(os.path.join(TMP, 'chromium.err')).read()[-500:])
            return
        time.sleep(0.1)
    dport = int(open(active).read().split('\n')[0])
    targets = json.load(urllib.request.urlopen('http://127.0.0.1:%d/json/list' % dport,
                                               timeout=60))
    ws_url = next(t['webSocketDebuggerUrl'] for t in targets if t['type'] == 'page')
    page = Page(WebSocket(ws_url))
    page.call('Emulation.setDeviceMetricsOverride', width=900, height=700,
              deviceScaleFactor=1, mobile=False)
    page.call('Page.enable')
    page.call('Page.navigate', url='http://127.0.0.1:%d/#t=1.25' % port)

    # ---- #t=1.25: seek's pixels
    st = wait(page, lambda s: s and s.get('t') == '1.25' and s.get('ready') == '1' and s['complete'])
    if st is None:
        fail('the page did not show t = 1.25: %r' % page.eval(STATE))
        return
    ok('the page honours #t=1.25')
    if (st['w'], st['h'], st['nw'], st['nh']) == (320, 180, 320, 180) and \
            st['x'] == int(st['x']) and st['y'] == int(st['y']):
        ok('the frame is drawn at 1:1 on whole pixels')
    else:
        fail('the frame is not drawn 1:1: %r' % st)
    seek(scene_path, '1.25', os.path.join(TMP, 'seek1.png'))
    shot(page, st, os.path.join(TMP, 'shot1.png'))
    compare('t = 1.25', os.path.join(TMP, 'shot1.png'), os.path.join(TMP, 'seek1.png'))

    # ---- a saved edit: the new frame within 1 s
    for attempt, color in enumerate(['#ff6b6b', '#6bcb77']):
        gen = str(attempt + 2)
        t0 = time.monotonic()
        save(scene_path, scene(color))
        st = wait(page, lambda s: s.get('gen') == gen and s.get('ready') == '1' and s['complete'],
                  seconds=30, step=0.01)
        took = time.monotonic() - t0
        if st is None:
            fail('no new frame after an edit: %r' % page.eval(STATE))
            return
        if took < 1.0:
            break
        print('note: the new frame took %.3f s (attempt %d)' % (took, attempt + 1))
    if took < 1.0:
        ok('the new frame %.0f ms after the save' % (took * 1000))
    else:
        fail('the new frame took %.3f s after the save' % took)
    seek(scene_path, '1.25', os.path.join(TMP, 'seek2.png'))
    shot(page, st, os.path.join(TMP, 'shot2.png'))
    compare('after the edit', os.path.join(TMP, 'shot2.png'), os.path.join(TMP, 'seek2.png'))
    good_gen = st['gen']
    # the comparison can fail: the first screenshot is not the edited scene
    differ = subprocess.run([sys.executable, PNGTOOL, 'same', os.path.join(TMP, 'shot1.png'),
                             os.path.join(TMP, 'seek2.png')], capture_output=True,
                            text=True).stdout.strip()
    if differ not in ('', '0'):
        ok('control: the old screenshot differs from the new seek in %s pixels' % differ)
    else:
        fail('control: the old screenshot equals the new seek (%r)' % differ)

    # ---- a broken scene: validate's lines in the DOM, over the last good frame
    broken = scene(color).replace('"stroke_width"', '"stroke_wdth"')
    save(scene_path, broken)
    expected = subprocess.run([RUNEFRAME, 'validate', scene_path], capture_output=True,
                              text=True).stderr
    st = wait(page, lambda s: s['errshown'] == 'block' and s['errors'] != '', seconds=30)
    if st is None:
        fail('no error text after a broken save: %r' % page.eval(STATE))
        return
    if st['errors'] == expected and 'stroke_wdth' in expected:
        ok('the error text in the DOM is validate\'s: %s' % expected.strip().split('\n')[0])
    else:
        fail('error text %r, validate says %r' % (st['errors'], expected))
    if st['gen'] == good_gen and st['ready'] == '1':
        ok('the last good frame stays under the errors')
    else:
        fail('the frame changed under the errors: %r' % st)
    save(scene_path, scene(color))
    st = wait(page, lambda s: s['errshown'] == 'none' and s.get('ready') == '1', seconds=30)
    if st is not None:
        ok('the errors go when the scene is fixed')
    else:
        fail('the errors stay after a fix: %r' % page.eval(STATE))

    # ---- keyboard: frame by frame, ten frames; the values table is sample's.
    # The answers to /values.json are held until the test lets them go, so
    # the values of frame 39 are still on their way when frame 29 is shown
    # (as on a loaded machine): the table must end as frame 29's.
    page.eval('''(() => { const f = window.fetch; let open;
      window.rfGate = new Promise((r) => { open = r; }); window.rfOpen = open;
      window.fetch = async (u, o) => { const r = await f(u, o);
        if (String(u).startsWith("/values.json")) await window.rfGate; return r; }; })()''')
    page.key('ArrowRight', 'ArrowRight', 39)
    st = wait(page, lambda s: s.get('t') == str(39 / 30) and s.get('ready') == '1', seconds=30)
    if st is not None and st['hash'] == '#t=' + str(39 / 30):
        ok('ArrowRight: frame 38 -> 39 (t = 1.25 is frame 37.5, shown as 38)')
    else:
        fail('ArrowRight: %r' % page.eval(STATE))
    page.key('ArrowLeft', 'ArrowLeft', 37, shift=True)
    st = wait(page, lambda s: s.get('t') == str(29 / 30) and s.get('ready') == '1', seconds=30)
    if st is not None:
        ok('Shift+ArrowLeft: ten frames back to 29')
    else:
        fail('Shift+ArrowLeft: %r' % page.eval(STATE))
    page.eval('window.rfOpen()')
    sample = json.loads(subprocess.run(
        [RUNEFRAME, 'sample', scene_path, '--times', repr(29 / 30), '--format', 'json'],
        capture_output=True, text=True, check=True).stdout)
    want = [[c, repr(v) if isinstance(v, float) else str(v)]
            for c, v in zip(sample['columns'][1:], sample['rows'][0][1:])]
    st = wait(page, lambda s: [[r[0], repr(float(r[1]))] for r in s['rows']] ==
              [[c, repr(float(v))] for c, v in want], seconds=30)
    if st is not None:
        ok('the values table is sample\'s row at t = 29/30')
    else:
        fail('values table %r, sample %r' % (page.eval(STATE)['rows'], want))
    page.key(' ', 'Space', 32)
    st = wait(page, lambda s: s['playing'] and float(s.get('t') or 0) > 29 / 30, seconds=30)
    page.key(' ', 'Space', 32)
    st2 = wait(page, lambda s: not s['playing'], seconds=30)
    if st is not None and st2 is not None:
        ok('space plays (t moved to %s) and pauses' % st['t'])
    else:
        fail('space: %r' % page.eval(STATE))


try:
    main()
except Exception as e:          # a broken protocol is a failure, not a crash
    fail('%s: %s' % (type(e).__name__, e))
finally:
    for p in procs:
        try:
            if p.args[0] == CHROMIUM:
                os.killpg(p.pid, signal.SIGKILL)
            else:
                p.send_signal(signal.SIGTERM)
                if p.wait(timeout=60) != 0:
                    fail('the server exited %d after SIGTERM: %s' % (
                        p.returncode, open(os.path.join(TMP, 'server.err')).read()[-500:]))
            p.wait(timeout=30)
        except Exception:
            p.kill()
sys.exit(1 if failed else 0)
