#!/usr/bin/env python3
"""Checks hcc-report's HTML page in a real headless Chromium (tests/report).

  html_check.py colours PNG          -> prints the number of distinct colours
  html_check.py click CHROMIUM HTML NAME
      -> loads HTML, clicks (real mouse events through the DevTools protocol)
         the first flame-graph box of region NAME, hovers it, and prints one
         JSON object with what the page showed before and after; then types
         the name into the search field and switches the metric to visits.

The DevTools protocol runs over --remote-debugging-pipe (fd 3: to the
browser, fd 4: from it, messages ended by NUL), so no websocket client is
needed: only the Python standard library.
"""
import json
import os
import struct
import subprocess
import sys
import tempfile
import time
import zlib


def png_colours(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise SystemExit(path + ': not a PNG')
    pos, idat, width = 8, b'', 0
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b'IHDR':
            width, height, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise SystemExit('%s: PNG depth %d colour type %d interlace %d not handled' % (path, depth, ctype, interlace))
            bpp = 3 if ctype == 2 else 4
        elif kind == b'IDAT':
            idat += body
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    colours = set()
    i = 0
    for _ in range(height):
        ftype = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if ftype == 1:
                line[x] = (line[x] + a) & 255
            elif ftype == 2:
                line[x] = (line[x] + b) & 255
            elif ftype == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pred) & 255
        for x in range(0, stride, bpp):
            colours.add(bytes(line[x:x + 3]))
        prev = line
    return len(colours)


class Browser:
    def __init__(self, chromium):
        self.profile_dir = tempfile.mkdtemp(prefix='hcc-chromium-')
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()

        # In the child: the two pipe ends become fds 3 and 4. Both numbers
        # are in pass_fds, as Popen closes every other descriptor after
        # preexec_fn; dup first, since a pipe end may itself be fd 3 or 4.
        def fds():
            a, b = os.dup(to_r), os.dup(from_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [chromium, '--headless', '--no-sandbox', '--disable-gpu', '--remote-debugging-pipe',
             '--user-data-dir=' + self.profile_dir, '--window-size=1200,800', '--no-first-run',
             '--disable-extensions', '--disable-background-networking', 'about:blank'],
            preexec_fn=fds, pass_fds=(3, 4), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_r)
        os.close(from_w)
        self.next_id = 0
        self.buffer = b''
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {'id': self.next_id, 'method': method, 'params': params or {}}
        if session:
            msg['sessionId'] = session
        os.write(self.to_w, json.dumps(msg).encode() + b'\0')
        want = self.next_id
        while True:
            m = self.read()
            if m.get('id') == want:
                if 'error' in m:
                    raise RuntimeError('%s: %s' % (method, m['error']))
                return m.get('result', {})
            self.events.append(m)

    def read(self):
        while b'\0' not in self.buffer:
            chunk = os.read(self.from_r, 65536)
            if not chunk:
                raise RuntimeError('chromium closed the DevTools pipe')
            self.buffer += chunk
        msg, self.buffer = self.buffer.split(b'\0', 1)
        return json.loads(msg)

    # Generous: Chromium on a loaded 2-core machine can take tens of seconds.
    def wait_event(self, method, timeout=120):
        end = time.time() + timeout
        while time.time() < end:
            for i, e in enumerate(self.events):
                if e.get('method') == method:
                    return self.events.pop(i)
            self.events.append(self.read())
        raise RuntimeError('no ' + method)

    def close(self):
        try:
            self.send('Browser.close')
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def click(chromium, html, name):
    b = Browser(chromium)
    try:
        target = b.send('Target.createTarget', {'url': 'about:blank'})['targetId']
        s = b.send('Target.attachToTarget', {'targetId': target, 'flatten': True})['sessionId']
        b.send('Page.enable', session=s)
        b.send('Page.navigate', {'url': 'file://' + os.path.abspath(html)}, session=s)
        b.wait_event('Page.loadEventFired')

        def js(expr):
            r = b.send('Runtime.evaluate', {'expression': expr, 'returnByValue': True}, session=s)
            if 'exceptionDetails' in r:
                raise RuntimeError('page script failed: %s' % r['exceptionDetails'])
            return r['result'].get('value')

        # The page's script sets data-ready when it has drawn; wait for it up
        # to 60 s (the probe below fails if it never does).
        ready_by = time.time() + 60
        while time.time() < ready_by:
            if js("document.body.dataset.ready === '1'"):
                break
            time.sleep(0.05)
        probe = """(() => {
          const f = document.getElementById('flame');
          const all = Array.from(f.querySelectorAll('.fg-node'));
          const want = %s;
          // No name given: the widest box that is narrower than the graph.
          const pick = () => all.filter(e => Number(e.dataset.cp) >= 0 && e.offsetWidth > 10 &&
                                             e.offsetWidth < 0.95 * f.clientWidth)
                                .sort((a, b) => b.offsetWidth - a.offsetWidth)[0];
          const n = want ? all.find(e => e.dataset.name === want) : pick();
          if (!n) return null;
          n.scrollIntoView({block: 'center'});
          const r = n.getBoundingClientRect();
          return {cp: Number(n.dataset.cp), name: n.dataset.name, x: r.left + Math.min(r.width / 2, 20), y: r.top + r.height / 2,
                  width: r.width, flame_width: f.clientWidth, zoom: Number(f.dataset.zoom),
                  boxes: f.querySelectorAll('.fg-node').length};
        })()""" % json.dumps(name)
        before = js(probe)
        if before is None:
            return {'error': 'no flame-graph box named ' + name}
        mouse = {'x': before['x'], 'y': before['y'], 'button': 'left', 'clickCount': 1}
        b.send('Input.dispatchMouseEvent', dict(mouse, type='mouseMoved', button='none'), session=s)
        tooltip = js("(() => { const t = document.getElementById('tooltip'); return t.hidden ? null : t.textContent; })()")
        b.send('Input.dispatchMouseEvent', dict(mouse, type='mousePressed'), session=s)
        b.send('Input.dispatchMouseEvent', dict(mouse, type='mouseReleased'), session=s)
        after = js(probe.replace('const want = %s;' % json.dumps(name),
                                 'const want = %s;' % json.dumps(before['name'])))
        # Typing into the search field (real key input) marks matching boxes.
        js("document.getElementById('reset').click(); document.getElementById('search').focus()")
        b.send('Input.insertText', {'text': before['name']}, session=s)
        search = js("""({info: document.getElementById('match-info').textContent,
                        marked: Array.from(document.querySelectorAll('#flame .fg-node.match')).map(e => e.dataset.name)})""")
        # Another metric from the selector redraws the graph with its values.
        metric = js("""(() => {
          const s = document.getElementById('metric');
          const i = Array.from(s.options).findIndex(o => o.textContent.startsWith('visits'));
          if (i < 0) return null;
          s.value = s.options[i].value;
          s.dispatchEvent(new Event('change'));
          return document.querySelector('#flame .fg-node[data-cp="-1"]').textContent;
        })()""")
        return {'before': before, 'after': after, 'tooltip': tooltip, 'search': search, 'visits_root': metric}
    finally:
        b.close()


def main():
    if len(sys.argv) == 3 and sys.argv[1] == 'colours':
        print(png_colours(sys.argv[2]))
    elif len(sys.argv) == 5 and sys.argv[1] == 'click':
        print(json.dumps(click(sys.argv[2], sys.argv[3], sys.argv[4])))
    else:
        raise SystemExit(__doc__)


if __name__ == '__main__':
    main()
