"""The differential test against OpenSpiel: each built-in game that OpenSpiel also has is played
in both at once, in random games, and must agree at every step.

One generic driver (`play_both`) and, per game, a small table (a `Pair`): the ludic game (its
built-in name and options, read from its file in games/), OpenSpiel's (its name and
parameters), the mapping of a ludic decision's notation to an OpenSpiel action and back, and how
each side's position is read into one neutral form: `{(file, rank): mark}` over the occupied cells (file and rank counted from 0
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
alone). 500 games of each pair take about 45 s in all (hex 11 x 11 and amazons 20 s each, the
others 2 s); `pytest -s` prints each pair's figures.

Notation tables (ludic <-> OpenSpiel). OpenSpiel's pictures (`str(state)`) print the top rank
first; ludic's files are letters from `a` (x = 0, left) and its ranks numbers from 1 (y = 0,
bottom), as drawn.

| game | ludic decision | OpenSpiel action (id: string) |
|---|---|---|
| tic-tac-toe / tic_tac_toe | `mark F R` (file a..c, rank 1..3) | `3 * (3 - R) + F`: `x(r,c)` with row r = 3 - R (row 0 is the top), column c = F |
| connect-four / connect_four | `drop F R` (the lowest empty cell of file F) | the column `F` (0..6): `x3`; back: the one legal ludic drop on that file |
| hex / hex (`size` / `board_size`, default 11) | `place F R` | `size * R + F`: `c5` is `c5` (the same names; OpenSpiel draws rank 1 at the top) |
| amazons / amazons | `from F R`, then `to F R`, then `shoot F R` | `10 * (9 - R) + F` at each of the three steps: `X From (r, c)`, `X To (r, c)`, `X Shoot: (r, c)` with r = 10 - R counted from the top and c = F + 1 |
| chess / chess | `move F R F R` (castling: the king's move, `move e1 g1`), `queen F R F R` (`rook`, `bishop`, `knight`: a promotion) | OpenSpiel's action of the long algebraic move `e2e4`, `e1g1`, `e7e8q` (`parse_move_to_action`; back: `action_to_move(...).to_lan()`) |

Players: ludic's first player is OpenSpiel's player 0 in each game (X, X, Black, White; in
chess Black: its sides are `Black White`, White moving first, as OpenSpiel numbers them).
Amazons: OpenSpiel lifts the amazon off the board when it is picked (`From`), ludic moves it with
the next decision (`to`): the neutral form of OpenSpiel's position puts it back on its square
between the two.
"""

import functools
import os
import pathlib
import random
import re
import time

import pytest

pyspiel = pytest.importorskip("pyspiel")

import ludic  # noqa: E402

GAMES = int(os.environ.get("LUDIC_DIFF_GAMES", "500"))
GAMES_DIR = pathlib.Path(__file__).resolve().parents[2] / "games"
ONLY_SEED = os.environ.get("LUDIC_DIFF_SEED")


@functools.lru_cache(maxsize=None)
def cell(name: str):
    """ludic's name of a generated point, `c3`, as (file, rank) from 0: (2, 2)."""
    m = re.fullmatch(r"([a-z])([0-9]+)", name)
    assert m, f"not a cell name: {name}"
    return ord(m.group(1)) - ord("a"), int(m.group(2)) - 1


def cell_name(f: int, r: int) -> str:
    return f"{chr(ord('a') + f)}{r + 1}"


class LudicBoard:
    """Reads ludic's position from its observation tensor (20 times faster than `to_json`):
    the `sites` part is one block a site, in the order of `describe()["sites"]`, each of
    5 kinds + K counters + P owners + P x K tokens (player-major)."""

    def __init__(self, game):
        d = game.describe()
        self.cells = [(s["x"], s["y"]) for s in d["sites"]]
        self.kinds = [k["name"] for k in d["pieces"]]
        self.players = len(d["players"])
        k, p = len(self.kinds), self.players
        layout = dict(game.observation_tensor_layout())
        # the tokens' part of a site is there only in a game with tokens
        self.width = layout["sites"] // max(len(self.cells), 1)
        self.tokens = 5 + k + p
        assert self.width in (5 + k + p, 5 + k + p + p * k), "the layout of the tensor changed"
        self.token_slots = p * k if self.width == 5 + k + p + p * k else 0

    def marks(self, state, kinds=None):
        """Each site holding tokens: its owner's player number, or the letter `kinds` gives
        the tokens' kind; and each site holding counters of a kind that `kinds` names."""
        v = state.observation_tensor()
        out = {}
        k = len(self.kinds)
        for i, xy in enumerate(self.cells):
            for j, kind in enumerate(self.kinds):
                if kinds and kind in kinds and v[i * self.width + 5 + j]:
                    out[xy] = kinds[kind]  # counters of that kind
            base = i * self.width + self.tokens
            for j in range(self.token_slots):
                if v[base + j]:
                    kind = self.kinds[j % k]
                    out[xy] = kinds[kind] if kinds and kind in kinds else str(j // k)
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
        # the repository's file of the built-in game (the same text as the embedded copy,
        # tests/checker.rs checks it), so that a change of a game is tested without
        # rebuilding the Python package
        lg = ludic.load_game(str(GAMES_DIR / f"{self.ludic_name}.game"), self.ludic_options)
        og = pyspiel.load_game(self.openspiel_name, self.openspiel_params or {})
        self.board = LudicBoard(lg)
        return lg, og

    def to_openspiel(self, notation: str, lstate, ostate) -> int:
        raise NotImplementedError

    def to_ludic(self, action: int, lstate, ostate) -> str:
        raise NotImplementedError

    def ludic_position(self, lstate):
        return self.board.marks(lstate)

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


class Hex(Pair):
    ludic_name = "hex"
    openspiel_name = "hex"

    def __init__(self, size=None):
        self.size = size or 11
        if size:
            self.ludic_options = {"size": size}
            self.openspiel_params = {"board_size": size}

    def to_openspiel(self, notation, lstate, ostate):
        f, r = cell(notation.split()[-1])
        return r * self.size + f

    def to_ludic(self, action, lstate, ostate):
        return "place " + cell_name(action % self.size, action // self.size)

    def openspiel_position(self, ostate):
        # OpenSpiel draws its row 1 (ludic's rank 1) at the top, each row shifted right
        marks = {"x": "0", "o": "1"}
        out = {}
        for r, row in enumerate(l for l in str(ostate).splitlines() if l.strip()):
            for f, ch in enumerate(row.split()):
                if ch in marks:
                    out[(f, r)] = marks[ch]
        return out


class Amazons(Pair):
    ludic_name = "amazons"
    openspiel_name = "amazons"
    labels = ("from", "to", "shoot")  # OpenSpiel's three steps of a turn, in order

    def to_openspiel(self, notation, lstate, ostate):
        f, r = cell(notation.split()[-1])
        return (9 - r) * 10 + f

    def to_ludic(self, action, lstate, ostate):
        label = self.labels[len(ostate.history()) % 3]
        return f"{label} {cell_name(action % 10, 9 - action // 10)}"

    def ludic_position(self, lstate):
        return self.board.marks(lstate, {"arrow": "#"})

    def openspiel_position(self, ostate):
        out = grid_marks(str(ostate), {"X": "0", "O": "1", "#": "#"})
        h = ostate.history()
        if len(h) % 3 == 1:
            # OpenSpiel lifts the amazon when it is picked; ludic moves it with the second
            # decision: the neutral form keeps it on its square until then
            out[(h[-1] % 10, 9 - h[-1] // 10)] = str(ostate.current_player())
        return out


class Go(Pair):
    """Go (OpenSpiel's `go`, `board_size` / ludic's `size`): `place F R` is `size * R + F`,
    `pass` is `size * size`; OpenSpiel's column letters skip `i`, ludic's do not (the ids are
    the same). OpenSpiel's picture: `19 +++X…`, the top rank first. A 19 x 19 game is about
    650 steps and 1.5 s in ludic, so CI plays 500 games on 9 x 9 and `GO_19_GAMES` (50) on
    19 x 19; the long run sets both."""

    ludic_name = "go"
    openspiel_name = "go"

    def __init__(self, size):
        self.size = size
        self.ludic_options = {"size": size}
        self.openspiel_params = {"board_size": size}

    def to_openspiel(self, notation, lstate, ostate):
        if notation == "pass":
            return self.size * self.size
        f, r = cell(notation.split()[-1])
        return r * self.size + f

    def to_ludic(self, action, lstate, ostate):
        if action == self.size * self.size:
            return "pass"
        return "place " + cell_name(action % self.size, action // self.size)

    def ludic_position(self, lstate):
        return self.board.marks(lstate, {"black": "0", "white": "1"})

    def openspiel_position(self, ostate):
        out = {}
        for line in str(ostate).splitlines():
            m = re.fullmatch(r"\s*(\d+) ([+XO]+)", line)
            if m:
                for f, ch in enumerate(m.group(2)):
                    if ch != "+":
                        out[(f, int(m.group(1)) - 1)] = "0" if ch == "X" else "1"
        return out


GO_19_GAMES = int(os.environ.get("GO_19_GAMES", "50"))


class Chess(Pair):
    """Chess (OpenSpiel's `chess`): ludic's `move F R F R` (and castling: the king's move two
    squares, `move e1 g1`) is OpenSpiel's long algebraic move `e2e4` / `e1g1`; a promotion,
    `queen e7 e8` (`rook`, `bishop`, `knight`), is `e7e8q` (`r`, `b`, `n`). The ids through
    OpenSpiel's own `parse_move_to_action` and `action_to_move(...).to_lan()`. The neutral
    position: each piece as its FEN letter (upper case White's), and beside the board, at
    `i1` the castling rights kept (`KQkq` as FEN writes them, `-` for none), at `i2` the
    number of moves since a capture or a pawn move (OpenSpiel's irreversible-move counter,
    ludic's tally `clock`) and at `i3` the en-passant square (FEN's, which OpenSpiel sets only
    when a pawn stands beside the pawn that moved two squares: ludic's tally `passant`, its
    file; `-` for none). Players: OpenSpiel's player 0 is Black, as ludic's first side. A
    random game is about 350 moves: `CHESS_GAMES` (500) games, 175,199 steps, take about
    110 s of CPU (both systems and the driver)."""

    ludic_name = "chess"
    openspiel_name = "chess"
    letters = {"king": "k", "queen": "q", "rook": "r", "bishop": "b", "knight": "n", "pawn": "p"}
    promotions = {"queen": "q", "rook": "r", "bishop": "b", "knight": "n"}
    promoted = {v: k for k, v in promotions.items()}

    def games(self):
        lg, og = super().games()
        offset = 0
        for name, n in lg.observation_tensor_layout():
            if name == "tallies":
                self.tallies = offset
            offset += n
        return lg, og

    def to_openspiel(self, notation, lstate, ostate):
        label, a, b = notation.split()
        return ostate.parse_move_to_action(a + b + self.promotions.get(label, ""))

    def to_ludic(self, action, lstate, ostate):
        lan = pyspiel.chess.action_to_move(action, ostate.board()).to_lan()
        label = self.promoted.get(lan[4:], "move")
        return f"{label} {lan[:2]} {lan[2:4]}"

    def ludic_position(self, lstate):
        b = self.board
        v = lstate.observation_tensor()
        k = len(b.kinds)
        out = {}
        for i, xy in enumerate(b.cells):
            base = i * b.width + b.tokens
            for j in range(b.token_slots):
                if v[base + j]:
                    letter = self.letters[b.kinds[j % k]]
                    out[xy] = letter if j // k == 0 else letter.upper()  # player 0 is Black
        # the tallies, from the tensor's part `tallies` (one value a slot, in the order of the
        # file: short and long per player, Black's first, then passant and clock)
        short_b, short_w, long_b, long_w, passant, clock = (int(x) for x in v[self.tallies : self.tallies + 6])
        rights = "".join(c for c, kept in zip("KQkq", (short_w, long_w, short_b, long_b)) if kept)
        out[(8, 0)] = rights or "-"
        out[(8, 1)] = str(clock)
        white_to_move = lstate.current_player() == 1
        out[(8, 2)] = cell_name(passant - 1, 5 if white_to_move else 2) if passant else "-"
        return out

    def openspiel_position(self, ostate):
        board, _, rights, passant, clock = ostate.board().to_fen().split()[:5]
        out = {}
        for i, row in enumerate(board.split("/")):
            f = 0
            for ch in row:
                if ch.isdigit():
                    f += int(ch)
                else:
                    out[(f, 7 - i)] = ch
                    f += 1
        out[(8, 0)] = rights
        out[(8, 1)] = clock
        out[(8, 2)] = passant
        return out


CHESS_GAMES = int(os.environ.get("CHESS_GAMES", os.environ.get("LUDIC_DIFF_GAMES", "500")))

PAIRS = [TicTacToe(), ConnectFour(), Hex(), Hex(5), Amazons(), Go(9), Go(19), Chess()]


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
        if l.is_chance_node() or o.is_chance_node():
            fail("a chance event: the driver plays games without chance only")
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


def pair_id(p):
    return p.ludic_name + "".join(f"-{k}={v}" for k, v in (p.ludic_options or {}).items())


@pytest.mark.parametrize("pair", PAIRS, ids=[pair_id(p) for p in PAIRS])
def test_random_games_agree_with_openspiel(pair):
    lgame, ogame = pair.games()
    games = GO_19_GAMES if isinstance(pair, Go) and pair.size == 19 else GAMES
    if isinstance(pair, Chess):
        games = CHESS_GAMES
    seeds = [int(ONLY_SEED)] if ONLY_SEED else range(games)
    start = time.perf_counter()
    steps = 0
    for seed in seeds:
        steps += play_both(pair, lgame, ogame, seed)
    took = time.perf_counter() - start
    # the figures of a run (pytest -s shows them): games, steps compared, time
    print(f"\n{pair_id(pair)}: {len(seeds)} games, {steps} steps, 0 mismatches, {took:.2f} s")


def test_a_wrong_mapping_is_caught_with_its_seed_and_step():
    """The driver's own check: a mapping that mirrors tic-tac-toe's rows plays OpenSpiel's first
    choice on another square, and the positions differ at the next step, said with the seed."""

    class Mirrored(TicTacToe):
        def to_ludic(self, action, lstate, ostate):
            return "mark " + cell_name(action % 3, action // 3)

    pair = Mirrored()
    lgame, ogame = pair.games()
    with pytest.raises(pytest.fail.Exception) as e:
        play_both(pair, lgame, ogame, 1)  # an odd seed: OpenSpiel's list drives
    text = str(e.value)
    assert "the positions differ" in text, text
    assert "seed 1 (LUDIC_DIFF_SEED=1), step 1, choices by OpenSpiel" in text, text
    assert "ludic's position (player 1)" in text and "OpenSpiel:\n" in text, text
