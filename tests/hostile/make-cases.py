#!/usr/bin/env python3
"""tests/hostile/make-cases.py - writes the small scene cases of tests/hostile/.

Run by hand from the source tree (python3 tests/hostile/make-cases.py) when a
case is added; `make check` does not run it: tests/hostile.test replays the
files this writes (NAME.json, NAME.cmd, NAME.rc, NAME.out) and the NAME.err
files, which hold the exact first line of stderr, judged by hand (see
tests/hostile.test for the format). Big inputs are NAME.gen recipes instead,
run at test time, and the PNG cases come from make-pngs.py.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

BASE = {"runeframe": 1, "canvas": {"width": 8, "height": 8}, "timeline": {"duration": 1}}


def scene(values=None, layers=None, **top):
    d = json.loads(json.dumps(BASE))
    for k, v in top.items():
        d[k] = v
    if values is not None:
        d["values"] = values
    if layers is not None:
        d["layers"] = layers
    return d


def value(kind, **params):
    return {"x": {kind: params}}


CASES = []


def csv(col, *rows):
    """The CSV `sample` prints: every number as %.17g (cli.md)."""
    return "t,%s\n" % col + "".join("%.17g,%.17g\n" % r for r in rows)


def case(name, body, cmd=None, rc=None, out=None):
    """body: a dict (dumped as JSON), bytes or str (written verbatim)."""
    CASES.append((name, body, cmd, rc, out))


# ------------------------------------------------------------------ numbers
# NaN and Infinity are not JSON: the syntax checker names them, wherever
# they stand.
raw = b'{"runeframe": 1, "canvas": {"width": 8, "height": 8}, "timeline": {"duration": 1}, '
case("num-nan", raw + b'"values": {"x": NaN}}\n')
case("num-nan-lower", raw + b'"values": {"x": nan}}\n')
case("num-minus-nan", raw + b'"values": {"x": -NaN}}\n')
case("num-infinity", raw + b'"values": {"x": {"spring": {"to": Infinity}}}}\n')
case("num-minus-infinity", raw + b'"values": {"x": {"physics": {"min": -Infinity}}}}\n')
case("num-inf-lower", raw + b'"layers": [{"type": "circle", "r": inf}]}\n')
case("num-canvas-nan", b'{"runeframe": 1, "canvas": {"width": NaN, "height": 8}}\n')
# 1e309 is JSON but not a double: "number out of range" at its pointer
for name, path, v in [
    ("num-1e309-canvas", ("canvas", "width"), None),
    ("num-1e309-fps", ("timeline", "fps"), None),
    ("num-1e309-duration", ("timeline", "duration"), None),
]:
    d = scene()
    d[path[0]][path[1]] = "@BIG@"
    case(name, json.dumps(d).replace('"@BIG@"', "1e309"))
for name, kind, key in [
    ("num-1e309-spring-to", "spring", "to"),
    ("num-1e309-stiffness", "spring", "stiffness"),
    ("num-1e309-velocity", "spring", "velocity"),
    ("num-1e309-threshold", "spring", "threshold"),
    ("num-1e309-bezier-duration", "bezier", "duration"),
    ("num-1e309-physics-gravity", "physics", "gravity"),
    ("num-1e309-decay-friction", "decay", "friction"),
    ("num-1e309-start", "tween", "start"),
]:
    p = {"to": 1, "duration": 1} if kind in ("bezier", "tween") else {"to": 1} if kind == "spring" else {}
    p[key] = "@BIG@"
    case(name, json.dumps(scene(values=value(kind, **p))).replace('"@BIG@"', "-1e309" if key == "start" else "1e309"))
case("num-1e309-curve", json.dumps(scene(values=value("bezier", to=1, duration=1, curve=[0.25, "@BIG@", 0.25, 1]))).replace('"@BIG@"', "1e309"))
case("num-1e309-key-value", json.dumps(scene(values={"k": {"keyframes": {"duration": 1, "keys": [[0, 0], [1, "@BIG@"]]}}})).replace('"@BIG@"', "-1e309"))
case("num-1e309-layer-x", json.dumps(scene(layers=[{"type": "circle", "x": "@BIG@", "r": 1}])).replace('"@BIG@"', "1e309"))
case("num-1e309-stop", json.dumps(scene(layers=[{"type": "circle", "r": 1, "fill": {"linear": {"from": [0, 0], "to": [8, 0], "stops": [[0, "#f00"], ["@BIG@", "#00f"]]}}}])).replace('"@BIG@"', "1e309"))
case("num-1e309-checks", json.dumps(scene(checks={"times": [0, "@BIG@"]})).replace('"@BIG@"', "1e309"))
case("num-1e309-seq-at", json.dumps(scene(values={"x": {"sequence": [{"at": 0, "spring": {"to": 1}}, {"at": "@BIG@", "spring": {"to": 2}}]}})).replace('"@BIG@"', "1e309"))
case("num-1e309-version", '{"runeframe": 1e309, "canvas": {"width": 8, "height": 8}}\n')
# 1e-400 underflows to 0 (JSON allows it): then it is checked as 0
case("num-underflow-stiffness", json.dumps(scene(values=value("spring", to=1, stiffness="@U@"))).replace('"@U@"', "1e-400"))
# -0 is a number like any other: a valid value, an invalid size
case("num-negzero-value", json.dumps(scene(values={"x": "@Z@"})).replace('"@Z@"', "-0"),
     cmd="sample @ --times 0,1", rc=0, out="t,x\n0,-0\n1,-0\n")
case("num-negzero-width", json.dumps(scene()).replace('"width": 8', '"width": -0'))
case("num-negzero-stiffness", json.dumps(scene(values=value("spring", to=1, stiffness="@Z@"))).replace('"@Z@"', "-0"))
case("num-negzero-duration", json.dumps(scene()).replace('"duration": 1', '"duration": -0'))
case("num-negzero-fps", json.dumps(scene(timeline={"fps": "@Z@", "duration": 1})).replace('"@Z@"', "-0"))
case("num-negzero-version", '{"runeframe": -0, "canvas": {"width": 8, "height": 8}}\n')
case("num-negzero-damping", json.dumps(scene(values=value("spring", to=1, damping="@Z@"))).replace('"@Z@"', "-0"),
     rc=0)  # damping >= 0: -0 is 0, an undamped spring
case("num-1e308-value", json.dumps(scene(values={"x": 1e308}, layers=[{"type": "circle", "x": "x", "r": 2, "fill": "#fff"}])),
     cmd="render @ -o OUT --frames 0:1", rc=0)
# denormals: valid where a number > 0 is asked for, and they never hang
DEN = 5e-324
case("den-value", json.dumps(scene(values={"x": DEN})), cmd="sample @ --times 0", rc=0,
     out="t,x\n0,4.9406564584124654e-324\n")
case("den-width", json.dumps(scene()).replace('"width": 8', '"width": 5e-324'))
case("den-fps", json.dumps(scene(timeline={"fps": DEN, "duration": 1})), cmd="info @ --json", rc=0)
case("den-duration", json.dumps(scene(timeline={"fps": 60, "duration": DEN})), rc=0)
case("den-spring-all", json.dumps(scene(values=value("spring", to=DEN, stiffness=DEN, damping=DEN, velocity=DEN, threshold=DEN))), rc=0)
case("den-bezier-duration", json.dumps(scene(values=value("bezier", to=1, duration=DEN))),
     cmd="sample @ --times 0,1e-323,1", rc=0, out="t,x\n0,0\n9.8813129168249309e-324,1\n1,1\n")
case("den-physics", json.dumps(scene(values=value("physics", velocity=DEN, friction=DEN, gravity=DEN, max=1))), rc=0)
case("den-decay", json.dumps(scene(values=value("decay", velocity=1e308, friction=DEN))),
     cmd="sample @ --times 0,1", rc=0, out="t,x\n0,0\n1,1e+308\n")
case("den-key-time", json.dumps(scene(values={"k": {"keyframes": {"duration": 1, "keys": [[0, 0], [DEN, 1], [1, 2]]}}})), rc=0)
case("den-seq-at", json.dumps(scene(values={"x": {"sequence": [{"at": 0, "spring": {"to": 1}}, {"at": DEN, "spring": {"to": 2}}, {"at": 2 * DEN, "tween": {"to": 3, "duration": DEN}}]}})), rc=0)
# springs at the ends of the double range: a settle time or a clear error
case("spring-stiffness-1e-300", json.dumps(scene(values=value("spring", to=1, stiffness=1e-300))),
     cmd="sample @ --times 0,1.2e302", rc=0, out="t,x\n0,0\n1.2e+302,1\n")
case("spring-stiffness-1e300", json.dumps(scene(values=value("spring", to=1, stiffness=1e300))),
     cmd="sample @ --times 0,0.355,1e300", rc=0, out="t,x\n0,0\n0.35499999999999998,1\n1.0000000000000001e+300,1\n")
case("spring-damping-1e300", json.dumps(scene(values=value("spring", to=1, damping=1e300))),
     cmd="sample @ --times 0,2.71e298", rc=0, out=csv("x", (0, 0), (2.71e298, 1)))
case("spring-damping-1e-300", json.dumps(scene(values=value("spring", to=1, damping=1e-300))),
     cmd="sample @ --times 0,9.22e300", rc=0, out="t,x\n0,0\n9.2200000000000003e+300,1\n")
case("spring-ratio-overflow", json.dumps(scene(values=value("spring", to=1, stiffness=1e300, damping_ratio=1e300))))
case("spring-huge-range", json.dumps(scene(values=value("spring", **{"from": -1e308, "to": 1e308}))), rc=0)
case("spring-huge-velocity", json.dumps(scene(values=value("spring", to=1, velocity=1e308, stiffness=1e-300, damping=1e-300))), rc=0)
case("spring-auto-too-long", json.dumps(scene(timeline={"duration": "auto"}, values=value("spring", to=1, damping=1e-300))))
case("spring-auto-undamped", json.dumps(scene(timeline={"duration": "auto"}, values=value("spring", to=1, damping=0))))
case("spring-start-1e308", json.dumps(scene(values=value("spring", to=1, start=1e308))),
     cmd="sample @ --times 0,1.7e308", rc=0, out="t,x\n0,0\n1.6999999999999999e+308,1\n")
# bezier and tween
case("bezier-duration-1e-300", json.dumps(scene(values=value("bezier", to=1, duration=1e-300))),
     cmd="sample @ --times 0,1e-300", rc=0, out=csv("x", (0, 0), (1e-300, 1)))
case("bezier-loop-1e-300", json.dumps(scene(values=value("bezier", to=1, duration=1e-300, repeat="loop"))),
     cmd="sample @ --times 0,1,1e300", rc=0)
case("bezier-iterations-huge", json.dumps(scene(values=value("bezier", to=1, duration=1, repeat="ping-pong", iterations=2 ** 53))))
case("bezier-iterations-max", json.dumps(scene(values=value("bezier", to=1, duration=1e-300, repeat="loop", iterations=4294967295))),
     cmd="sample @ --times 5e-291", rc=0, out=csv("x", (5e-291, 1)))
case("bezier-huge-span", json.dumps(scene(values=value("bezier", **{"from": -1e308, "to": 1e308, "duration": 1, "curve": "linear"}))),
     cmd="sample @ --times 0,0.5,1", rc=0, out="t,x\n0,-1e+308\n0.5,0\n1,1e+308\n")
case("bezier-policy-infinite", json.dumps(scene(values=value("bezier", to=1, duration={"speed": DEN}))),
     cmd="info @ --json", rc=0)
case("tween-steps-huge", json.dumps(scene(values=value("tween", to=1, duration=1, easing="steps(1000000000000, jump-none)"))))
case("tween-steps-max", json.dumps(scene(values=value("tween", to=1, duration=1, easing="steps(1000000000, jump-both)"))), rc=0)
case("tween-linear-10000-stops", json.dumps(scene(values=value("tween", to=1, duration=1, easing="linear(" + ", ".join(["0.5"] * 10000) + ")"))), rc=0)
case("tween-linear-pct-1e308", json.dumps(scene(values=value("tween", to=1, duration=1, easing="linear(0, 0.5 1e308%, 1)"))), rc=0)
case("tween-linear-pct-1e309", json.dumps(scene(values=value("tween", to=1, duration=1, easing="linear(0, 0.5 1e309%, 1)"))))
case("keys-huge-span", json.dumps(scene(values={"k": {"keyframes": {"duration": 1, "keys": [[0, 1e308], [1, -1e308]]}}})),
     cmd="sample @ --times 0,0.5,1", rc=0, out="t,k\n0,1e+308\n0.5,0\n1,-1e+308\n")
# physics that never hits a bound, and one that hits it after 1e150 s
case("physics-never-auto", json.dumps(scene(timeline={"duration": "auto"}, values=value("physics", velocity=1, gravity=0, max=1e308, min=-1))))
case("physics-unbounded-auto", json.dumps(scene(timeline={"duration": "auto"}, values=value("physics", velocity=-100, gravity=900))))
case("physics-never", json.dumps(scene(values=value("physics", velocity=-100, friction=1e-300, gravity=1e-300, max=1e308))),
     cmd="info @ --json", rc=0)
case("physics-late-hit", json.dumps(scene(values=value("physics", gravity=1e-300, max=1e300))),
     cmd="sample @ --times 0,1.4142135623730952e300", rc=0, out=csv("x", (0, 0), (1.4142135623730952e300, 1e300)))
case("physics-fling-tiny-friction", json.dumps(scene(values=value("physics", velocity=1, friction=1e-300))),
     cmd="sample @ --times 0,10", rc=0, out="t,x\n0,0\n10,10\n")
case("decay-tiny-friction", json.dumps(scene(values=value("decay", velocity=1, friction=1e-300))),
     cmd="sample @ --times 0,10", rc=0, out="t,x\n0,0\n10,10\n")
case("decay-huge", json.dumps(scene(values=value("decay", velocity=1e308, friction=1e308))), rc=0)

# ------------------------------------------------------------------ strings
def rawscene(extra):
    return raw + extra + b'}\n'


case("utf8-ff", rawscene(b'"values": {"x\xff": 1}'))
case("utf8-overlong", rawscene(b'"paths": {"p": "M 0 0 L 1 1\xc0\x80"}'))
case("utf8-surrogate", rawscene(b'"values": {"x\xed\xa0\x80": 1}'))
case("utf8-truncated", rawscene(b'"values": {"x\xe2\x82": 1}'))
case("utf8-lone-continuation", rawscene(b'"values": {"x\x80": 1}'))
case("utf8-above-10ffff", rawscene(b'"values": {"x\xf4\x90\x80\x80": 1}'))
case("utf8-outside-string", raw + b'\xc3\xa9"values": {}}\n')
case("utf8-valid-names", rawscene(b'"paths": {"caf\xc3\xa9": "M 0 0 L 1 1"}, "layers": [{"type": "path", "path": "caf\xc3\xa9", "stroke": "#fff", "id": "\xf0\x9f\x98\x80"}]'), rc=0)
case("utf8-bom", b'\xef\xbb\xbf' + raw[:-2] + b'}\n', rc=0)
case("utf16", '{"runeframe": 1}'.encode('utf-16'))
case("nul-raw", rawscene(b'"values": {"x\x00": 1}'))
case("nul-escape-key", rawscene(b'"values": {"x\\u0000y": 1}'))
case("nul-escape-ref", rawscene(b'"values": {"x": 1}, "layers": [{"type": "circle", "r": "x\\u0000y"}]'))
case("nul-escape-expr", rawscene(b'"values": {"x": {"expr": "1 + \\u0000 2"}}'))
case("nul-escape-path", rawscene(b'"paths": {"p": "M 0 0\\u0000 L 1 1"}'))
case("surrogate-high-alone", rawscene(b'"layers": [{"type": "circle", "r": 1, "id": "\\ud800"}]'))
case("surrogate-low-alone", rawscene(b'"layers": [{"type": "circle", "r": 1, "id": "\\udc00x"}]'))
case("surrogate-pair", rawscene(b'"layers": [{"type": "circle", "r": 1, "id": "\\ud83d\\ude00"}]'), rc=0)
LONG = "n" * 300
case("name-300-refs", json.dumps(scene(values={LONG: 1, "e": {"expr": LONG + " + 1"}, "s": {"spring": {"from": LONG, "to": 2}}},
                                       layers=[{"type": "circle", "r": LONG, "fill": "#fff"}])), rc=0)
case("name-300-unknown", json.dumps(scene(values={LONG: 1}, layers=[{"type": "circle", "r": LONG + "m"}])))
case("escape-in-easing", rawscene(b'"values": {"y": {"tween": {"to": 1, "duration": 1, "easing": "\\u001b[31m"}}}'))
case("escape-in-key", rawscene(b'"values": {"\\u001b[2J": 1}'))
case("escape-in-expr", rawscene(b'"values": {"x": {"expr": "1 + \\u001b[2J"}}'))
case("control-char-key", rawscene(b'"values": {"a\x01b": 1}'))
case("escaped-control-name", rawscene(b'"values": {"a\\u0001b": 1}'))

# ------------------------------------------------------------------ expressions
def expr(src):
    return json.dumps(scene(values={"x": {"expr": src}}))


case("expr-4096-bytes", expr("1" + "+1" * 2047 + " "), rc=0)
case("expr-4097-bytes", expr("1" + "+1" * 2048))
case("expr-parens-2047", expr("(" * 2047 + "1" + ")" * 2047), cmd="sample @ --times 0", rc=0, out="t,x\n0,1\n")
case("expr-open-parens", expr("(" * 4096))
case("expr-unary-4095", expr("-" * 4095 + "1"), cmd="sample @ --times 0", rc=0, out="t,x\n0,-1\n")
case("expr-ternary-nest", expr("(" * 600 + "1" + "?1:1)" * 600), rc=0)
case("expr-compare-chain", expr("1<" * 2047 + "1"), rc=0)
case("expr-number-1e309", expr("1e309"))
case("expr-number-long", expr("1" * 4000))
case("expr-dot-chain", expr("t" + ".x" * 2000))
case("expr-nonfinite", expr("1/0 + sqrt(-1) + log(0) + pow(10, 400) + 5 % 0"), cmd="sample @ --times 0", rc=0)

# ------------------------------------------------------------------ drawing
def canvas16(layers, **kw):
    d = scene(layers=layers, **kw)
    d["canvas"] = {"width": 16, "height": 8, "background": "#000000"}
    d["timeline"] = {"fps": 1, "duration": 1}
    return d


# shapes far past cairo's fixed-point range: drawn right (the golden is
# made independently by make-pngs.py) or refused, never garbage or a hang
case("draw-rect-1e9-edge", json.dumps(canvas16([{"type": "rect", "x": 8, "y": -1e8, "anchor": [1, 0], "width": 1e9, "height": 1e9, "fill": "#ffffff"}])),
     cmd="check @ --golden GOLDEN", rc=0)
case("draw-circle-1e300", json.dumps(canvas16([{"type": "circle", "x": 8, "y": 4, "r": 1e300, "fill": "#ffffff", "stroke": "#ff0000"}])),
     cmd="check @ --golden GOLDEN", rc=0)
case("draw-circle-1e15-edge", json.dumps(canvas16([{"type": "circle", "x": 8 - 1e15, "y": 4, "r": 1e15, "fill": "#ffffff"}])),
     cmd="check @ --golden GOLDEN", rc=0)
case("draw-stroke-huge-circle", json.dumps(canvas16([{"type": "circle", "x": 8 - 1e9, "y": 4, "r": 1e9, "fill": "#ffffff", "stroke": "#ff0000", "stroke_width": 2}])),
     cmd="check @ --golden GOLDEN", rc=0)
case("draw-line-1e7", json.dumps(canvas16([{"type": "line", "x1": 2, "y1": 4, "x2": 1e7, "y2": 4, "stroke": "#ffffff", "stroke_width": 2}])),
     cmd="check @ --golden GOLDEN", rc=0)
case("draw-ellipse-1e9", json.dumps(canvas16([{"type": "ellipse", "x": 8, "y": 4, "rx": 1e9, "ry": 2, "fill": "#ffffff"}])),
     cmd="check @ --golden GOLDEN", rc=0)
case("draw-rounded-1e300", json.dumps(canvas16([{"type": "rect", "x": 8, "y": 4, "width": 1e300, "height": 1e300, "radius": 1e300, "fill": "#ffffff", "stroke": "#ff0000"}])),
     cmd="check @ --golden GOLDEN", rc=0)
case("draw-scale-1e155", json.dumps(canvas16([{"type": "circle", "x": 8, "y": 4, "r": 4, "scale": 1e155, "fill": "#ffffff"}])),
     cmd="check @ --golden GOLDEN", rc=0)
case("draw-scale-1e100", json.dumps(canvas16([{"type": "rect", "x": 8, "y": 4, "width": 4, "height": 4, "scale": 1e100, "fill": "#ffffff"}])),
     cmd="check @ --golden GOLDEN", rc=0)
case("draw-path-scaled", json.dumps(canvas16([{"type": "path", "path": "M 0 0 C 1 0 1 1 0 1 Z", "scale": 1e12, "x": 8, "y": 4, "fill": "#ffffff", "opacity": 0.5}])),
     cmd="render @ -o OUT", rc=0)
case("draw-ellipse-unresolvable", json.dumps(canvas16([{"type": "ellipse", "x": 8, "y": 4, "rx": 1e100, "ry": 2, "rotate": 30, "fill": "#ffffff"}])),
     cmd="render @ -o OUT --frames 1:2 --jobs 2", rc=3)
case("draw-stroke-too-wide", json.dumps(canvas16([{"type": "circle", "x": 8, "y": 4, "r": 2, "stroke": "#ffffff", "stroke_width": 1e9}])),
     cmd="render @ -o OUT --frames 1:2 --jobs 2", rc=3)
case("draw-beyond-double", json.dumps(canvas16([{"type": "rect", "x": 8, "y": 4, "width": 1e308, "height": 1e308, "scale": 1.9, "fill": "#ffffff"}])),
     cmd="seek @ --time 0 -o OUT/f.png", rc=3)
case("draw-nonfinite-values", json.dumps(canvas16(
    [{"type": "circle", "x": "e", "y": 4, "r": 2, "fill": "#ffffff"},
     {"type": "rect", "x": 8, "y": 4, "width": "e", "height": 2, "rotate": "e", "fill": "#ffffff"}],
    values={"e": {"expr": "1/0 - 1/0 + t"}})), cmd="check @ --golden GOLDEN", rc=0)
case("draw-huge-stroke-width", json.dumps(canvas16([{"type": "line", "x1": 0, "y1": 4, "x2": 16, "y2": 4, "stroke": "#ffffff", "stroke_width": 1e308}])),
     cmd="render @ -o OUT --frames 1:2 --jobs 2", rc=3)
case("draw-gradient-1e308", json.dumps(canvas16([{"type": "rect", "x": 8, "y": 4, "width": 16, "height": 8, "fill": {"linear": {"from": [-1e308, 0], "to": [1e308, 0], "stops": [[0, "#000000"], [1, "#ffffff"]]}}}])),
     cmd="render @ -o OUT", rc=0)
case("draw-radial-1e308", json.dumps(canvas16([{"type": "rect", "x": 8, "y": 4, "width": 16, "height": 8, "fill": {"radial": {"center": [8, 4], "radius": 1e308, "stops": [[0, "#000000"], [1, "#ffffff"]]}}}])),
     cmd="render @ -o OUT", rc=0)
# every numeric layer property at once, in every layer type: 1e308, a
# denormal, -0; each draws nothing (off the canvas, a singular matrix, a
# zero size or opacity), and the frame is the transparent background
for tag, v in (("1e308", 1e308), ("denormal", 5e-324), ("negzero", -0.0)):
    common = {"x": v, "y": v, "rotate": v, "scale": [v, v], "anchor": [v, v], "opacity": v}
    lay = [dict(type="rect", width=abs(v), height=abs(v), radius=abs(v), fill="#fff", **common),
           dict(type="circle", r=abs(v), fill={"linear": {"from": [v, v], "to": [-v, 1], "stops": [[0, "#f00"], [min(abs(v), 1), "#00f"]]}}, **common),
           dict(type="ellipse", rx=abs(v), ry=abs(v), fill={"radial": {"center": [v, v], "radius": abs(v), "stops": [[0, "#f00"]]}}, **common),
           dict(type="line", x1=v, y1=v, x2=-v, y2=v, stroke="#fff", **common),
           dict(type="path", path="M 0 0 L 1 1 C 2 2 3 3 4 4 Z", trim=[v, abs(v)], fill="#0f0", **common),
           dict(type="group", children=[dict(type="circle", r=2, fill={"mix": ["#f00", "#00f"], "by": v})], **common)]
    d = {"runeframe": 1, "canvas": {"width": 16, "height": 8}, "timeline": {"fps": 1, "duration": 1}, "layers": lay}
    case("draw-every-prop-" + tag, json.dumps(d), cmd="check @ --golden GOLDEN", rc=0,
         out="frame-00000 t=0: ok\n1 passed, 0 failed\n")
case("path-coordinate-1e151", json.dumps(canvas16([{"type": "path", "path": "M 0 0 L 1e151 1", "stroke": "#ffffff"}])))


# ------------------------------------------------------------------ limits
# (the big ones are NAME.gen recipes: files, depth, counts, long strings)
def canvas(w, h):
    return json.dumps(scene()).replace('"width": 8, "height": 8', '"width": %s, "height": %s' % (w, h))


case("lim-canvas-16384x4096", canvas(16384, 4096), rc=0)
case("lim-canvas-4096x16384", canvas(4096, 16384), rc=0)
case("lim-canvas-8192x8192", canvas(8192, 8192), rc=0)
case("lim-canvas-16384x1", canvas(16384, 1), rc=0)
case("lim-canvas-16384x4097", canvas(16384, 4097))
case("lim-canvas-8193x8192", canvas(8193, 8192))
case("lim-canvas-16385x1", canvas(16385, 1))
case("lim-canvas-1x16385", canvas(1, 16385))
case("lim-canvas-2e32-plus1", canvas(4294967297, 1))
case("lim-canvas-2e63", canvas("9223372036854775808", "9223372036854775808"))
case("lim-canvas-1e300", canvas("1e300", 1))
case("lim-canvas-fraction", canvas(16384.5, 1))


def frames(fps, duration):
    return json.dumps(scene()).replace('"timeline": {"duration": 1}', '"timeline": {"fps": %s, "duration": %s}' % (fps, duration))


case("lim-frames-10m", frames(1000, 10000), rc=0)
case("lim-frames-10m-1fps", frames(1, 10000000), rc=0)
case("lim-frames-10m-plus1", frames(1000, 10000.001))
case("lim-frames-10m-1fps-plus1", frames(1, 10000001))
case("lim-frames-10m-plus-half", frames(1, 10000000.5))
case("lim-frames-10m-plus-ulp", frames(1000, "10000.000000000002"))
case("lim-frames-1e300", frames(1000, "1e300"))
case("lim-frames-fps-tiny", frames("1e-300", "1e300"), cmd="info @ --json", rc=0)
case("lim-fps-1000", frames(1000, 1), rc=0)
case("lim-fps-above-1000", frames("1000.0000000000001", 1))
case("lim-seek-10m", frames(1000, 10000), cmd="seek @ --frame 10000000 -o OUT/f.png", rc=0)
case("lim-seek-10m-plus1", frames(1000, 10000), cmd="seek @ --frame 10000001 -o OUT/f.png")

# ------------------------------------------------------------------ command line
OK = json.dumps(scene(values=value("spring", to=4), layers=[{"type": "circle", "x": "x", "y": 4, "r": 2, "fill": "#ffffff"}]))
case("cli-sample-times-1e300", OK, cmd="sample @ --times 0,1e300", rc=0, out="t,x\n0,0\n1.0000000000000001e+300,4\n")
case("cli-sample-times-nan", OK, cmd="sample @ --times nan")
case("cli-sample-times-inf", OK, cmd="sample @ --times 0,inf")
case("cli-sample-times-1e400", OK, cmd="sample @ --times 1e400")
case("cli-sample-times-empty", OK, cmd="sample @ --times 0,,1")
case("cli-sample-fps-1e308", OK, cmd="sample @ --fps 1e308")
case("cli-sample-to-1e300", OK, cmd="sample @ --from 0 --to 1e300")
case("cli-sample-fps-tiny", OK, cmd="sample @ --fps 1e-300 --to 1e300", rc=0, out=csv("x", (0, 0), (1 / 1e-300, 4)))  # frame 1 is at 1 / fps
case("cli-seek-time-1e300", OK, cmd="seek @ --time 1e300 -o OUT/f.png", rc=0)
case("cli-seek-time-1e309", OK, cmd="seek @ --time 1e309 -o OUT/f.png")
case("cli-seek-frame-huge", OK, cmd="seek @ --frame 99999999999999999999 -o OUT/f.png")
case("cli-render-frames-huge", OK, cmd="render @ -o OUT --frames 0:1000000000")
case("cli-render-jobs-huge", OK, cmd="render @ -o OUT --jobs 1000000")
case("cli-render-shard-zero", OK, cmd="render @ -o OUT --shard 0/0")
case("cli-render-shard-huge", OK, cmd="render @ -o OUT --frames 0:3 --shard 1/99999999999", rc=0)
case("cli-plot-huge", OK, cmd="plot @ --values x -o OUT/p.png --width 16384 --height 16384")
case("cli-plot-range-1e308", OK, cmd="plot @ --values x -o OUT/p.png --from 0 --to 1e308 --width 64 --height 32", rc=0)
case("cli-diff-threshold-nan", None, cmd="diff REF REF --threshold nan")
case("cli-diff-ratio-inf", None, cmd="diff REF REF --max-diff-ratio inf")
case("cli-diff-pixels-huge", None, cmd="diff REF REF --max-diff-pixels 99999999999999999999999")
case("cli-check-threshold-1e309", None, cmd="check SCENE --golden GOLDEN --threshold 1e309")


def main():
    for name, body, cmd, rc, out in CASES:
        base = os.path.join(HERE, name)
        # NAME.out may also be written by hand (judged output): kept
        for ext in (".json", ".cmd", ".rc") + ((".out",) if out is not None else ()):
            if os.path.exists(base + ext):
                os.remove(base + ext)
        if body is not None:
            if isinstance(body, dict):
                body = json.dumps(body)
            if isinstance(body, str):
                body = body.encode("utf-8")
            if not body.endswith(b"\n"):
                body += b"\n"
            with open(base + ".json", "wb") as f:
                f.write(body)
        if cmd is not None:
            with open(base + ".cmd", "w") as f:
                f.write(cmd + "\n")
        if rc is not None:
            with open(base + ".rc", "w") as f:
                f.write("%d\n" % rc)
        if out is not None:
            with open(base + ".out", "w") as f:
                f.write(out)
    print(len(CASES), "cases")


if __name__ == "__main__":
    main()
