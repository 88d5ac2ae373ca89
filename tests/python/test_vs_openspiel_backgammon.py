"""The differential test of backgammon against OpenSpiel's `backgammon` (its defaults:
scoring_type winloss_scoring, max_player_turns 500): random games played in both at once, with
the same dice, compared at every OpenSpiel decision (the player to move, the position, the set
of legal moves), and at the end (terminal, the returns).

The generic driver (test_vs_openspiel.py) maps one ludic decision to one OpenSpiel action and
plays no chance; backgammon needs a driver of its own, for two reasons:

- **A pair of checker moves.** An OpenSpiel action is a pair of checker moves (`24/23 24/22`,
  1352 distinct actions; a double is two such actions by the same player). ludic takes one
  decision per checker move. At each OpenSpiel decision point the driver lists ludic's
  *sequences*: each first decision, followed (on a clone) by each second decision when the
  pair goes on (the next decision is a `move`), and maps each sequence to an OpenSpiel action
  through the table below; it compares the *strings* of the two sets of actions (OpenSpiel
  keeps one action of several that read the same, `13/7 13/8` played in either order).
- **The dice.** The driver throws OpenSpiel's chance outcomes (with their probabilities, by
  the seeded RNG) and gives ludic the same dice, a throw of ludic's die each.

Notation table (ludic <-> OpenSpiel):

| ludic | OpenSpiel |
|---|---|
| site `pN` (N = 1..24) | point N - 1 of OpenSpiel's board (`board_[player][N - 1]`); South is x (player 0), North is o (player 1) |
| a checker on the bar (`high bar` …) | position 24 (the bar) |
| `high S` / `low S` (the first move of a pair), then `move S` (the second) | the checker move (S, the higher / lower die), then (S, the die left); a pair is `26 * second + first`, plus 676 when the first move uses the lower die; a lone move has 25 (pass) as its second |
| no decision (ludic's player passes) | `Pass` (action 1351) |
| opening: ludic throws South's die, then North's (again while equal) | the first chance outcome (30, no doubles: `X starts, (roll: 12)`, `O starts, (roll: 21)` …); the starter's die is the higher |
| a turn: two throws of the die, a and b | the outcome `(roll: ab)` of the 36 |

(The chance outcomes are read from their strings, `(roll: ab)`: open-spiel 2.0.2 from PyPI
numbers them differently from older sources, 36 ordered rolls and 30 openings.)

Position, neutral: for each point the number of checkers of each player, and each player's
checkers on the bar and borne off (OpenSpiel's observation tensor, which counts them exactly;
ludic's observation tensor: the tokens of each player on each site, and its areas).

Games: 500 (`LUDIC_DIFF_GAMES` sets another number, 10000 for the long run); game i has seed
i (`LUDIC_DIFF_SEED=i` replays one); even seeds choose among ludic's sequences, odd ones among
OpenSpiel's actions.
"""

import os
import pathlib
import random
import re
import time

import pytest

pyspiel = pytest.importorskip("pyspiel")

import ludic  # noqa: E402

GAMES = int(os.environ.get("LUDIC_DIFF_GAMES", "500"))
ONLY_SEED = os.environ.get("LUDIC_DIFF_SEED")
GAME_FILE = pathlib.Path(__file__).resolve().parents[2] / "games" / "backgammon.game"

PASS = 1351
BAR = 24


def ludic_point(name: str) -> int:
    """`p7` -> OpenSpiel's point 6; anything else is a checker on the bar."""
    return int(name[1:]) - 1 if name.startswith("p") and name[1:].isdigit() else BAR


class Sides:
    """Reads both positions into one form: (points, bars, offs), points a tuple of (x, o)."""

    def __init__(self, lgame):
        d = lgame.describe()
        self.sites = [ludic_point(s["name"]) for s in d["sites"]]
        k, p = len(d["pieces"]), len(d["players"])
        self.width = 5 + k + p + p * k
        self.tokens = 5 + k + p
        layout = list(lgame.observation_tensor_layout())
        assert layout[0] == ("sites", self.width * len(self.sites)), layout
        assert layout[1] == ("areas", 4), layout

    def ludic(self, l):
        v = l.observation_tensor()
        points = [(0, 0)] * 24
        for i, n in enumerate(self.sites):
            b = i * self.width + self.tokens
            points[n] = (int(v[b]), int(v[b + 1]))
        a = len(self.sites) * self.width
        # the areas, area-major: the bar (South, North), then off (South, North)
        return tuple(points), (int(v[a]), int(v[a + 1])), (int(v[a + 2]), int(v[a + 3]))

    @staticmethod
    def openspiel(o):
        v = o.observation_tensor(0)

        def count(f):
            return int(f[0] + 2 * f[1] + 3 * f[2] + (3 + f[3] if f[3] else 0))

        points = tuple((count(v[4 * i : 4 * i + 4]), count(v[96 + 4 * i : 96 + 4 * i + 4])) for i in range(24))
        return points, (int(v[192]), int(v[195])), (int(v[193]), int(v[196]))


def throw(l, value):
    outcomes = [a for a, _ in l.chance_outcomes()]
    l.apply_action(outcomes[value - 1])


def encode(seq, dice):
    """A ludic sequence [(label, point)] as OpenSpiel's action id."""
    hi, lo = max(dice), min(dice)
    first_die = hi if seq[0][0] == "high" else lo
    dig0 = seq[0][1]
    dig1 = seq[1][1] if len(seq) > 1 else 25
    return dig1 * 26 + dig0 + (0 if first_die == hi else 676)


def sequences(l):
    """ludic's pairs of decisions from here: [([notation...], [(label, point)...])]."""
    out = []
    for m1 in l.legal_action_strings():
        c = l.clone()
        c.apply_notation(m1)
        label, site = m1.split(" ", 1)
        first = (label, ludic_point(site))
        nxt = c.legal_action_strings() if c.is_player_node() and c.current_player() == l.current_player() else []
        if nxt and nxt[0].startswith("move "):
            for m2 in nxt:
                out.append(([m1, m2], [first, ("move", ludic_point(m2.split(" ", 1)[1]))]))
        else:
            out.append(([m1], [first]))
    return out


def play_both(lgame, ogame, sides, seed):
    rng = random.Random(seed)
    drive_ludic = seed % 2 == 0
    l, o = lgame.new_initial_state(), ogame.new_initial_state()
    played = []
    dice = None
    step = 0

    def fail(what, extra=""):
        pytest.fail(
            f"backgammon vs OpenSpiel: {what}\n  seed {seed} (LUDIC_DIFF_SEED={seed}), step {step}, "
            f"choices by {'ludic' if drive_ludic else 'OpenSpiel'}\n  played: {' | '.join(played)}\n{extra}"
            f"  ludic (player {l.current_player()}):\n{l.observation_string()}\n  OpenSpiel:\n{o}",
            pytrace=False,
        )

    while True:
        if o.is_player_node() and o.legal_actions() == [PASS]:
            # ludic's player passes without a decision: his turn is over already (the next
            # throw, or the end of the game when the pass reaches the turn limit)
            if l.is_player_node() and l.current_player() == o.current_player():
                fail("OpenSpiel passes, ludic offers moves", f"  ludic's moves: {l.legal_action_strings()}\n")
            played.append("Pass")
            o.apply_action(PASS)
            step += 1
            continue
        if l.is_terminal() != o.is_terminal():
            fail(f"terminal: ludic {l.is_terminal()} ({l.result()}, {l.to_json()['tallies']}), OpenSpiel {o.is_terminal()}")
        if sides.ludic(l) != sides.openspiel(o):
            fail("the positions differ", f"  ludic: {sides.ludic(l)}\n  OpenSpiel: {sides.openspiel(o)}\n")
        if o.is_terminal():
            break
        if o.is_chance_node():
            if not l.is_chance_node():
                fail("OpenSpiel throws, ludic does not")
            actions, probs = zip(*o.chance_outcomes())
            k = rng.choices(actions, probs)[0]
            text = o.action_to_string(pyspiel.PlayerId.CHANCE, k)
            m = re.search(r"roll: ([1-6])([1-6])\)", text)
            dice = (int(m.group(1)), int(m.group(2)))
            if "starts" in text:  # the opening: the starter's die is the higher
                lo, hi = min(dice), max(dice)
                south, north = (hi, lo) if "X starts" in text else (lo, hi)
                throw(l, south)
                throw(l, north)
            else:
                throw(l, dice[0])
                throw(l, dice[1])
            played.append(text)
            o.apply_action(k)
            step += 1
            continue
        player = o.current_player()
        legal = o.legal_actions()
        ostrings = {o.action_to_string(player, a): a for a in legal}
        if not l.is_player_node() or l.current_player() != player:
            fail(f"to move: ludic {l.current_player()}, OpenSpiel {player}")
        seqs = sequences(l)
        lstrings = {}
        for notes, seq in seqs:
            lstrings.setdefault(o.action_to_string(player, encode(seq, dice)), notes)
        if set(lstrings) != set(ostrings):
            fail(
                "the legal moves differ",
                f"  ludic's: {sorted(lstrings)}\n  OpenSpiel's: {sorted(ostrings)}\n"
                f"  only ludic: {sorted(set(lstrings) - set(ostrings))}, only OpenSpiel: {sorted(set(ostrings) - set(lstrings))}\n",
            )
        if drive_ludic:
            notes, seq = seqs[rng.randrange(len(seqs))]
            key = o.action_to_string(player, encode(seq, dice))
        else:
            key = sorted(ostrings)[rng.randrange(len(ostrings))]
            notes = lstrings[key]
        for n in notes:
            l.apply_notation(n)
        o.apply_action(ostrings[key])
        played.append(f"{key} = {', '.join(notes)}")
        step += 1
    if list(l.returns()) != list(o.returns()):
        fail(f"returns: ludic {l.returns()}, OpenSpiel {o.returns()}")
    return step


@pytest.mark.parametrize("turns", [None, 40], ids=["defaults", "max_turns=40"])
def test_backgammon_agrees_with_openspiel(turns):
    """The defaults (500 turns: random games end long before), and a turn limit that ends
    most games (a tenth of the games), to compare the draw at the limit."""
    lgame = ludic.load_game(str(GAME_FILE), {"max_turns": turns} if turns else None)
    ogame = pyspiel.load_game("backgammon", {"max_player_turns": turns} if turns else {})
    sides = Sides(lgame)
    seeds = [int(ONLY_SEED)] if ONLY_SEED else range(GAMES if not turns else max(GAMES // 10, 1))
    start = time.perf_counter()
    steps = 0
    for seed in seeds:
        steps += play_both(lgame, ogame, sides, seed)
    took = time.perf_counter() - start
    print(f"\nbackgammon ({turns or 500} turns): {len(seeds)} games, {steps} steps, 0 mismatches, {took:.2f} s")
