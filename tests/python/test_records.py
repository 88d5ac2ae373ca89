"""Records both ways between Python and the command line, and the same seed giving the same
game from Python (play_match) and from `ludic match`."""

import json
import random
import subprocess
import sys

import pytest

import ludic
from conftest import ROOT, ludic_bin, random_playout


def cli(*args, **kw):
    return subprocess.run([ludic_bin(), *args], capture_output=True, text=True, **kw)


@pytest.mark.parametrize("name,params", [("pallankuzhi", None), ("puluc", None),
                                         ("kuilichi-chanakua", {"team_size": 2}),
                                         ("ceelkoqyuqkoqiji", {"holes": 7})])
def test_a_game_recorded_in_python_replays_with_the_cli(tmp_path, name, params):
    g = ludic.load_game(name, params)
    s = random_playout(g.new_initial_state(), random.Random(4))
    path = tmp_path / "game.json"
    path.write_text(s.to_record(seed=4, agents={p: "python" for p in g.players()}))
    r = cli("replay", str(path), "--format", "json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == s.to_json()
    # and a game cut in the middle
    part = g.state_from_history(s.history()[: len(s.history()) // 2])
    path.write_text(part.to_record())
    r = cli("replay", str(path), "--format", "json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == part.to_json()


def test_a_cli_record_loads_in_python(tmp_path):
    d = tmp_path / "recs"
    r = cli("match", "puluc", "--agent", "random", "--agent", "mcts:playouts=30", "-n", "2",
            "--seed", "9", "--record-dir", str(d))
    assert r.returncode == 0, r.stderr
    for f in sorted(d.iterdir()):
        text = f.read_text()
        s = ludic.load_record(text)
        rec = json.loads(text)
        assert s.is_terminal() and s.result() == rec["result"]
        assert len(s.history()) == len(rec["steps"])
        # and back: the same steps
        assert json.loads(s.to_record(seed=9))["steps"] == rec["steps"]
    with pytest.raises(ValueError, match="not a ludic record"):
        ludic.load_record("{}")
    bad = json.loads(text)
    bad["steps"][0] = {"type": "decision", "player": "nobody", "notation": "fly"}
    with pytest.raises(ValueError, match="step 1"):
        ludic.load_record(json.dumps(bad))


@pytest.mark.parametrize("name", ["pallankuzhi", "puluc"])
def test_the_same_seed_gives_the_same_games_as_ludic_match(tmp_path, name):
    agents = ["mcts:playouts=40", "random"]
    d = tmp_path / "recs"
    r = cli("match", name, "--agent", agents[0], "--agent", agents[1], "-n", "3", "--seed", "11",
            "--record-dir", str(d), "-o", "max_turns=60")
    assert r.returncode == 0, r.stderr
    g = ludic.load_game(name, {"max_turns": 60})
    m = ludic.play_match(g, agents, games=3, seed=11, record=True)
    for f, game in zip(sorted(d.iterdir()), m["games"]):
        cli_rec = json.loads(f.read_text())
        py_rec = json.loads(game["record"])
        assert py_rec["steps"] == cli_rec["steps"]
        assert py_rec["result"] == cli_rec["result"]
        assert py_rec["final"] == cli_rec["final"]
        assert py_rec["agents"] == cli_rec["agents"]
