#!/usr/bin/env python3
"""ludic's MCTS against OpenSpiel's C++ MCTSBot at equal CPU time a move, on OpenSpiel's own C++
games: Kalah (`mancala`, the rules of tests/fixtures/kalah.game) and connect four
(`connect_four`, games/connect-four.game).

    python tests/python/bench_mcts_vs_openspiel.py [--games kalah,connect_four] [--n 100]
        [--time 0.1] [--seed 1] [--ludic-spec mcts:time=0.1s] [--uct-c 2] [--no-solve]

Each game is played in both systems at once, step by step: ludic's state (the Python package,
in this process) and OpenSpiel's (`pyspiel`), every move mapped between the two, and at every
step the two lists of legal moves must map onto each other exactly (else the run stops).

ludic's side is `ludic.Bot(game, "mcts:time=T s", seed)`: a time budget, one thread, told
every step (`inform_action`) so that it keeps its subtree. OpenSpiel's side is its C++ bot,
`pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), uct_c, N, 1000 MB, solve, seed,
False)` with `mcts_search(state)` and its `best_child()` (what `bot.step` does), a new bot a
move (the C++ bot builds a new tree every search anyway), uct_c 2 by default (rewards in
[-1, 1], as OpenSpiel's examples: c=1 on rewards in [0, 1]; ludic's default is 0.5), the solver
on.

How the CPU time is made equal: both bots run in this one process, on its main thread (ludic's
search with one thread runs on the calling thread; its Python binding releases the GIL but
nothing else runs). Every decision of either bot is timed with `time.process_time()` (the
process's user + system CPU time) around the call, and nothing else is inside the timed part.
OpenSpiel's bot cannot search for a time, only for a number of simulations N: N is set before
each of its moves so that its CPU time matches ludic's. The target of a move is ludic's CPU
time a move so far (all games of the run: total ludic CPU / ludic's decisions) times OpenSpiel's
moves so far + 1, less OpenSpiel's CPU so far (so the totals stay equal), kept within 0.5x-2x
of ludic's mean; N = target x OpenSpiel's rate (simulations per CPU-second) at its previous move
of this game (the cost of a simulation changes along a game, its rollouts getting shorter), or
at its first move of the previous game for a first move (a calibration search of 2000
simulations from the start before the first game). A search the solver ends early (a proven
root) counts its real simulations (`explore_count` of the root) and its real time. The table
gives both sides' mean CPU a move, their ratio, and the searches' sizes: OpenSpiel's simulations
and ludic's playouts a move (`Bot.last_search`).

A decision with a single legal move is not searched by ludic (it answers at once); it is not
timed for either side (OpenSpiel's bot is not asked either: the move is played).

Games: `--n` a game, seats alternating (ludic first in even games), game i seeded with
seed * 1000 + i for both bots. The score is ludic's (a win 1, a draw 1/2) with a 95% Wilson
interval. The machine's load (/proc/loadavg) is printed at the start and the end. Not a test: it
prints a table.
"""

import argparse
import math
import pathlib
import sys
import time

import pyspiel

import ludic

ROOT = pathlib.Path(__file__).resolve().parents[2]


class Kalah:
    label = "kalah"
    ludic_file = ROOT / "tests" / "fixtures" / "kalah.game"
    openspiel_name = "mancala"

    # OpenSpiel's pits: 1..6 South's s1..s6, 8..13 North's n1..n6 (0 and 7 the stores)
    @staticmethod
    def to_openspiel(notation):
        pit = notation.split()[-1]
        k = int(pit[1:])
        return k if pit[0] == "s" else 7 + k


class ConnectFour:
    label = "connect_four"
    ludic_file = ROOT / "games" / "connect-four.game"
    openspiel_name = "connect_four"

    # `drop F R`: OpenSpiel's action is the column F (a = 0)
    @staticmethod
    def to_openspiel(notation):
        return ord(notation.split()[-1][0]) - ord("a")


PAIRS = {p.label: p for p in (Kalah, ConnectFour)}


def wilson(score, n, z=1.96):
    if n == 0:
        return (0.0, 1.0)
    p = score / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def loadavg():
    with open("/proc/loadavg") as f:
        return f.read().strip()


class Spiel:
    """OpenSpiel's C++ MCTSBot with its simulations calibrated to a CPU time a move."""

    def __init__(self, game, uct_c, solve):
        self.game = game
        self.uct_c = uct_c
        self.solve = solve
        self.cpu = 0.0
        self.moves = 0
        self.sims = 0
        self.first_rate = None
        self.rate = None

    def calibrate(self, seed):
        s = self.game.new_initial_state()
        ev = pyspiel.RandomRolloutEvaluator(1, seed)
        bot = pyspiel.MCTSBot(self.game, ev, self.uct_c, 2000, 1000, self.solve, seed, False)
        t0 = time.process_time()
        root = bot.mcts_search(s)
        self.first_rate = root.explore_count / max(time.process_time() - t0, 1e-6)

    def new_game(self):
        self.rate = self.first_rate
        self.first_of_game = True

    def step(self, state, target, seed, evaluator):
        n = max(1, round(target * self.rate))
        bot = pyspiel.MCTSBot(self.game, evaluator, self.uct_c, n, 1000, self.solve, seed, False)
        t0 = time.process_time()
        root = bot.mcts_search(state)
        action = root.best_child().action
        cpu = time.process_time() - t0
        done = root.explore_count
        self.rate = done / max(cpu, 1e-6)
        if self.first_of_game:
            self.first_rate = self.rate
            self.first_of_game = False
        self.cpu += cpu
        self.moves += 1
        self.sims += done
        return action


def play(pair, lgame, ogame, spiel, stats, spec, i, seed):
    """One game; returns ludic's score (1, 1/2, 0)."""
    me = i % 2  # ludic's player
    gseed = seed * 1000 + i
    bot = ludic.Bot(lgame, spec, gseed)
    evaluator = pyspiel.RandomRolloutEvaluator(1, gseed)
    spiel.new_game()
    l, o = lgame.new_initial_state(), ogame.new_initial_state()
    step = 0
    while not l.is_terminal():
        if o.is_terminal() or l.current_player() != o.current_player():
            sys.exit(f"{pair.label}: game {i} step {step}: the two systems disagree on who moves")
        lmoves = l.legal_action_strings()
        mapped = [pair.to_openspiel(m) for m in lmoves]
        if sorted(mapped) != sorted(o.legal_actions()):
            sys.exit(f"{pair.label}: game {i} step {step}: legal moves differ: {lmoves} vs {o.legal_actions()}")
        p = l.current_player()
        if len(lmoves) == 1:
            idx = 0
        elif p == me:
            t0 = time.process_time()
            a = bot.step(l)
            stats["cpu"] += time.process_time() - t0
            stats["moves"] += 1
            stats["playouts"] += (bot.last_search or {}).get("playouts", 0)
            idx = l.legal_actions().index(a)
        else:
            mean = stats["cpu"] / max(stats["moves"], 1)
            target = mean * (spiel.moves + 1) - spiel.cpu
            target = min(max(target, 0.5 * mean), 2.0 * mean)
            act = spiel.step(o, target, gseed * 7919 + step, evaluator)
            idx = mapped.index(act)
        move, action = lmoves[idx], mapped[idx]
        bot.inform_action(l, p, l.legal_actions()[idx])
        l.apply_notation(move)
        o.apply_action(action)
        step += 1
    if not o.is_terminal():
        sys.exit(f"{pair.label}: game {i}: ludic's game ended, OpenSpiel's did not")
    if list(l.returns()) != list(o.returns()):
        sys.exit(f"{pair.label}: game {i}: returns differ: {l.returns()} vs {o.returns()}")
    r = l.returns()[me]
    return 1.0 if r > 0 else 0.0 if r < 0 else 0.5


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="kalah,connect_four")
    ap.add_argument("--n", type=int, default=100, help="games of each")
    ap.add_argument("--time", type=float, default=0.1, help="ludic's time a move (s)")
    ap.add_argument("--ludic-spec", default=None, help="ludic's agent (default mcts:time=T s)")
    ap.add_argument("--uct-c", type=float, default=2.0)
    ap.add_argument("--no-solve", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    spec = args.ludic_spec or f"mcts:time={args.time}s"
    print(f"load at start: {loadavg()}")
    print(f"ludic: {spec}; OpenSpiel: C++ MCTSBot uct_c={args.uct_c} solve={not args.no_solve}, 1 random rollout a leaf")
    for label in args.games.split(","):
        pair = PAIRS[label]
        lgame = ludic.load_game(str(pair.ludic_file))
        ogame = pyspiel.load_game(pair.openspiel_name)
        spiel = Spiel(ogame, args.uct_c, not args.no_solve)
        spiel.calibrate(args.seed)
        stats = {"cpu": 0.0, "moves": 0, "playouts": 0}
        score = 0.0
        wdl = [0, 0, 0]
        t0 = time.time()
        for i in range(args.n):
            s = play(pair, lgame, ogame, spiel, stats, spec, i, args.seed)
            score += s
            wdl[0 if s == 1 else 1 if s == 0.5 else 2] += 1
            if (i + 1) % 10 == 0 or i + 1 == args.n:
                lo, hi = wilson(score, i + 1)
                print(
                    f"  {label} {i + 1} games: score {score / (i + 1):.3f} ({lo:.3f}-{hi:.3f}) "
                    f"w-d-l {wdl[0]}-{wdl[1]}-{wdl[2]}  [{time.time() - t0:.0f} s]",
                    flush=True,
                )
        lo, hi = wilson(score, args.n)
        lc = stats["cpu"] / max(stats["moves"], 1)
        oc = spiel.cpu / max(spiel.moves, 1)
        print(
            f"{label}: {args.n} games, ludic {wdl[0]}-{wdl[1]}-{wdl[2]} (w-d-l), score "
            f"{score / args.n:.3f}, 95% {lo:.3f}-{hi:.3f}; CPU a move: ludic {lc * 1000:.1f} ms "
            f"({stats['moves']} moves), OpenSpiel {oc * 1000:.1f} ms ({spiel.moves} moves), "
            f"ratio {oc / max(lc, 1e-9):.3f}; a move: ludic {stats['playouts'] / max(stats['moves'], 1):.0f} "
            f"playouts, OpenSpiel {spiel.sims / max(spiel.moves, 1):.0f} simulations",
            flush=True,
        )
    print(f"load at end: {loadavg()}")


if __name__ == "__main__":
    main()
