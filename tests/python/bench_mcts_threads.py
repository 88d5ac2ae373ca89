#!/usr/bin/env python3
"""Playouts a wall-second of ludic's MCTS with one thread and with two, from the start of Kalah
(tests/fixtures/kalah.game) and connect four: three interleaved rounds (the order swapped each
round) of one search of `mcts:time=SECS s,threads=T` through the Python package, the playouts
read from `Bot.last_search`; the medians and their ratio are printed, with the load beside each
run (the ratio means something only on an idle machine).

    python tests/python/bench_mcts_threads.py [SECS]

Not a test: it prints the figures.
"""

import ludic, time, sys, statistics
secs = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
for f in ["tests/fixtures/kalah.game", "games/connect-four.game"]:
    g = ludic.load_game(f)
    s = g.new_initial_state()
    rates = {1: [], 2: []}
    for r in range(3):
        for t in ([1, 2] if r % 2 == 0 else [2, 1]):
            b = ludic.Bot(g, f"mcts:time={secs}s,threads={t}", r)
            w = time.perf_counter(); c = time.process_time()
            b.step(s)
            w = time.perf_counter() - w; c = time.process_time() - c
            e = b.last_search
            rates[t].append(e["playouts"] / w)
            print(f"  {f} threads={t}: {e['playouts']} playouts, {w:.2f} s wall, {c:.2f} s CPU, load {open('/proc/loadavg').read().split()[0]}", flush=True)
    m1, m2 = statistics.median(rates[1]), statistics.median(rates[2])
    print(f"{f}: median playouts/wall-s: 1 thread {m1:.0f}, 2 threads {m2:.0f}, ratio {m2 / m1:.2f}", flush=True)
