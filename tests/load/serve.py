#!/usr/bin/env python3
"""Load and hostile requests against `ludic serve` on 127.0.0.1: a script, not a test (its
figures depend on the machine and its load). Python's standard library only.

    python3 tests/load/serve.py [--bin target/release/ludic | --url http://127.0.0.1:PORT]
        [--random 200] [--mcts 8] [--think-ms 200] [--mcts-time 0.25] [--procs 4]
        [--hostile-only]

It starts `ludic serve --port 0` itself (or uses --url), then at once:
- RANDOM clients, each a person at a table of a built-in game (the five in turn) against the
  `random` agent, playing random legal decisions through the API to the end, with a pause of
  0 to 2 x THINK-MS between moves (people are slower still); every move request timed;
- MCTS clients, each a person against `mcts:time=MCTS-TIME s`, whose move answers include the
  computer's search (timed apart); each resigns after 30 moves;
- a sampler of the server's memory (VmRSS) and CPU time from /proc.
The clients run in PROCS processes, threads in each (a single Python process would time its
own lock, not the server). Search settings: `mcts:time=MCTS-TIME s`, 1 thread.
Then each game's record is fetched and replayed by `ludic replay` (it must replay to the
result the server gave), and 50 hostile requests are sent (each must be a 4xx with an error
and a hint), and the server must still serve. Exit 1 if anything was lost or wrong.
"""

import argparse
import http.client
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

GAMES = ["pallankuzhi", "ceelkoqyuqkoqiji", "puluc", "kuilichi-chanakua", "tuknanavuhpi"]


def parse_timing(h):
    """The server's own time of an answer (`Server-Timing: app;dur=MS`), or None."""
    try:
        return float(h.split("dur=")[1].split(",")[0]) if h else None
    except (IndexError, ValueError):
        return None


class Client:
    """One keep-alive connection; each request timed."""

    def __init__(self, host, port):
        self.host, self.port = host, port
        self.conn = http.client.HTTPConnection(host, port, timeout=60)

    def request(self, method, path, body=None, headers=None, raw=False):
        h = {"Content-Type": "application/json"}
        h.update(headers or {})
        data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
        for attempt in range(2):
            try:
                t0 = time.perf_counter()
                self.conn.request(method, path, body=data, headers=h)
                r = self.conn.getresponse()
                payload = r.read()
                dt = time.perf_counter() - t0
                self.server_ms = parse_timing(r.getheader("server-timing"))
                break
            except (ConnectionError, http.client.HTTPException, socket.timeout):
                # a keep-alive connection closed by the server (idle): once more, anew
                self.conn.close()
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
                if attempt:
                    raise
        if raw:
            return r.status, payload, dt
        try:
            return r.status, json.loads(payload), dt
        except ValueError:
            return r.status, payload.decode(errors="replace"), dt


def play_game(c, i, seats, think_ms, resign_after, out, lock):
    rng = random.Random(i)
    game = GAMES[i % len(GAMES)]
    st, made, _ = c.request("POST", "/api/tables", {"game": game, "seats": seats, "seed": 1000 + i})
    if st != 200:
        with lock:
            out["errors"].append(f"create {game}: {st} {made}")
        return
    tid, tok = made["id"], made["seats"][0]["token"]
    st, s, _ = c.request("GET", f"/api/tables/{tid}?seat={tok}")
    times, server_times, moves = [], [], 0
    while st == 200 and not s["end"]:
        if not s["your_turn"]:
            time.sleep(0.05)
            st, s, _ = c.request("GET", f"/api/tables/{tid}?seat={tok}")
            continue
        if resign_after and moves >= resign_after:
            st, s, _ = c.request("POST", f"/api/tables/{tid}/resign", {"seat": tok})
            break
        if think_ms:
            time.sleep(rng.uniform(0, 2 * think_ms) / 1000)
        d = rng.choice(s["legal"])
        st, s, dt = c.request("POST", f"/api/tables/{tid}/move", {"seat": tok, "action": d["id"]})
        times.append(dt)
        server_times.append(c.server_ms)
        moves += 1
    with lock:
        if st != 200:
            out["errors"].append(f"{game} table {tid}: {st} {s}")
            return
        out["times"].extend(times)
        out["server"].extend(t for t in server_times if t is not None)
        out["games"].append((tid, game, s["end"]))


def clients(host, port, jobs, think_ms, q):
    """A process of clients: a thread per game; its figures put on `q`."""
    outs = {"random": {"times": [], "server": [], "games": [], "errors": []},
            "mcts": {"times": [], "server": [], "games": [], "errors": []}}
    lock = threading.Lock()
    threads = [threading.Thread(target=play_game,
                                args=(Client(host, port), i, seats, think_ms, resign, outs[kind], lock))
               for kind, i, seats, resign in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    q.put(outs)


def sampler(pid, stop, samples):
    page = os.sysconf("SC_PAGE_SIZE")
    ticks = os.sysconf("SC_CLK_TCK")
    while not stop.is_set():
        try:
            with open(f"/proc/{pid}/statm") as f:
                rss = int(f.read().split()[1]) * page
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
                cpu = (int(fields[11]) + int(fields[12])) / ticks
            samples.append((time.time(), rss, cpu))
        except OSError:
            pass
        stop.wait(0.25)


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] if xs else float("nan")


def hostile(host, port):
    """50 requests a hostile or careless client sends: each must be a 4xx with error + hint."""
    c = Client(host, port)
    st, made, _ = c.request("POST", "/api/tables", {"game": "pallankuzhi", "seed": 1})
    tid, tok = made["id"], made["seats"][0]["token"]
    deep = "game \"d\" { }\ndef x = " + "(" * 5000 + "1" + ")" * 5000 + "\n"
    forever = ("game \"f\" from \"pallankuzhi\" { }\n"
               "def spin(n) = spin(n + 1)\nrequire spin(0) > 0 \"never\"\n")
    big = b"{\"text\": \"" + b"x" * (3 << 20) + b"\"}"
    cases = [
        ("body over 2 MiB", "POST", "/api/tables", big, None),
        ("check: body over 2 MiB", "POST", "/api/check", big, None),
        ("game text over 1 MiB", "POST", "/api/check", {"text": "#" * (1 << 20) + "x" * 10}, None),
        ("deep nesting in a posted text", "POST", "/api/tables", {"text": deep}, None),
        ("deep nesting in a checked text", "POST", "/api/rules", {"text": deep}, None),
        ("a text that recurses for ever", "POST", "/api/tables", {"text": forever}, None),
        ("not JSON", "POST", "/api/tables", b"{not json", None),
        ("JSON, not an object", "POST", "/api/tables", b"[1,2,3]", None),
        ("no game", "POST", "/api/tables", {}, None),
        ("unknown game", "POST", "/api/tables", {"game": "chess"}, None),
        ("a path as a game", "POST", "/api/tables", {"game": "../../etc/passwd"}, None),
        ("a base from the file system", "POST", "/api/tables",
         {"text": "game \"x\" from \"/etc/passwd\" { }\n"}, None),
        ("unknown option", "POST", "/api/tables", {"game": "pallankuzhi", "options": {"nope": 1}}, None),
        ("option out of range", "POST", "/api/tables", {"game": "pallankuzhi", "options": {"seeds": 10 ** 9}}, None),
        ("unknown variant", "POST", "/api/tables", {"game": "pallankuzhi", "variant": "nope"}, None),
        ("too many seats", "POST", "/api/tables", {"game": "pallankuzhi", "seats": ["human"] * 5}, None),
        ("a program as a seat", "POST", "/api/tables", {"game": "pallankuzhi", "seats": ["human", "cmd:sh -c id"]}, None),
        ("an unknown agent", "POST", "/api/tables", {"game": "pallankuzhi", "seats": ["human", "oracle"]}, None),
        ("a seed that is not a number", "POST", "/api/tables", {"game": "pallankuzhi", "seed": "x"}, None),
        ("a negative seed", "POST", "/api/tables", {"game": "pallankuzhi", "seed": -1}, None),
        ("unknown table", "GET", "/api/tables/ffffffffffffffff", None, None),
        ("unknown table, move", "POST", "/api/tables/nope/move", {"seat": tok, "action": 0}, None),
        ("a very long table id", "GET", "/api/tables/" + "a" * 5000, None, None),
        ("wrong seat token", "POST", f"/api/tables/{tid}/move", {"seat": "0" * 32, "action": 0}, None),
        ("no seat", "POST", f"/api/tables/{tid}/move", {"action": 0}, None),
        ("an illegal action id", "POST", f"/api/tables/{tid}/move", {"seat": tok, "action": 99999}, None),
        ("a negative action", "POST", f"/api/tables/{tid}/move", {"seat": tok, "action": -1}, None),
        ("an action as a string", "POST", f"/api/tables/{tid}/move", {"seat": tok, "action": "17"}, None),
        ("a malformed notation", "POST", f"/api/tables/{tid}/move", {"seat": tok, "notation": "sow sow sow"}, None),
        ("notation and action both", "POST", f"/api/tables/{tid}/move", {"seat": tok, "notation": "sow s1", "action": 1}, None),
        ("a notation of 100 kB", "POST", f"/api/tables/{tid}/move", {"seat": tok, "notation": "s" * 100000}, None),
        ("undo with nothing to undo", "POST", f"/api/tables/{tid}/undo", {"seat": tok}, None),
        ("a move body not JSON", "POST", f"/api/tables/{tid}/move", b"seat=1", None),
        ("replay: not a record", "POST", "/api/replay", {"record": {"hello": 1}}, None),
        ("replay: a record as a number", "POST", "/api/replay", {"record": 5}, None),
        ("replay: a wrong format", "POST", "/api/replay", {"record": {"format": 99, "game": "puluc", "title": "", "source_hash": "", "options": {}, "seed": 1, "steps": [], "result": None}}, None),
        ("replay: an illegal step", "POST", "/api/replay", {"record": {"format": 1, "game": "pallankuzhi", "title": "", "source_hash": "", "options": {}, "seed": 1, "steps": [{"type": "decision", "player": "South", "notation": "sow s99"}], "result": None}}, None),
        ("replay: a game from a path", "POST", "/api/replay", {"record": {"format": 1, "game": "/etc/passwd", "title": "", "source_hash": "", "options": {}, "seed": 1, "steps": [], "result": None}}, None),
        ("replay: a step past the end", "POST", "/api/replay", {"record": {"format": 1, "game": "pallankuzhi", "title": "", "source_hash": "", "options": {}, "seed": 1, "steps": [], "result": None}, "step": 5}, None),
        ("rules: a text with errors", "POST", "/api/rules", {"text": "game {"}, None),
        ("check: not UTF-8", "POST", "/api/check", b"\xff\xfe\xfd", {"Content-Type": "text/plain"}),
        ("a built-in text by a path", "GET", "/api/games/..%2F..%2Fetc%2Fpasswd/text", None, None),
        ("an asset by a path", "GET", "/web/..%2F..%2FCargo.toml", None, None),
        ("an asset by dots", "GET", "/web/../../Cargo.toml", None, None),
        ("an unknown page", "GET", "/admin", None, None),
        ("a wrong method", "DELETE", "/api/tables", None, None),
        ("GET on a POST route", "GET", "/api/check", None, None),
        ("events of an unknown table", "GET", "/api/tables/nope/events", None, None),
        ("an oversized header (1 MiB)", "GET", "/api/games", None, {"X-Big": "y" * (1 << 20)}),
        ("a record of an unknown table", "GET", "/api/tables/nope/record", None, None),
    ]
    rows, bad = [], 0
    for name, method, path, body, headers in cases:
        cl = Client(host, port)
        try:
            st, payload, dt = cl.request(method, path, body, headers, raw=True)
        except Exception as e:  # noqa: BLE001 (a closed connection is an answer too)
            st, payload, dt = None, str(e).encode(), 0.0
        try:
            v = json.loads(payload)
            has = isinstance(v, dict) and bool(v.get("error")) and "hint" in v
            text = v.get("error", "") if isinstance(v, dict) else ""
        except ValueError:
            has, text = False, payload[:80].decode(errors="replace")
        ok = st is not None and 400 <= st < 500 and (has or st in (405, 431))
        bad += not ok
        rows.append((name, st, ok, text.split("\n")[0][:90], dt))
    return rows, bad


def slow_client(host, port):
    """A connection that sends half a request and then nothing: closed by the server."""
    s = socket.create_connection((host, port))
    s.sendall(b"GET /api/games HTTP/1.1\r\n")
    s.settimeout(200)
    t0 = time.time()
    try:
        data = s.recv(100)
    except OSError:
        data = b""
    return time.time() - t0, data


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="target/release/ludic")
    ap.add_argument("--url")
    ap.add_argument("--random", type=int, default=200)
    ap.add_argument("--mcts", type=int, default=8)
    ap.add_argument("--think-ms", type=float, default=200)
    ap.add_argument("--mcts-time", type=float, default=0.25)
    ap.add_argument("--procs", type=int, default=4)
    ap.add_argument("--hostile-only", action="store_true")
    ap.add_argument("--nice", action="store_true",
                    help="lower this script's priority (measured: it delays the clients' own "
                         "reading of their answers, and the client-side times grow)")
    a = ap.parse_args()
    if a.nice:
        os.nice(10)

    proc = None
    if a.url:
        u = urllib.parse.urlparse(a.url)
        host, port, pid = u.hostname, u.port, None
    else:
        proc = subprocess.Popen([a.bin, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
        line = proc.stdout.readline()
        u = urllib.parse.urlparse(next(w for w in line.split() if w.startswith("http://")))
        host, port, pid = u.hostname, u.port, proc.pid
    print(f"server {host}:{port} (pid {pid}); load before: {os.getloadavg()}")
    failed = False
    try:
        if not a.hostile_only:
            failed |= load(a, host, port, pid)
        rows, bad = hostile(host, port)
        print(f"\n{len(rows)} hostile requests:")
        print("| request | status | 4xx with error and hint | error |")
        print("|---|---|---|---|")
        for name, st, ok, text, _ in rows:
            print(f"| {name} | {st} | {'yes' if ok else 'NO'} | {text} |")
        took, data = slow_client(host, port)
        print(f"\nhalf a request then silence: closed after {took:.1f} s with {data[:40]!r}")
        st, games, _ = Client(host, port).request("GET", "/api/games")
        print(f"after them, GET /api/games: {st} ({len(games) if st == 200 else games} games)")
        failed |= bad > 0 or st != 200
    finally:
        if proc:
            proc.terminate()
            proc.wait(10)
    print(f"load after: {os.getloadavg()}")
    sys.exit(1 if failed else 0)


def load(a, host, port, pid):
    out = {"times": [], "server": [], "games": [], "errors": []}
    mout = {"times": [], "server": [], "games": [], "errors": []}
    stop = threading.Event()
    samples = []
    if pid:
        threading.Thread(target=sampler, args=(pid, stop, samples), daemon=True).start()
    # the clients in PROCS processes (threads in each): one Python process's lock would
    # otherwise queue 200 clients behind each other and time the client, not the server
    jobs = [("random", i, None, 0) for i in range(a.random)]
    jobs += [("mcts", 10000 + i, ["human", f"mcts:time={a.mcts_time}s"], 30) for i in range(a.mcts)]
    q = multiprocessing.get_context("fork").Queue()
    procs = [multiprocessing.get_context("fork").Process(
        target=clients, args=(host, port, jobs[k::a.procs], a.think_ms, q)) for k in range(a.procs)]
    t0 = time.time()
    for p in procs:
        p.start()
    for _ in procs:
        got = q.get()
        for kind, o in got.items():
            dest = out if kind == "random" else mout
            for key in dest:
                dest[key].extend(o[key])
    for p in procs:
        p.join()
    wall = time.time() - t0
    stop.set()
    # every record replays to the result the server gave
    replayed, wrong = 0, []
    c = Client(host, port)
    with tempfile.TemporaryDirectory() as d:
        for tid, game, end in out["games"] + mout["games"]:
            st, rec, _ = c.request("GET", f"/api/tables/{tid}/record")
            path = os.path.join(d, f"{tid}.json")
            with open(path, "w") as f:
                json.dump(rec, f)
            r = subprocess.run([a.bin, "replay", path, "--format", "json"], capture_output=True, text=True)
            got = json.loads(r.stdout) if r.returncode == 0 else None
            if got is None or (end["reason"] not in ("resign",) and got.get("result", {}).get("winner") != end.get("winner")):
                wrong.append((tid, game, r.returncode, r.stderr[:200]))
            replayed += 1
    ms = [t * 1000 for t in out["times"]]
    mms = [t * 1000 for t in mout["times"]]
    print(f"\n{a.random} random tables and {a.mcts} MCTS tables at once, {wall:.1f} s wall")
    print(f"games ended: random {len(out['games'])}/{a.random}, MCTS {len(mout['games'])}/{a.mcts}; "
          f"errors: {len(out['errors']) + len(mout['errors'])}")
    for e in (out["errors"] + mout["errors"])[:10]:
        print("  error:", e)
    print(f"a person's move at a random table ({len(ms)} moves): p50 {pct(ms, 50):.1f} ms, "
          f"p90 {pct(ms, 90):.1f} ms, p99 {pct(ms, 99):.1f} ms, max {max(ms):.1f} ms (as the client saw it)")
    sv = out["server"]
    print(f"  the same moves as the server timed them (request read to answer made): p50 {pct(sv, 50):.1f} ms, "
          f"p90 {pct(sv, 90):.1f} ms, p99 {pct(sv, 99):.1f} ms, max {max(sv):.1f} ms")
    if mms:
        print(f"a person's move at an MCTS table, the search's {a.mcts_time} s included ({len(mms)} moves): "
              f"p50 {pct(mms, 50):.0f} ms, p99 {pct(mms, 99):.0f} ms, max {max(mms):.0f} ms")
    print(f"records replayed by `ludic replay`: {replayed}, not to the same result: {len(wrong)}")
    for w in wrong[:5]:
        print("  ", w)
    if samples:
        peak = max(s[1] for s in samples)
        print(f"server memory: start {samples[0][1] / 2**20:.0f} MiB, peak {peak / 2**20:.0f} MiB, "
              f"end {samples[-1][1] / 2**20:.0f} MiB; CPU {samples[-1][2] - samples[0][2]:.1f} s "
              f"in {samples[-1][0] - samples[0][0]:.1f} s")
    return bool(out["errors"] or mout["errors"] or wrong or len(out["games"]) != a.random)


if __name__ == "__main__":
    main()
