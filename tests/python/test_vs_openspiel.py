"""The differential test against OpenSpiel: each built-in game that OpenSpiel also has is played
in both at once, in random games, and must agree at every step.

One generic driver (`play_both`) and, per game, a small table (a `Pair`): the ludic game (its
built-in name and options), OpenSpiel's (its name and parameters), the mapping of a ludic
decision's notation to an OpenSpiel action and back, and how each side's position is read into
one neutral form: `{(file, rank): mark}` over the occupied cells (file and rank counted from 0
at ludic's a1, mark `0`/`1` for a player's piece, or a piece kind's letter), plus the player to
move.

At every step the driver compares: terminal or not, the player to move, the position, and the
legal moves (every ludic decision mapped to OpenSpiel must give OpenSpiel's set of legal
actions exactly, and every OpenSpiel action mapped back must give ludic's set). It then picks
one legal move at random and plays it in both. Which side's list drives the choice alternates
with the game (even games pick from ludic's list, odd ones from OpenSpiel's), so that both
directions of the mapping play. At the end it compares the returns. A mismatch fails with the
game, its seed, the step, both move lists and both positions.

Games per game: 500 (`LUDIC_DIFF_GAMES` sets another number, e.g. 10000 for the long run); the
seed of game i is i, so a failure is replayed by its seed (`LUDIC_DIFF_SEED=i` plays that game
alone).

Notation tables (ludic <-> OpenSpiel). OpenSpiel's pictures (`str(state)`) print the top rank
first; ludic's files are letters from `a` (x = 0, left) and its ranks numbers from 1 (y = 0,
bottom), as drawn.

| game | ludic decision | OpenSpiel action (id: string) |
|---|---|---|
| tic-tac-toe / tic_tac_toe | `mark F R` (file a..c, rank 1..3) | `3 * (3 - R) + F`: `x(r,c)` with row r = 3 - R (row 0 is the top), column c = F |
| connect-four / connect_four | `drop F R` (the lowest empty cell of file F) | the column `F` (0..6): `x3`; back: the one legal ludic drop on that file |
"""

import os
import random
import re
import time

import pytest

pyspiel = pytest.importorskip("pyspiel")

import ludic  # noqa: E402

GAMES = int(os.environ.get("LUDIC_DIFF_GAMES", "500"))
ONLY_SEED = os.environ.get("LUDIC_DIFF_SEED")


def cell(name: str):
    """ludic's name of a generated point, `c3`, as (file, rank) from 0: (2, 2)."""
    m = re.fullmatch(r"([a-z])([0-9]+)", name)
    assert m, f"not a cell name: {name}"
    return ord(m.group(1)) - ord("a"), int(m.group(2)) - 1


def cell_name(f: int, r: int) -> str:
    return f"{chr(ord('a') + f)}{r + 1}"


def ludic_marks(state, kinds=None):
    """ludic's position, neutral: each site holding a token, its owner's player number (or the
    letter `kinds` gives its kind)."""
    j = state.to_json()
    players = state.get_game().players()
    out = {}
    for t in j["tokens"]:
        if t["site"] is None:
            continue
        if kinds and t["kind"] in kinds:
            out[cell(t["site"])] = kinds[t["kind"]]
        else:
            out[cell(t["site"])] = str(players.index(t["owner"]))
    return out


def grid_marks(text: str, marks: dict, skip_spaces: bool = False):
    """OpenSpiel's picture of a rectangular board (the top rank first), neutral: `marks` maps
    each character of a piece to its mark; every other character is an empty cell."""
    rows = [r for r in text.splitlines() if r.strip()]
    out = {}
    for i, row in enumerate(rows):
        cells = row.split() if skip_spaces else list(row)
        rank = len(rows) - 1 - i
        for f, ch in enumerate(cells):
            if ch in marks:
                out[(f, rank)] = marks[ch]
    return out


class Pair:
    """One game in both systems: the table the driver reads. Subclasses give the mapping of a
    decision each way and the reading of each position."""

    ludic_name = ""
    ludic_options = None
    openspiel_name = ""
    openspiel_params = None

    def games(self):
        lg = ludic.load_game(self.ludic_name, self.ludic_options)
        og = pyspiel.load_game(self.openspiel_name, self.openspiel_params or {})
        return lg, og

    def to_openspiel(self, notation: str, lstate, ostate) -> int:
        raise NotImplementedError

    def to_ludic(self, action: int, lstate, ostate) -> str:
        raise NotImplementedError

    def ludic_position(self, lstate):
        return ludic_marks(lstate)

    def openspiel_position(self, ostate):
        raise NotImplementedError


class TicTacToe(Pair):
    ludic_name = "tic-tac-toe"
    openspiel_name = "tic_tac_toe"

    def to_openspiel(self, notation, lstate, ostate):
        f, r = cell(notation.split()[-1])
        return 3 * (2 - r) + f

    def to_ludic(self, action, lstate, ostate):
        return "mark " + cell_name(action % 3, 2 - action // 3)

    def openspiel_position(self, ostate):
        return grid_marks(str(ostate), {"x": "0", "o": "1"})


class ConnectFour(Pair):
    ludic_name = "connect-four"
    openspiel_name = "connect_four"

    def to_openspiel(self, notation, lstate, ostate):
        return cell(notation.split()[-1])[0]

    def to_ludic(self, action, lstate, ostate):
        on_file = [m for m in lstate.legal_action_strings() if cell(m.split()[-1])[0] == action]
        return on_file[0] if len(on_file) == 1 else f"<{len(on_file)} ludic drops on file {action}>"

    def openspiel_position(self, ostate):
        return grid_marks(str(ostate), {"x": "0", "o": "1"})


PAIRS = [TicTacToe(), ConnectFour()]


def show(pos):
    return " ".join(f"{cell_name(*k)}={v}" for k, v in sorted(pos.items(), key=lambda kv: (kv[0][1], kv[0][0])))


def play_both(pair, lgame, ogame, seed: int):
    """Plays game `seed` in both systems; returns the number of steps. Fails at the first
    difference with everything needed to see it again."""
    rng = random.Random(seed)
    drive_ludic = seed % 2 == 0
    l, o = lgame.new_initial_state(), ogame.new_initial_state()
    step = 0
    played = []

    def fail(what, lmoves=None, omoves=None):
        lines = [
            f"{pair.ludic_name} vs OpenSpiel {pair.openspiel_name}: {what}",
            f"  seed {seed} (LUDIC_DIFF_SEED={seed}), step {step}, choices by {'ludic' if drive_ludic else 'OpenSpiel'}",
            f"  moves so far: {' | '.join(played)}",
        ]
        if lmoves is not None:
            lines.append(f"  ludic's moves: {sorted(lmoves)}")
            lines.append(f"  OpenSpiel's moves: {sorted(omoves)} = {[o.action_to_string(a) for a in sorted(omoves)]}")
        lines.append(f"  ludic's position (player {l.current_player()}): {show(pair.ludic_position(l))}")
        lines.append(f"  OpenSpiel's position (player {o.current_player()}): {show(pair.openspiel_position(o))}")
        lines.append("  ludic:\n" + str(l.observation_string()))
        lines.append("  OpenSpiel:\n" + str(o))
        pytest.fail("\n".join(lines), pytrace=False)

    while True:
        if l.is_terminal() != o.is_terminal():
            fail(f"terminal: ludic {l.is_terminal()}, OpenSpiel {o.is_terminal()}")
        if pair.ludic_position(l) != pair.openspiel_position(o):
            fail("the positions differ")
        if l.is_terminal():
            break
        if l.current_player() != o.current_player():
            fail(f"to move: ludic {l.current_player()}, OpenSpiel {o.current_player()}")
        lmoves = l.legal_action_strings()
        omoves = o.legal_actions()
        mapped = [pair.to_openspiel(m, l, o) for m in lmoves]
        back = [pair.to_ludic(a, l, o) for a in omoves]
        if sorted(mapped) != sorted(omoves) or sorted(back) != sorted(lmoves):
            fail("the legal moves differ", lmoves, omoves)
        if drive_ludic:
            i = rng.randrange(len(lmoves))
            move, action = lmoves[i], mapped[i]
        else:
            i = rng.randrange(len(omoves))
            move, action = back[i], omoves[i]
        played.append(move)
        l.apply_notation(move)
        o.apply_action(action)
        step += 1
    if list(l.returns()) != list(o.returns()):
        fail(f"returns: ludic {l.returns()}, OpenSpiel {o.returns()}")
    return step


@pytest.mark.parametrize("pair", PAIRS, ids=[p.ludic_name for p in PAIRS])
def test_random_games_agree_with_openspiel(pair):
    lgame, ogame = pair.games()
    seeds = [int(ONLY_SEED)] if ONLY_SEED else range(GAMES)
    start = time.perf_counter()
    steps = 0
    for seed in seeds:
        steps += play_both(pair, lgame, ogame, seed)
    took = time.perf_counter() - start
    # the figures of a run (pytest -s shows them): games, steps compared, time
    print(f"\n{pair.ludic_name}: {len(seeds)} games, {steps} steps, 0 mismatches, {took:.2f} s")
