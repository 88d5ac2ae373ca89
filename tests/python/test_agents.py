"""The agents from Python: ludic's bots with pyspiel's Bot interface, play_match with specs
and Python objects (and their forfeits), and the greedy example bot through the command
line's agent protocol."""

import json
import subprocess
import sys

import pytest

import ludic
from conftest import ROOT, ludic_bin

GREEDY = ROOT / "src" / "agents" / "bots" / "greedy_bot.py"


def to_decision(state):
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def test_mcts_bot_is_deterministic_with_playouts_and_a_seed():
    g = ludic.load_game("pallankuzhi")
    s = g.new_initial_state()
    a = [ludic.mcts_bot(g, playouts=200, seed=5).step(s) for _ in range(2)]
    assert a[0] == a[1] and a[0] in s.legal_actions()
    b = ludic.mcts_bot(g, time=0.05, seed=1)
    assert b.step(s) in s.legal_actions()
    assert "mcts" in b.describe()
    with pytest.raises(ValueError):
        ludic.mcts_bot(g, time=1, playouts=10)
    with pytest.raises(ValueError):
        ludic.bot(g, "mcts:depth=3")


def test_a_bot_tells_what_its_last_search_found():
    g = ludic.load_game("pallankuzhi")
    s = to_decision(g.new_initial_state())
    b = ludic.mcts_bot(g, playouts=300, seed=5)
    assert b.last_search is None
    a = b.step(s)
    e = b.last_search
    assert e["playouts"] == 300 and 0 < e["visits"] <= 300
    assert 0.0 <= e["value"] <= 1.0 and e["seconds"] >= 0.0
    assert a in s.legal_actions()
    b.restart()
    assert b.last_search is None
    r = ludic.random_bot(g, seed=1)
    r.step(s)
    assert r.last_search is None


def test_random_bot_and_bots_refuse_what_they_cannot_do():
    g = ludic.load_game("puluc")
    s = g.new_initial_state()
    bot = ludic.random_bot(g, seed=3)
    if s.is_chance_node():
        with pytest.raises(ValueError, match="where a player is to move"):
            bot.step(s)
    s = to_decision(s)
    assert bot.step(s) in s.legal_actions()
    other = ludic.load_game("pallankuzhi")
    with pytest.raises(TypeError, match="another game"):
        ludic.random_bot(other).step(s)
    # the same game loaded again is the same game
    assert ludic.random_bot(ludic.load_game("puluc")).step(s) in s.legal_actions()
    with pytest.raises(TypeError):
        bot.step("not a state")
    bot.inform_action(s, s.current_player(), s.legal_actions()[0])
    bot.restart()


def test_play_match_scores_add_up_and_mcts_beats_random():
    g = ludic.load_game("pallankuzhi", {"max_turns": 200})
    m = ludic.play_match(g, ["mcts:playouts=300", "random"], games=4, seed=2)
    assert m["wins"] + m["draws"] + m["losses"] == 4
    assert m["score"] >= 0.5
    assert len({x["a_side"] for x in m["games"]}) == 2


class FirstLegal:
    """A Python agent: the first legal action."""

    def step(self, state):
        return state.legal_actions()[0]


class Broken:
    def __init__(self, answer):
        self.answer = answer

    def step(self, state):
        if self.answer == "raise":
            raise RuntimeError("out of ideas")
        return self.answer


def test_python_objects_play_matches_and_forfeit_when_they_misbehave():
    g = ludic.load_game("puluc", {"max_turns": 40})
    m = ludic.play_match(g, [FirstLegal(), "random"], games=2, seed=1, record=True)
    assert len(m["games"]) == 2 and all(x["record"] for x in m["games"])
    for bad, says in [("raise", "raised"), (10**6, "not a legal action id"), ("sow", "not an action id")]:
        m = ludic.play_match(g, [Broken(bad), "random"], games=1, seed=1)
        game = m["games"][0]
        assert game["reason"] == "forfeit" and m["losses"] == 1
        assert says in game["result"]["forfeit"]["reason"]
    with pytest.raises(ValueError):
        ludic.play_match(g, ["random"], games=1)
    with pytest.raises(ValueError):
        ludic.play_match(g, [object(), "random"], games=1)


def test_the_greedy_example_bot_plays_through_the_protocol(tmp_path):
    spec = f"cmd:{sys.executable} {GREEDY}"
    for name in ["pallankuzhi", "puluc"]:
        r = subprocess.run(
            [ludic_bin(), "match", name, "--agent", spec, "--agent", "random", "-n", "2",
             "--seed", "3", "--format", "json", "-o", "max_turns=80"],
            capture_output=True, text=True, timeout=300,
        )
        assert r.returncode == 0, r.stderr
        out = json.loads(r.stdout)
        assert "forfeit" not in json.dumps(out.get("reasons", {})), out
