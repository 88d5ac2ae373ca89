#!/usr/bin/env python3
"""OpenSpiel's MCTSBot (Python, on the ludic game through `ludic.openspiel`) against ludic's
MCTS, at equal time a move, on two built-in games.

    python tests/python/bench_mcts.py [--time 0.1] [--games 20]

ludic's side is `mcts:time=T` (one thread). OpenSpiel's MCTSBot counts simulations, not time:
here it searches until T is spent (`TimedMCTSBot`: its search loop's only other exit, a solved
root, is taken once the time is up; the mean time a move is printed). Its evaluator is random
rollouts (one a leaf), its c is 2 (OpenSpiel's examples), ludic's is its default. The games are `ludic.play_match` games (seats alternated, seeded); the result is
the score of ludic's MCTS with a 95% Wilson interval. Not a test: it prints the result.
"""

import argparse
import math
import time

import numpy as np
from open_spiel.python.algorithms import mcts

import ludic
import ludic.openspiel as lo

GAMES = ["pallankuzhi", "puluc"]


class TimedMCTSBot(mcts.MCTSBot):
    """OpenSpiel's MCTSBot searching for a time rather than a number of simulations."""

    def __init__(self, game, c, seconds, evaluator, rng):
        super().__init__(game, c, 10**9, evaluator, random_state=rng, solve=False)
        self.seconds = seconds
        self.deadline = 0.0

    def mcts_search(self, state):
        self.deadline = time.perf_counter() + self.seconds
        return super().mcts_search(state)

    def _apply_tree_policy(self, root, state):
        if root.explore_count > 0 and time.perf_counter() >= self.deadline:
            # the loop of mcts_search ends after this simulation when its root has an outcome
            # (solve=False: nothing else reads it)
            root.outcome = np.zeros(self._game.num_players())
        return super()._apply_tree_policy(root, state)


class OpenSpielMcts:
    """A play_match agent: OpenSpiel's MCTSBot on the pyspiel game, given about `budget`
    seconds a move."""

    def __init__(self, name, budget, seed):
        self.game = lo.load_game(name)
        self.budget = budget
        self.rng = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=self.rng)
        self.bot = TimedMCTSBot(self.game, 2.0, budget, evaluator, self.rng)
        self.times = []
        self.simulations = 0

    def describe(self):
        return f"openspiel-mcts, {self.budget}s a move"

    def step(self, state):
        s = self.game.new_initial_state()
        for a in state.history():
            s.apply_action(a)
        t0 = time.perf_counter()
        root = self.bot.mcts_search(s)
        self.times.append(time.perf_counter() - t0)
        self.simulations += root.explore_count
        return root.best_child().action


def wilson(score, n, z=1.96):
    if n == 0:
        return (0.0, 1.0)
    d = 1 + z * z / n
    c = (score + z * z / (2 * n)) / d
    h = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--time", type=float, default=0.1)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    for name in GAMES:
        game = ludic.load_game(name)
        theirs = OpenSpielMcts(name, args.time, args.seed)
        t0 = time.perf_counter()
        m = ludic.play_match(game, [f"mcts:time={args.time}", theirs], games=args.games, seed=args.seed)
        wall = time.perf_counter() - t0
        lo_, hi = wilson(m["score"], args.games)
        decisions = sum(g["decisions"] for g in m["games"])
        print(
            f"{name}: ludic mcts vs openspiel MCTSBot, {args.time}s a move, {args.games} games: "
            f"ludic {m['wins']}-{m['draws']}-{m['losses']} (w-d-l), score {m['score']:.3f} "
            f"(95% CI {lo_:.3f}..{hi:.3f}); openspiel's mean time a move "
            f"{np.mean(theirs.times):.3f}s over {len(theirs.times)} moves, "
            f"{theirs.simulations / max(sum(theirs.times), 1e-9):.0f} simulations/s; "
            f"{decisions} decisions in {wall:.0f}s"
        )


if __name__ == "__main__":
    main()
