"""The cost of a sweep on Ray (a benchmark, not a test): run it with the test environment's
Python after `cargo test --release --test python` has installed the package:

    target/pyvenv/venv/bin/python tests/python/bench_sweep.py [--games 20000] [--repeat 3]

1. Overhead per task: 40 tasks of one game each (Pallankuzhi, seeds=2..40/2 x muthu=on,off,
   games=1) through Ray on a local cluster of 2 CPUs, one after another (each waited for),
   against the same tasks in this process: the difference over 40 is Ray's round trip per
   task (sending it, a worker running it, the result back); then the whole 40-point sweep
   by `ludic.sweep` on Ray (2 at once) and in process.
2. Throughput: a 6-point sweep (seeds=4..8/2 x muthu=on,off) of `--games` games a point, on
   Ray (2 CPUs; each point in 2 shards, a task a CPU; or each point a task of 2 CPUs and 2
   threads), by `ludic.sweep` in this process with jobs=2, and by `ludic sweep -j 2` (the binary: `LUDIC_BIN` or target/release/ludic);
   games per second of each. The numbers of the three are checked equal (but timing fields).

Each figure is the median of `--repeat` runs; the machine's load (`uptime`) is printed before
and after, as it moves these figures (2 cores shared with other builds).
"""

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import ludic
from ludic import _ludic
from ludic._sweep import _run_task, grid_settings

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("LUDIC_BIN", str(ROOT / "target" / "release" / "ludic"))
TIMING = ("seconds", "moves_per_second", "playouts_per_second", "threads")


def numbers(sweep):
    """A sweep's points without their timing fields."""
    out = []
    for p in sweep["points"]:
        p = dict(p)
        if "study" in p:
            p["study"] = {k: v for k, v in p["study"].items() if k not in TIMING}
        out.append(p)
    return out


def timed(f, repeat):
    """The median seconds of `repeat` calls of f, and f's last result."""
    times, r = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        r = f()
        times.append(time.perf_counter() - t)
    return statistics.median(times), r


def uptime():
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20000, help="games a point of the big sweep")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each figure (median)")
    a = ap.parse_args()
    import ray

    print("load before:", uptime())
    t = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="warning")
    print(f"ray.init(num_cpus=2): {time.perf_counter() - t:.2f} s")

    # 1. overhead per task: one at a time (the round trip), and 40 at once on 2 CPUs
    tiny = {"seeds": "2..40/2", "muthu": ["on", "off"]}
    spec, n, tasks = _ludic.sweep_plan("pallankuzhi", grid_settings(tiny), games=1)
    task = ray.remote(num_cpus=1)(_run_task)
    ray.get([task.remote(spec, k, i, m, 1) for (k, i, m) in tasks])  # the workers started

    def one_by_one():
        return [ray.get(task.remote(spec, k, i, m, 1)) for (k, i, m) in tasks]

    t_ray, _ = timed(one_by_one, a.repeat)
    t_here, _ = timed(lambda: [_ludic.sweep_task(spec, k, i, m, 1) for (k, i, m) in tasks],
                      a.repeat)
    print(
        f"{n} tasks of 1 game one after another: Ray {1000 * t_ray / n:.2f} ms a task, in "
        f"process {1000 * t_here / n:.2f} ms a task: Ray's round trip "
        f"{1000 * (t_ray - t_here) / n:.2f} ms a task"
    )
    sweep = lambda **kw: ludic.sweep("pallankuzhi", tiny, games=1, jobs=1, **kw)
    t_ray, on_ray = timed(sweep, a.repeat)
    t_here, here = timed(lambda: sweep(cluster="local"), a.repeat)
    assert numbers(on_ray) == numbers(here)
    print(
        f"ludic.sweep of {n} points of 1 game: on Ray (2 CPUs) {t_ray:.3f} s "
        f"({1000 * t_ray / n:.2f} ms a task), in process {t_here:.3f} s "
        f"({1000 * t_here / n:.2f} ms a task)"
    )

    # 2. throughput on 2 CPUs
    grid = {"seeds": "4..8/2", "muthu": ["on", "off"]}
    games = 6 * a.games
    with tempfile.TemporaryDirectory() as d:
        out = pathlib.Path(d) / "cli.json"

        def cli():
            out.unlink(missing_ok=True)
            subprocess.run(
                [BIN, "sweep", "pallankuzhi", "-o", "seeds=4..8/2", "-o", "muthu=on,off",
                 "-n", str(a.games), "-j", "2", "--output", str(out)],
                check=True, capture_output=True,
            )
            return json.loads(out.read_text())

        ways = [
            ("Ray, 12 tasks of 1 CPU",
             lambda: ludic.sweep("pallankuzhi", grid, games=a.games, shards=2, jobs=1)),
            ("Ray, 6 tasks of 2 CPUs",
             lambda: ludic.sweep("pallankuzhi", grid, games=a.games, jobs=2)),
            ("ludic.sweep jobs=2",
             lambda: ludic.sweep("pallankuzhi", grid, games=a.games, jobs=2, cluster="local")),
            ("ludic sweep -j 2", cli),
        ]
        # the ways taken in turn within each round, so that a change of the machine's load
        # falls on all of them
        times = {w: [] for w, _ in ways}
        results = {}
        for _ in range(a.repeat):
            for w, f in ways:
                t = time.perf_counter()
                results[w] = f()
                times[w].append(time.perf_counter() - t)
    first = numbers(results[ways[0][0]])
    assert all(numbers(r) == first for r in results.values())
    t_cli = statistics.median(times["ludic sweep -j 2"])
    for w, _ in ways:
        t = statistics.median(times[w])
        runs = " ".join(f"{x:.2f}" for x in times[w])
        print(f"{w:24} {t:7.2f} s  {games / t:9.0f} games/s  ({t / t_cli:.2f} x the "
              f"binary's time; runs {runs})")
    ray.shutdown()
    print("load after:", uptime())


if __name__ == "__main__":
    sys.exit(main())
