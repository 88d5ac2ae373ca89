"""The core API: loading, playing by action ids, notation, chance, history, observation,
errors, pickling, and the stubs matching the module."""

import ast
import copy
import os
import pathlib
import pickle
import random
import subprocess

import pytest

import ludic
from conftest import ROOT, ludic_bin, random_playout


def test_builtin_games_are_listed_and_load():
    names = ludic.builtin_games()
    assert "puluc" in names and len(names) == 12
    for n in names:
        g = ludic.load_game(n)
        assert g.num_players() >= 2
        assert g.num_distinct_actions() > 0
        assert g.name() == n


def test_load_by_path_text_params_and_variant():
    path = ROOT / "games" / "pallankuzhi.game"
    by_path = ludic.load_game(str(path))
    by_text = ludic.load_game(path.read_text())
    by_name = ludic.load_game("pallankuzhi")
    assert by_path.name() == str(path) and by_text.name() == "<text>"
    assert by_path == by_name == by_text
    g = ludic.load_game("kuilichi-chanakua", {"team_size": 2})
    assert g.num_players() == 4 and len(g.sides()) == 2
    assert g.options()["team_size"] == "2"
    assert g.side_of_players() in ([0, 1, 0, 1], [0, 0, 1, 1])
    v = ludic.load_game("ceelkoqyuqkoqiji", variant="seven holes")
    assert v.options()["holes"] == "7"
    assert ludic.load_game("pallankuzhi", {"chogi": False}).options()["chogi"] == "off"


def test_a_game_with_errors_raises_the_command_lines_message(tmp_path):
    bad = 'game "x" {\n'
    with pytest.raises(ludic.GameError) as e:
        ludic.load_game(bad)
    assert "this `{` is never closed" in str(e.value)
    d = e.value.diagnostics
    assert d[0]["line"] == 1 and d[0]["column"] == 10 and d[0]["severity"] == "error"
    assert d[0]["message"] == "this `{` is never closed" and d[0]["hint"]
    # the same words as `ludic validate`
    f = tmp_path / "bad.game"
    f.write_text(bad)
    with pytest.raises(ludic.GameError) as e:
        ludic.load_game(str(f))
    cli = subprocess.run([ludic_bin(), "validate", str(f)], capture_output=True, text=True)
    assert cli.returncode != 0
    for line in str(e.value).splitlines():
        assert line in cli.stdout + cli.stderr, line


def test_bad_names_options_and_variants_are_game_errors():
    with pytest.raises(ludic.GameError, match="no-such-game"):
        ludic.load_game("no-such-game")
    with pytest.raises(ludic.GameError) as e:
        ludic.load_game("puluc", {"no_such_option": 3})
    assert e.value.settings and e.value.diagnostics == []
    with pytest.raises(ludic.GameError):
        ludic.load_game("kuilichi-chanakua", {"team_size": 99})
    with pytest.raises(ludic.GameError):
        ludic.load_game("puluc", variant="no such variant")
    with pytest.raises(ValueError):
        ludic.load_game("puluc", {"team_size": [1]})


def test_random_games_keep_every_promise(config):
    name, params, variant = config
    g = ludic.load_game(name, params, variant)
    rng = random.Random(1)
    n_actions = g.num_distinct_actions()
    s = g.new_initial_state()
    steps = 0
    while not s.is_terminal():
        assert s.observation_tensor() and len(s.observation_tensor()) == g.observation_tensor_shape()[0]
        if s.is_chance_node():
            assert s.current_player() == ludic.CHANCE_PLAYER_ID
            outcomes = s.chance_outcomes()
            assert 0 < len(outcomes) <= g.max_chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            assert s.legal_actions() == [a for a, _ in outcomes]
            a = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            p = s.current_player()
            assert 0 <= p < g.num_players()
            legal = s.legal_actions()
            assert legal == sorted(legal) and all(0 <= a < n_actions for a in legal)
            mask = s.legal_actions_mask()
            assert len(mask) == n_actions and sum(mask) == len(legal)
            assert s.legal_actions(p) == legal and s.legal_actions(p + 1 if p == 0 else 0) == []
            a = rng.choice(legal)
            text = s.action_to_string(a)
            assert s.action_to_string(p, a) == text
            assert s.string_to_action(text) == a and s.string_to_action(p, text) == a
        if steps % 7 == 0:
            c = s.clone()
            c.apply_action(a)
            assert c.history() == s.history() + [a]
        s.apply_action(a)
        steps += 1
        assert steps <= g.max_game_length()
    assert s.current_player() == ludic.TERMINAL_PLAYER_ID
    assert s.legal_actions() == [] and s.chance_outcomes() == []
    r = s.returns()
    assert len(r) == g.num_players() and all(x in (-1.0, 0.0, 1.0) for x in r)
    if g.utility_sum() is not None:
        assert sum(r) == g.utility_sum()
    assert s.rewards() == r
    assert s.result() is not None
    again = g.deserialize_state(s.serialize())
    assert again.history() == s.history() and again.to_json() == s.to_json()
    assert again == s


def test_illegal_actions_raise_with_the_command_lines_words_and_change_nothing():
    g = ludic.load_game("pallankuzhi")
    s = g.new_initial_state()
    before = s.to_json()
    with pytest.raises(ValueError, match="is not a legal decision here"):
        s.apply_action(g.num_distinct_actions() + 5)
    with pytest.raises(ValueError):
        s.apply_action(-1)
    with pytest.raises(ValueError, match="is not a legal decision here"):
        s.apply_action(next(a for a in range(g.num_distinct_actions()) if a not in s.legal_actions()))
    with pytest.raises(ValueError):
        s.string_to_action("fly to the moon")
    assert s.to_json() == before and s.history() == []
    with pytest.raises(TypeError):
        s.apply_action("sow")
    random_playout(s, random.Random(3))
    with pytest.raises(ValueError, match="the game is over"):
        s.apply_action(0)
    with pytest.raises(ValueError):
        g.deserialize_state("1\nnot a number\n")
    with pytest.raises(ValueError, match="step 1"):
        g.deserialize_state("999999\n")


def test_chance_outcomes_are_named_and_applied_by_number():
    g = ludic.load_game("puluc")
    s = g.new_initial_state()
    while not s.is_chance_node():
        s.apply_action(s.legal_actions()[0])
    names = [s.action_to_string(a) for a, _ in s.chance_outcomes()]
    assert len(set(names)) == len(names)
    a = s.string_to_action(names[-1])
    assert a == s.chance_outcomes()[-1][0]
    with pytest.raises(ValueError):
        s.apply_action(g.max_chance_outcomes())
    s.apply_action(a)


def test_notation_can_be_played_directly():
    g = ludic.load_game("pallankuzhi")
    s = g.new_initial_state()
    text = s.legal_action_strings()[0]
    a = s.apply_notation(text)
    assert s.history() == [a]


def test_observation_tensor_layout_adds_up_and_changes_with_play():
    for n in ludic.builtin_games():
        g = ludic.load_game(n)
        layout = g.observation_tensor_layout()
        assert [p for p, _ in layout] == ["sites", "areas", "captured", "tallies", "turn", "throw", "round"]
        assert sum(l for _, l in layout) == g.observation_tensor_size() == g.observation_tensor_shape()[0]
        s = g.new_initial_state()
        t0 = s.observation_tensor()
        random_playout(s, random.Random(5), limit=20)
        assert s.observation_tensor() != t0
        assert s.observation_string() == str(s)
    g = ludic.load_game("pallankuzhi")
    s = g.new_initial_state()
    counts = s.to_json()["sites"]
    t = s.observation_tensor()
    block = g.observation_tensor_size() // 1  # the site blocks come first
    kinds = len(g.describe()["pieces"])
    per_site = g.observation_tensor_layout()[0][1] // len(g.describe()["sites"])
    for i, site in enumerate(g.describe()["sites"]):
        assert sum(t[i * per_site + 5 : i * per_site + 5 + kinds]) == counts[site["name"]]["count"]
    assert block > 0


def test_games_and_states_pickle_and_copy():
    g = ludic.load_game("kuilichi-chanakua", {"team_size": 2})
    s = random_playout(g.new_initial_state(), random.Random(2), limit=30)
    g2 = pickle.loads(pickle.dumps(g))
    assert g2 == g and hash(g2) == hash(g) and g2.num_players() == 4
    s2 = pickle.loads(pickle.dumps(s))
    assert s2.history() == s.history() and s2.to_json() == s.to_json()
    s3 = copy.deepcopy(s)
    assert s3 == s and s3 is not s
    s3.apply_action(s3.legal_actions()[0])
    assert s3 != s


def test_json_is_the_command_lines():
    g = ludic.load_game("pallankuzhi")
    s = g.new_initial_state()
    j = s.to_json()
    assert j["pending"] == "decision" and j["turn"] == 1 and j["legal"]
    assert set(j) >= {"game", "sites", "tokens", "mover", "captured", "scores", "result", "tallies"}


def stub_names(cls_name=None):
    tree = ast.parse((ROOT / "src/python/ludic/_ludic.pyi").read_text())
    for node in tree.body:
        if cls_name is None:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                yield node.name
            elif isinstance(node, ast.AnnAssign):
                yield node.target.id
        elif isinstance(node, ast.ClassDef) and node.name == cls_name:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and not item.name.startswith("__"):
                    yield item.name
                elif isinstance(item, ast.AnnAssign):
                    yield item.target.id


def test_the_stubs_name_what_the_module_has():
    from ludic import _ludic

    public = {n for n in dir(_ludic) if not n.startswith("_")}
    assert set(stub_names()) == public
    for cls in ["Game", "State", "Bot"]:
        have = {n for n in dir(getattr(_ludic, cls)) if not n.startswith("_")}
        assert set(stub_names(cls)) == have, cls


def test_every_method_has_a_docstring():
    from ludic import _ludic

    for cls in [ludic.Game, ludic.State, ludic.Bot]:
        for n in dir(cls):
            if not n.startswith("_"):
                assert getattr(cls, n).__doc__, f"{cls.__name__}.{n}"
    for n in ["load_game", "load_record", "builtin_games", "mcts_bot", "random_bot"]:
        assert getattr(_ludic, n).__doc__, n
