#!/usr/bin/env python3
"""Random playouts per CPU-second, one thread: ludic's engine against OpenSpiel's C++, on each
game of the library that OpenSpiel has.

    python tests/python/bench_vs_openspiel.py [--games go9,hex] [--rounds 5] [--seconds 1.5]
                                              [--ludic target/release/ludic] [--uct-c 1e9]
                                              [--file backgammon=PATH] [--per-search M]

ludic's side is the binary: `ludic bench GAME --playouts N --format json`, its CPU time (user +
system) read from the child's rusage (`resource.getrusage(RUSAGE_CHILDREN)` around the run),
not the wall clock. The start-up (loading and checking the game) is taken off: each round also
runs `--playouts 1`, and the rate is (N - 1) playouts over the difference of the two CPU times.

OpenSpiel's side is one call of its C++ MCTSBot with a RandomRolloutEvaluator (one rollout a
leaf): `pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), uct_c, N, ...)`, then
`bot.step(state)` once from the start; playouts = the N simulations, CPU time by
`time.process_time()` around the call. pyspiel exposes no rollout of its own to Python (its
evaluator's `evaluate` is not bound), so a search is how many random playouts run in its C++
without a Python loop around each move. Each simulation walks the tree, adds a node, and plays a random game from
that leaf: its rollout starts a few moves in, and a leaf at the end of the game has none. So
that the leaves stay as close to the start as they can, `uct_c` is huge by default (1e9: the
tree grows breadth first). The tree's own cost is counted on OpenSpiel's side. A start state
that is a chance node (backgammon's first roll) is moved past by one seeded chance outcome
first: the bot cannot search from a chance root. In a short game (tic-tac-toe) one search of
many simulations grows a tree that holds much of the game, and its rollouts are short or none:
`--per-search M` splits the run into searches of M simulations, each from a new tree.

Rounds: for each game both sides are calibrated to about `--seconds` CPU-seconds a run, then
`--rounds` rounds alternate the two (the order swapped every round), and the table gives the
median rate of each side. Beside it, the mean length of a random game: ludic's decisions a
playout (from bench), and OpenSpiel's actions a game (a Python loop of random games, untimed).
The machine's load (/proc/loadavg) is printed at the start and the end, and by each row.

`--instructions`: instead of CPU time, instructions counted by valgrind (callgrind), which do
not depend on the machine's load: ludic's instructions a playout ((N playouts - 1 playout) /
(N - 1), as above) against OpenSpiel's a simulation ((one search of N simulations - the same
process without the search) / N, the search in a child Python process), N calibrated to about
`--seconds` CPU-seconds a side. The ratio (OpenSpiel's instructions a simulation over ludic's a
playout) is the ratio of speeds if both ran as many instructions a cycle.

Games are named by their OpenSpiel names (go9 and go19 for the two sizes of go, kalah for
`mancala`). Backgammon's and chess's .game files are read from the branches `backgammon27` and
`chess27` of this repository when they are not yet built in (`git show BRANCH:games/X.game`);
a game whose file is found nowhere gets a row saying so. Not a test: it prints a table.
"""

import argparse
import json
import os
import pathlib
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import pyspiel

ROOT = pathlib.Path(__file__).resolve().parents[2]
# Wall seconds a run of ludic may take before the game's row says it hung (--timeout).
TIMEOUT = 120.0

# key: (label, ludic game (built-in name, file, or ("branch", BRANCH, PATH)), ludic options,
#       OpenSpiel game string, what differs between the two)
GAMES = {
    "tic_tac_toe": ("tic-tac-toe", "tic-tac-toe", [], "tic_tac_toe", "same rules"),
    "connect_four": ("connect four", "connect-four", [], "connect_four", "7 x 6, four in a row"),
    "hex": ("hex 11x11", "hex", [], "hex", "11 x 11, no swap rule in either"),
    "amazons": (
        "amazons",
        "amazons",
        [],
        "amazons",
        "10 x 10; a turn is 3 decisions (amazon, square, arrow) in both",
    ),
    "go9": (
        "go 9x9",
        "go",
        ["size=9"],
        "go(board_size=9,komi=7.5)",
        "komi 7.5, ends after 2 x 81 = 162 moves in both",
    ),
    "go19": ("go 19x19", "go", [], "go", "komi 7.5, ends after 2 x 361 = 722 moves in both"),
    "backgammon": (
        "backgammon",
        ("branch", "backgammon27", "games/backgammon.game"),
        [],
        "backgammon",
        "max_player_turns 500 in both; ludic decides a die at a time, OpenSpiel both dice at once",
    ),
    "chess": (
        "chess",
        ("branch", "chess27", "games/chess.game"),
        [],
        "chess",
        "draws by the 50-move rule, threefold repetition and insufficient material in both",
    ),
    "kalah": (
        "kalah (mancala)",
        str(ROOT / "tests" / "fixtures" / "kalah.game"),
        [],
        "mancala",
        "Kalah(6,4), tests/fixtures/kalah.game; OpenSpiel stops at 1000 moves, ludic at "
        "100000 turns (neither reached)",
    ),
}


def loadavg():
    with open("/proc/loadavg") as f:
        return f.read().strip()


def load1():
    return loadavg().split()[0]


def resolve_ludic_game(spec, tmp):
    """The GAME argument of `ludic bench` for a game of the table, or (None, why)."""
    if not isinstance(spec, tuple):
        return spec, ""
    _, branch, path = spec
    builtin = ROOT / path
    if builtin.exists():
        return str(builtin), ""
    r = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{branch}:{path}"], capture_output=True, text=True
    )
    if r.returncode != 0:
        return None, f"not run: no {path} in this checkout nor on branch {branch}"
    out = pathlib.Path(tmp) / pathlib.Path(path).name
    out.write_text(r.stdout)
    return str(out), f"ludic's file: `git show {branch}:{path}`"


class Hung(Exception):
    """A run of ludic that did not end in time."""


def ludic_run(binary, game, options, playouts, seed, timeout=TIMEOUT):
    """(CPU seconds, bench's JSON row) of one `ludic bench` run."""
    cmd = [binary, "bench", game, "--playouts", str(playouts), "--seed", str(seed)]
    for o in options:
        cmd += ["-o", o]
    cmd += ["--format", "json"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        shown = " ".join(["ludic"] + cmd[1:])
        raise Hung(f"`{shown}` did not end within {timeout:g} s (killed)") from None
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, json.loads(r.stdout)[0]


def ludic_rate(binary, game, options, playouts, seed, timeout=TIMEOUT):
    """(playouts/CPU-s, decisions a playout) of one round: N playouts less the start-up (a run
    of one playout)."""
    base, _ = ludic_run(binary, game, options, 1, seed, timeout)
    cpu, row = ludic_run(binary, game, options, playouts, seed, timeout)
    return (playouts - 1) / max(cpu - base, 1e-9), row["decisions_per_playout"]


def spiel_root(game, seed):
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(outcomes, probs)[0])
    return state


def spiel_rate(game, simulations, seed, uct_c, per_search=None):
    """Playouts/CPU-s of one MCTSBot search of `simulations` simulations from the start (or of
    as many searches of `per_search` simulations as make up `simulations`)."""
    state = spiel_root(game, seed)
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    each = min(per_search or simulations, simulations)
    searches = -(-simulations // each)
    bot = pyspiel.MCTSBot(game, evaluator, uct_c, each, 16000, False, seed, False)
    t0 = time.process_time()
    for _ in range(searches):
        bot.step(state)
    return searches * each / max(time.process_time() - t0, 1e-9)


def spiel_game_length(game, seconds=0.5, most=200):
    """The mean number of players' actions of OpenSpiel's random games (Python loop, untimed)."""
    rng = random.Random(7)
    n = actions = 0
    t0 = time.process_time()
    while n < 5 or (n < most and time.process_time() - t0 < seconds):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(outcomes, probs)[0])
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])
                actions += 1
        n += 1
    return actions / n


def calibrate_ludic(binary, game, options, seconds, timeout=TIMEOUT):
    """Playouts for about `seconds` CPU-seconds."""
    n = 4
    while True:
        base, _ = ludic_run(binary, game, options, 1, 1, timeout)
        cpu, _ = ludic_run(binary, game, options, n, 1, timeout)
        spent = cpu - base
        # past the noise of the start-up's own time
        if (spent >= 0.2 and spent >= base) or n >= 10**8:
            return max(2, int(n * seconds / max(spent, 1e-9)))
        n *= 4


def calibrate_spiel(game, seconds, uct_c, per_search):
    n = 16
    while True:
        rate = spiel_rate(game, n, 1, uct_c, per_search)
        if n / rate >= 0.15 or n >= 10**8:
            return max(2, int(rate * seconds))
        n *= 4


# One OpenSpiel search under valgrind: argv = game, simulations, seed, uct_c, per_search (0:
# one search); 0 simulations loads the game and the bot without searching.
SPIEL_CHILD = """
import random, sys, pyspiel
spec, n, seed, uct_c, per = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
game = pyspiel.load_game(spec)
state = game.new_initial_state()
rng = random.Random(seed)
while state.is_chance_node():
    outcomes, probs = zip(*state.chance_outcomes())
    state.apply_action(rng.choices(outcomes, probs)[0])
each = min(per or max(n, 1), max(n, 1))
bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), uct_c, each, 16000, False, seed, False)
for _ in range(-(-n // each) if n else 0):
    bot.step(state)
"""


def callgrind(cmd, timeout):
    """The instructions valgrind's callgrind counts for a command."""
    full = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd]
    try:
        r = subprocess.run(full, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Hung(f"`{' '.join(cmd[:3])} ...` under valgrind did not end within {timeout:g} s")
    for line in r.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1])
    sys.exit(f"{' '.join(full)}: no instruction count ({r.returncode}): {r.stderr[-500:]}")


def ludic_instructions(binary, game, options, playouts, seed, timeout):
    """(instructions a playout, instructions a decision) of ludic's bench."""
    def run(n):
        cmd = [binary, "bench", game, "--playouts", str(n), "--seed", str(seed), "--format", "json"]
        for o in options:
            cmd += ["-o", o]
        ir = callgrind(cmd, timeout)
        row = json.loads(subprocess.run(cmd, capture_output=True, text=True).stdout)[0]
        return ir, row["decisions"]
    (ir1, d1), (irn, dn) = run(1), run(playouts)
    return (irn - ir1) / (playouts - 1), (irn - ir1) / max(dn - d1, 1)


def spiel_instructions(spec, simulations, seed, uct_c, per_search, timeout):
    """OpenSpiel's instructions a simulation of MCTSBot's search."""
    def run(n):
        args = [spec, str(n), str(seed), repr(uct_c), str(per_search or 0)]
        return callgrind([sys.executable, "-c", SPIEL_CHILD, *args], timeout)
    return (run(simulations) - run(0)) / simulations


def instructions_table(args, keys, files):
    """`--instructions`: the table by valgrind's counts."""
    print(f"load at start (/proc/loadavg): {loadavg()} (instruction counts do not depend on it)")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in keys:
            label, lspec, lopts, sspec, _ = GAMES[k]
            game_arg, why = resolve_ludic_game(files.get(k, lspec), tmp)
            if game_arg is None:
                rows.append(f"| {label} | – | – | – | – | {why} |")
                continue
            game = pyspiel.load_game(sspec)
            timeout = 100 * args.timeout
            try:
                ln = max(calibrate_ludic(args.ludic, game_arg, lopts, args.seconds, args.timeout), 2)
                sn = calibrate_spiel(game, args.seconds, args.uct_c, args.per_search)
                lp, ld = ludic_instructions(args.ludic, game_arg, lopts, ln, 1, timeout)
                sp = spiel_instructions(sspec, sn, 1, args.uct_c, args.per_search, timeout)
            except Hung as e:
                rows.append(f"| {label} | – | – | – | – | not measured: {e} |")
                continue
            row = f"| {label} | {lp:,.0f} | {sp:,.0f} | {sp / lp:.2f} | {ld:,.0f} | {ln:,} / {sn:,} |"
            print(row, file=sys.stderr, flush=True)
            rows.append(row)
    print()
    print(
        "| game | ludic instructions a playout | OpenSpiel instructions a simulation "
        "| ratio (OpenSpiel / ludic) | ludic instructions a decision | playouts (ludic / OpenSpiel) |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        print(r)


def fmt(x):
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--games",
        default=",".join(GAMES),
        help=f"comma-separated, of: {', '.join(GAMES)} (default: all)",
    )
    ap.add_argument("--rounds", type=int, default=5, help="runs of each side a game (default 5)")
    ap.add_argument("--seconds", type=float, default=1.5, help="CPU-seconds of one run (default 1.5)")
    ap.add_argument(
        "--ludic",
        default=str(ROOT / "target" / "release" / "ludic"),
        help="the ludic binary (default: this checkout's release build)",
    )
    ap.add_argument(
        "--uct-c",
        type=float,
        default=1e9,
        help="MCTSBot's exploration constant (default 1e9: a breadth-first tree, leaves near the start)",
    )
    ap.add_argument(
        "--timeout",
        type=float,
        default=TIMEOUT,
        help=f"wall seconds a run of ludic may take (default {TIMEOUT:g}); past it the game's "
        "row says so",
    )
    ap.add_argument(
        "--per-search",
        type=int,
        metavar="M",
        help="OpenSpiel's run as searches of M simulations each (default: one search of all): a "
        "smaller tree, whose leaves stay nearer the start in a short game",
    )
    ap.add_argument(
        "--file",
        action="append",
        default=[],
        metavar="GAME=PATH",
        help="bench this .game file on ludic's side for GAME (e.g. a file in progress)",
    )
    ap.add_argument(
        "--instructions",
        action="store_true",
        help="count instructions under valgrind instead of timing (independent of the load)",
    )
    args = ap.parse_args()
    files = {}
    for f in args.file:
        k, sep, path = f.partition("=")
        if not sep or k not in GAMES or not os.path.exists(path):
            ap.error(f"--file {f}: not GAME=PATH with a game of the table and an existing file")
        files[k] = os.path.abspath(path)
    keys = [k.strip() for k in args.games.split(",") if k.strip()]
    for k in keys:
        if k not in GAMES:
            ap.error(f"unknown game {k!r}; the games: {', '.join(GAMES)}")
    if not os.access(args.ludic, os.X_OK):
        ap.error(f"no ludic binary at {args.ludic} (cargo build --release)")

    if args.instructions:
        instructions_table(args, keys, files)
        return
    start_load = loadavg()
    print(f"load at start (/proc/loadavg): {start_load}; {os.cpu_count()} CPUs", flush=True)
    print(
        f"ludic: {args.ludic}; OpenSpiel: pyspiel {getattr(pyspiel, '__version__', '?')}, "
        f"MCTSBot uct_c={args.uct_c:g}"
        + (f", searches of {args.per_search} simulations" if args.per_search else ", one search a run")
        + f"; {args.rounds} rounds of ~{args.seconds} CPU-s a side",
        flush=True,
    )
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in keys:
            label, lspec, lopts, sspec, notes = GAMES[k]
            if k in files:
                lspec = files[k]
            game_arg, why = resolve_ludic_game(lspec, tmp)
            if k in files:
                why = "ludic's file given by --file"
            if game_arg is None:
                rows.append(f"| {label} | – | – | – | – | – | – | – | {why} |")
                print(f"{label}: {why}", file=sys.stderr, flush=True)
                continue
            l0 = load1()
            game = pyspiel.load_game(sspec)
            ludic_name = game_arg
            if isinstance(lspec, tuple) or game_arg.startswith(str(ROOT) + os.sep):
                ludic_name = (
                    f"{lspec[1]}:{lspec[2]}" if not game_arg.startswith(str(ROOT))
                    else os.path.relpath(game_arg, ROOT)
                )
            if lopts:
                ludic_name += f" -o {' -o '.join(lopts)}"
            lr, sr, ldec = [], [], []
            try:
                ln = calibrate_ludic(args.ludic, game_arg, lopts, args.seconds, args.timeout)
                sn = calibrate_spiel(game, args.seconds, args.uct_c, args.per_search)
                for r in range(args.rounds):
                    seed = r + 1
                    order = ("ludic", "spiel") if r % 2 == 0 else ("spiel", "ludic")
                    for side in order:
                        if side == "ludic":
                            rate, dec = ludic_rate(
                                args.ludic, game_arg, lopts, ln, seed, args.timeout
                            )
                            lr.append(rate)
                            ldec.append(dec)
                        else:
                            sr.append(spiel_rate(game, sn, seed, args.uct_c, args.per_search))
            except Hung as e:
                hung = str(e).replace(game_arg, ludic_name.split(" -o ")[0])
                why = "; ".join(x for x in (why, f"not measured: {hung}") if x)
                rows.append(f"| {label} | – | – | – | – | – | – | {l0} → {load1()} | {why} |")
                print(f"{label}: {e}", file=sys.stderr, flush=True)
                continue
            slen = spiel_game_length(game)
            lm, sm = statistics.median(lr), statistics.median(sr)
            note = "; ".join(x for x in (notes, why) if x)
            row = (
                f"| {label} | `{ludic_name}` vs `{sspec}` | {fmt(lm)} | {fmt(sm)} | {lm / sm:.2f} "
                f"| {statistics.mean(ldec):.1f} / {slen:.1f} | {args.rounds} ({ln:,} / {sn:,}) "
                f"| {l0} → {load1()} | {note} |"
            )
            rows.append(row)
            print(
                f"{label}: ludic {', '.join(fmt(x) for x in lr)}; OpenSpiel {', '.join(fmt(x) for x in sr)}",
                file=sys.stderr,
                flush=True,
            )
    print()
    print(
        "| game | ludic vs OpenSpiel | ludic playouts/CPU-s | OpenSpiel playouts/CPU-s "
        "| ratio (ludic / OpenSpiel) | moves a random game (ludic decisions / OpenSpiel actions) "
        "| rounds (playouts a run: ludic / OpenSpiel) | load (1 min) start → end | parameters |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---|---|")
    for r in rows:
        print(r)
    print()
    print(f"load at start: {start_load}; at end: {loadavg()}")


if __name__ == "__main__":
    main()
