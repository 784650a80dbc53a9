#!/usr/bin/env python3
"""Opens the page of `unprompt-scan report` or `serve` in headless Chromium and checks it as a person would see it.

Usage: browser-check.py --chromium PATH --url URL --expect DIR [--origin ORIGIN] [--canary TEXT]
                        [--screenshot OUT.png] [--width W] [--height H]
       browser-check.py --chromium PATH --url URL --screenshot OUT.png --only-screenshot

Chromium is driven through the DevTools protocol over a pipe (--remote-debugging-pipe), with the standard library
only. For the page, in light and in dark (prefers-color-scheme), scripts on and scripts off, it checks:
- every request the page made: the page itself, and for a served page ORIGIN/snapshot.json; nothing else (every
  host name also resolves to nothing, so a request that slipped through could not load anyway);
- every shown number (`<data value data-key>` and countdowns `<time data-until>`) against the CLI's JSON in DIR
  (snapshot.json, limits.json, calendar.json, daily.json, monthly.json, made by the same binary at the same
  moment): the value equals the CLI's, and the text is that value as the page's rules format it (written here
  again, independently); and every number the CLI has for the page is shown;
- text contrast: every element's text color against the background it sits on, at least 4.5:1 (3:1 for large
  text), as WCAG 2 AA asks;
- no CANARY text anywhere in the document;
- the screenshot is not blank (its pixels vary: a small PNG decoder with zlib).
Prints what it checked; exit status 0 when everything holds, 1 otherwise (each failure printed), 2 on a setup
problem.
"""
import argparse
import base64
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

failures = []


def fail(message):
    failures.append(message)


class Browser:
    """Chromium with the DevTools protocol on fds 3 (commands) and 4 (replies and events)."""

    def __init__(self, path, width, height):
        self.profile = tempfile.mkdtemp(prefix="unprompt-chromium-")
        command_read, self.command_write = os.pipe()
        self.reply_read, reply_write = os.pipe()

        def plumbing():
            os.dup2(command_read, 3)
            os.dup2(reply_write, 4)

        arguments = [
            path, "--headless", "--remote-debugging-pipe", "--user-data-dir=" + self.profile, "--no-first-run",
            "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-default-apps", "--no-default-browser-check", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
            "--window-size=%d,%d" % (width, height), "about:blank",
        ]
        if os.geteuid() == 0:
            arguments.insert(1, "--no-sandbox")
        self.process = subprocess.Popen(arguments, pass_fds=(3, 4), preexec_fn=plumbing, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        os.close(command_read)
        os.close(reply_write)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        # Every URL the page asked for since it was opened, whichever wait read the event.
        self.asked = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Network", "Runtime"):
            self.call(domain + ".enable", {}, self.session)
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, self.session)

    def call(self, method, params, session=None, timeout=30):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self.command_write, json.dumps(message).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            reply = self.read(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})
            self.events.append(reply)

    def read(self, deadline):
        while b"\0" not in self.buffer:
            if time.time() > deadline:
                raise RuntimeError("Chromium did not answer in time")
            chunk = os.read(self.reply_read, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed its pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        event = json.loads(message)
        if event.get("method") == "Network.requestWillBeSent":
            self.asked.append(event["params"]["request"]["url"])
        return event

    def wait_for(self, method, timeout=30):
        deadline = time.time() + timeout
        while True:
            for i, event in enumerate(self.events):
                if event.get("method") == method:
                    del self.events[: i + 1]
                    return event
            self.events.append(self.read(deadline))

    def open(self, url):
        self.events = []
        self.asked = []
        self.call("Page.navigate", {"url": url}, self.session)
        self.wait_for("Page.loadEventFired")
        # The page's first script work (a countdown tick, the served page's first poll) settles.
        self.settle(1.0)

    def settle(self, seconds):
        deadline = time.time() + seconds
        self.call("Runtime.evaluate", {"expression": "1"}, self.session)
        while time.time() < deadline:
            self.call("Runtime.evaluate", {"expression": "1"}, self.session)
            time.sleep(0.1)

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True},
                           self.session)
        if "exceptionDetails" in result:
            raise RuntimeError("the page's script failed: %s" % result["exceptionDetails"])
        return result["result"].get("value")

    def requests(self):
        return list(self.asked)

    def screenshot(self, full=False):
        """The viewport, or with `full` the whole page."""
        size = self.evaluate("[document.documentElement.scrollWidth, %s]" % (
            "document.documentElement.scrollHeight" if full else "window.innerHeight"))
        shot = self.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                    "clip": {"x": 0, "y": 0, "width": size[0], "height": size[1],
                                                             "scale": 1}}, self.session)
        return base64.b64decode(shot["data"])

    def close(self):
        try:
            self.call("Browser.close", {}, timeout=5)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


# ---------------------------------------------------------------- the page's numbers

NUMBERS = """(() => Array.from(document.querySelectorAll('[data-key]')).map(e => ({
  key: e.getAttribute('data-key'), value: e.hasAttribute('data-until') ? e.getAttribute('data-until') : e.getAttribute('value'),
  text: e.textContent, until: e.hasAttribute('data-until'), band: e.closest('td') ? e.closest('td').getAttribute('data-band') : null})))()"""


def grouped(n):
    return "{:,}".format(int(n))


def compact(n):
    """The calendar cells' count: at most four characters and a unit, rounded down."""
    n = int(n)
    if n < 1000:
        return str(n)
    for size, suffix in ((10 ** 12, "T"), (10 ** 9, "B"), (10 ** 6, "M"), (1000, "k")):
        if n >= size:
            whole = n // size
            return "%d%s" % (whole, suffix) if whole >= 10 else "%d.%d%s" % (whole, n % size * 10 // size, suffix)


def duration(ms):
    s = max(0, ms) // 1000
    d, h, m = s // 86400, s % 86400 // 3600, s % 3600 // 60
    if d:
        return "%dd %dh" % (d, h) if h else "%dd" % d
    if h:
        return "%dh %dm" % (h, m) if m else "%dh" % h
    return "%dm" % m if m else "%ds" % s


def usd(cost):
    """The cost as the page writes it: `$12.34` from a dollar, `$0.0012` below, `unpriced` without a price."""
    if cost["usd"] is None:
        return "unpriced"
    value = cost["usd"]
    text = "$" + "{:,}".format(int(round(value * 100)) // 100) + ".%02d" % (int(round(value * 100)) % 100) \
        if abs(value) >= 1 else "$%.4f" % value
    if cost.get("approximateTokens"):
        text = "~" + text
    if cost.get("unpricedEvents", cost.get("unpricedTokens")):
        text += " + unpriced"
    return text


def tokens(counts):
    return sum(counts[k] for k in ("input", "output", "cacheRead", "cacheWrite5m", "cacheWrite1h"))


def expected_numbers(cli, today_string):
    """key -> (value, text or None, band or None), from the CLI's JSON."""
    s, limits, calendar, daily, monthly = cli["snapshot"], cli["limits"], cli["calendar"], cli["daily"], cli["monthly"]
    out = {}
    usage = s["usage"]
    out["today.uses"] = (s["uses"]["today"], str(s["uses"]["today"]))
    out["today.uses.personal"] = (s["uses"]["personal"], str(s["uses"]["personal"]))
    out["today.uses.work"] = (s["uses"]["work"], str(s["uses"]["work"]))
    out["today.tokens"] = (usage["estimate"], grouped(usage["estimate"]))
    out["today.cost"] = (usage["cost"]["usd"], None)
    out["today.water"] = (usage["water"]["central"], None)
    out["bottle.water"] = (usage["water"]["central"], None)
    days = {d["date"]: d for d in calendar["days"]}
    for date, day in days.items():
        out["day.%s.tokens" % date] = (day["tokens"], compact(day["tokens"]), day["band"])
    out["month.tokens"] = (sum(d["tokens"] for d in days.values()), grouped(sum(d["tokens"] for d in days.values())))
    out["month.uses"] = (sum(d["uses"] for d in days.values()), str(sum(d["uses"] for d in days.values())))
    entries = {e["date"]: e for e in daily["daily"]}
    if today_string in entries and entries[today_string]["bottleLevel"] is not None:
        out["bottle.level"] = (entries[today_string]["bottleLevel"], None)
    tools = sorted({t for e in entries.values() for t in e["byTool"]})
    for date, entry in entries.items():
        for tool in tools:
            n = tokens(entry["byTool"][tool]["totals"]) if tool in entry["byTool"] else 0
            out["recent.%s.%s" % (date, tool)] = (n, grouped(n))
        out["recent.%s.total" % date] = (tokens(entry["totals"]), grouped(tokens(entry["totals"])))
        out["recent.%s.cost" % date] = (entry["cost"]["usd"], usd(entry["cost"]))
    for entry in monthly["monthly"]:
        for model, counts in entry["byModel"].items():
            cost = entry["costByModel"][model]
            out["model.%s.tokens" % model] = (tokens(counts), grouped(tokens(counts)))
            out["model.%s.cost" % model] = (cost["usd"], usd(cost))
            out["model.%s.water" % model] = (entry["waterByModel"][model]["liters"]["central"], None)
    for limit in s["limits"]:
        key = "limit.%s.%s" % (limit["tool"], limit["window"])
        if limit["window"] != "limit_reached" and limit["usedPercent"] is not None:
            out[key + ".used"] = (limit["usedPercent"], "%.1f%%" % limit["usedPercent"])
        if limit["resetsAt"] is not None and not limit["stale"] and limit["resetsAt"] > s["generatedAt"]:
            out[key + ".resetsAt"] = (limit["resetsAt"], None)
    for window in s["fiveHourWindows"]:
        key = "window." + window["tool"]
        out[key + ".tokens"] = (window["tokens"], grouped(window["tokens"]))
        out[key + ".end"] = (window["end"], None)
        if window["cost"]["usd"] is not None:
            out[key + ".cost"] = (window["cost"]["usd"], None)
    # The limits view's reading of the same moment agrees with the snapshot's.
    assert len(limits["limits"]) == len(s["limits"])
    return out


def same_value(shown, expected):
    if expected is None:
        return shown == ""
    if shown == "":
        return False
    return math.isclose(float(shown), float(expected), rel_tol=1e-9, abs_tol=1e-12)


def check_numbers(found, expected, generated, label):
    shown = {}
    for item in found:
        if item["key"] in shown:
            fail("%s: %s shown twice" % (label, item["key"]))
        shown[item["key"]] = item
    for key, spec in expected.items():
        value, text = spec[0], spec[1]
        item = shown.get(key)
        if item is None:
            fail("%s: %s (%r) is not on the page" % (label, key, value))
            continue
        if not same_value(item["value"], value):
            fail("%s: %s is %r on the page, %r in the CLI" % (label, key, item["value"], value))
        if item["until"]:
            # A countdown from the page's own moment, ticked by its script for at most a few seconds.
            texts = {"in " + duration(int(value) - generated - d * 1000) for d in range(0, 6)}
            if item["text"] not in texts:
                fail("%s: countdown %s reads %r, expected one of %s" % (label, key, item["text"], sorted(texts)))
        elif text is not None and item["text"] != text:
            fail("%s: %s reads %r, expected %r" % (label, key, item["text"], text))
        if len(spec) > 2 and item["band"] != spec[2]:
            fail("%s: %s has band %r, the calendar says %r" % (label, key, item["band"], spec[2]))
    for key in shown:
        if key not in expected:
            fail("%s: the page shows %s = %r, which no CLI output has" % (label, key, shown[key]["value"]))
    return len(expected)


# ---------------------------------------------------------------- contrast

CONTRAST = """(() => {
  function rgba(text) { const m = text.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(x => x).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; }
  function background(element) {
    for (let e = element; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor); if (c && c[3] > 0) return c; }
    return rgba(getComputedStyle(document.documentElement).backgroundColor) || [255, 255, 255, 1];
  }
  const out = [];
  for (const e of document.querySelectorAll('body *')) {
    if (['SCRIPT', 'STYLE', 'TITLE', 'title'].includes(e.tagName)) continue;
    const own = Array.from(e.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const style = getComputedStyle(e);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    const svg = e instanceof SVGElement;
    out.push({text: e.textContent.trim().slice(0, 40), fg: rgba(svg ? style.fill : style.color),
              bg: background(svg ? e.closest('svg').parentElement : e), size: parseFloat(style.fontSize),
              bold: parseInt(style.fontWeight) >= 700});
  }
  return out;
})()"""


def luminance(c):
    def channel(v):
        v = v / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    return 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2])


def check_contrast(elements, label):
    worst = None
    for e in elements:
        fg, bg = e["fg"], e["bg"]
        if fg is None or bg is None:
            fail("%s: no color for %r" % (label, e["text"]))
            continue
        # A translucent text color over its background.
        fg = [fg[i] * fg[3] + bg[i] * (1 - fg[3]) for i in range(3)]
        a, b = sorted((luminance(fg), luminance(bg)), reverse=True)
        ratio = (a + 0.05) / (b + 0.05)
        large = e["size"] >= 24 or (e["bold"] and e["size"] >= 18.66)
        if ratio < (3 if large else 4.5):
            fail("%s: contrast %.2f for %r (%s on %s)" % (label, ratio, e["text"], e["fg"], e["bg"]))
        worst = ratio if worst is None else min(worst, ratio)
    return worst


# ---------------------------------------------------------------- the screenshot

def png_pixels(data):
    """(width, height, rows of RGB(A) bytes) of an 8-bit RGB or RGBA PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    position, chunks, idat = 8, {}, b""
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        position += 12 + length
        if kind == b"IDAT":
            idat += body
        else:
            chunks[kind] = body
    width, height, depth, color = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    if depth != 8 or color not in (2, 6):
        raise ValueError("an 8-bit RGB or RGBA PNG expected, got depth %d color type %d" % (depth, color))
    stride = 3 if color == 2 else 4
    raw = zlib.decompress(idat)
    rows, previous, i = [], bytearray(width * stride), 0
    for _ in range(height):
        kind, line = raw[i], bytearray(raw[i + 1:i + 1 + width * stride])
        i += 1 + width * stride
        for x in range(len(line)):
            left = line[x - stride] if x >= stride else 0
            up, corner = previous[x], previous[x - stride] if x >= stride else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, stride, rows


def check_screenshot(png, label):
    width, height, stride, rows = png_pixels(png)
    values, colors = [], set()
    for y in range(0, height, 4):
        row = rows[y]
        for x in range(0, width, 4):
            pixel = row[x * stride:x * stride + 3]
            values.append(sum(pixel) / 3)
            colors.add(bytes(pixel))
    mean = sum(values) / len(values)
    deviation = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
    if deviation < 8 or len(colors) < 16:
        fail("%s: the screenshot looks blank (%dx%d, brightness deviation %.1f, %d colors)"
             % (label, width, height, deviation, len(colors)))
    return "%dx%d, brightness deviation %.1f, %d colors" % (width, height, deviation, len(colors))


# ---------------------------------------------------------------- main

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--chromium", required=True)
    parser.add_argument("--url", required=True)
    parser.add_argument("--expect")
    parser.add_argument("--origin", help="the served page's origin: it may ask ORIGIN/snapshot.json")
    parser.add_argument("--canary")
    parser.add_argument("--screenshot")
    parser.add_argument("--only-screenshot", action="store_true")
    parser.add_argument("--width", type=int, default=1200)
    parser.add_argument("--height", type=int, default=900)
    args = parser.parse_args()
    try:
        browser = Browser(args.chromium, args.width, args.height)
    except Exception as error:
        print("browser-check: cannot start Chromium: %s" % error, file=sys.stderr)
        return 2
    try:
        browser.open(args.url)
        if args.only_screenshot:
            png = browser.screenshot(full=True)
            open(args.screenshot, "wb").write(png)
            print("screenshot: " + check_screenshot(png, "light"))
            return 1 if failures else 0
        cli = {name: json.load(open(os.path.join(args.expect, name + ".json")))
               for name in ("snapshot", "limits", "calendar", "daily", "monthly")}
        generated = cli["snapshot"]["generatedAt"]
        today = cli["calendar"]["days"][-1]["date"] if cli["calendar"]["days"] else None
        expected = expected_numbers(cli, today)
        allowed = {args.url.split("?")[0]}
        if args.origin:
            allowed |= {args.origin + "/", args.origin + "/snapshot.json"}
        report = {}
        for scheme in ("light", "dark"):
            browser.call("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]},
                         browser.session)
            for scripts in ("on", "off"):
                label = "%s, scripts %s" % (scheme, scripts)
                browser.call("Emulation.setScriptExecutionDisabled", {"value": scripts == "off"}, browser.session)
                browser.open(args.url)
                requests = browser.requests()
                for url in requests:
                    if url.split("?")[0] not in allowed:
                        fail("%s: the page asked for %s" % (label, url))
                polled = any(u.split("?")[0].endswith("/snapshot.json") for u in requests)
                if args.origin and scripts == "on" and not polled:
                    fail("%s: the served page did not ask for snapshot.json" % label)
                if polled and scripts == "off":
                    fail("%s: a request for snapshot.json with scripts off" % label)
                html = browser.evaluate("document.documentElement.outerHTML")
                if args.canary and args.canary in html:
                    fail("%s: the canary is in the page" % label)
                checked = check_numbers(browser.evaluate(NUMBERS), expected, generated, label)
                worst = check_contrast(browser.evaluate(CONTRAST), label)
                report[label] = "%d numbers, lowest text contrast %.2f:1, requests %s" % (
                    checked, worst or 0, sorted({u.split("?")[0] for u in browser.requests()}))
            png = browser.screenshot()
            report[scheme + " screenshot"] = check_screenshot(png, scheme)
            if args.screenshot:
                open(args.screenshot.replace(".png", "-" + scheme + ".png"), "wb").write(png)
        for label, line in report.items():
            print("%s: %s" % (label, line))
    except Exception as error:
        print("browser-check: %s" % error, file=sys.stderr)
        return 2
    finally:
        browser.close()
    for message in failures[:40]:
        print("FAIL " + message)
    if len(failures) > 40:
        print("... and %d more failures" % (len(failures) - 40))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
