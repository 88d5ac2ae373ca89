#!/usr/bin/env python3
"""Measures the cost of ludic's Python API against pyspiel's own, for the calls of a random
playout: `clone`, `legal_actions` (or `chance_outcomes`), `apply_action`, `is_terminal`.

    python tests/python/bench_calls.py [--seconds 3]

Pairs of games of similar kind and length: ludic's sowing game without chance against
OpenSpiel's C++ `mancala` (Kalah), and ludic's race game with dice against OpenSpiel's C++
`backgammon`. For each: playouts a second, the mean length of a playout, and the mean cost of
one call in microseconds (the playout's time over its calls); then the cost of the cheapest
call, the binding's own overhead. Not a test: it prints a table.
"""

import argparse
import random
import time

import pyspiel

import ludic

PAIRS = [("pallankuzhi", "mancala"), ("puluc", "backgammon")]


def playout(root, rng):
    """One random playout from a clone of `root`; returns (steps, calls)."""
    s = root.clone()
    steps = calls = 1
    while True:
        calls += 1
        if s.is_terminal():
            return steps, calls
        calls += 2  # is_chance_node and the list
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            x, acc = rng.random(), 0.0
            a = outcomes[-1][0]
            for o, p in outcomes:
                acc += p
                if x < acc:
                    a = o
                    break
        else:
            legal = s.legal_actions()
            a = legal[rng.randrange(len(legal))]
        s.apply_action(a)
        calls += 1
        steps += 1


def measure(root, seconds):
    rng = random.Random(1)
    n = steps = calls = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        st, c = playout(root, rng)
        n, steps, calls = n + 1, steps + st, calls + c
    dt = time.perf_counter() - t0
    return n / dt, steps / n, dt / calls * 1e6


def bare_call(state, n=200000):
    """The cost of the cheapest call (`is_terminal`) in microseconds: the binding's own
    overhead."""
    f = state.is_terminal
    t0 = time.perf_counter()
    for _ in range(n):
        f()
    return (time.perf_counter() - t0) / n * 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    print(f"{'game':<28}{'playouts/s':>12}{'steps':>8}{'us/call':>10}")
    for ours, theirs in PAIRS:
        rows = []
        for label, root in [
            (f"ludic {ours}", ludic.load_game(ours).new_initial_state()),
            (f"pyspiel {theirs} (C++)", pyspiel.load_game(theirs).new_initial_state()),
        ]:
            rate, length, per_call = measure(root, args.seconds)
            rows.append(per_call)
            print(f"{label:<28}{rate:>12.1f}{length:>8.1f}{per_call:>10.2f}")
        print(f"  ludic's cost a call / pyspiel's: {rows[0] / rows[1]:.2f}x")
    ours = bare_call(ludic.load_game(PAIRS[0][0]).new_initial_state())
    theirs = bare_call(pyspiel.load_game(PAIRS[0][1]).new_initial_state())
    print(f"one call of is_terminal(): ludic {ours:.3f} us, pyspiel {theirs:.3f} us")


if __name__ == "__main__":
    main()
