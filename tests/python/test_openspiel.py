"""ludic.openspiel: every built-in game and variant is a real pyspiel.Game that OpenSpiel's
own random_sim_test accepts, and that its MCTSBot and evaluate_bots play."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import ludic
import ludic.openspiel as lo
from open_spiel.python.algorithms import evaluate_bots, mcts


def test_random_sim_test_passes(config):
    name, params, variant = config
    game = lo.load_game(name, params, variant)
    assert isinstance(game, pyspiel.Game)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_the_game_reads_as_ludic_says():
    game = lo.load_game("kuilichi-chanakua", {"team_size": 2})
    core = ludic.load_game("kuilichi-chanakua", {"team_size": 2})
    assert game.num_players() == 4 == core.num_players()
    assert game.num_distinct_actions() == core.num_distinct_actions()
    assert game.get_type().short_name == "ludic_kuilichi-chanakua"
    assert game.get_parameters()["team_size"] == 2
    s = game.new_initial_state()
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    assert s.legal_actions() == s.ludic_state.legal_actions()
    assert s.observation_tensor() == pytest.approx(s.ludic_state.observation_tensor())
    assert game.observation_tensor_shape() == core.observation_tensor_shape()
    assert str(s) == str(s.ludic_state)


def test_pyspiel_loads_registered_games_by_name_and_parameters():
    names = lo.register_builtin_games()
    assert names["pallankuzhi"] == "ludic_pallankuzhi"
    g = pyspiel.load_game("ludic_ceelkoqyuqkoqiji(holes=7)")
    assert g.ludic_game.options()["holes"] == "7"
    g = pyspiel.load_game("ludic_ceelkoqyuqkoqiji", {"variant": "seven holes"})
    assert g.ludic_game.options()["stones"] == "7"


def test_bad_options_raise_ludics_error():
    with pytest.raises(ludic.GameError):
        lo.load_game("puluc", {"no_such_option": 1})


def test_a_game_from_a_text_registers_under_its_hash(tmp_path):
    text = (tmp_path / "x.game")
    import pathlib

    src = (pathlib.Path(__file__).resolve().parents[2] / "games" / "puluc.game").read_text()
    game = lo.load_game(src)
    assert game.get_type().short_name.startswith("ludic_")
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("name", ["pallankuzhi", "puluc"])
def test_openspiels_mcts_plays_ludic_games_with_evaluate_bots(name):
    game = lo.load_game(name, {"max_turns": 30})
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        mcts.MCTSBot(game, 1.4, 20, evaluator, random_state=rng, solve=False),
        mcts.MCTSBot(game, 1.4, 5, evaluator, random_state=rng, solve=False),
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert len(returns) == 2 and sum(returns) == 0
