"""Shared fixtures of the Python tests: the built-in games with each variant, and the path of
the command line binary (`LUDIC_BIN`, set by tests/python.rs; else target/release/ludic)."""

import os
import pathlib
import random

import pytest

import ludic

ROOT = pathlib.Path(__file__).resolve().parents[2]


def ludic_bin() -> str:
    return os.environ.get("LUDIC_BIN", str(ROOT / "target" / "release" / "ludic"))


def configurations():
    """Every built-in game with its default settings, each of its variants, and options that
    change the shape of the game (teams)."""
    out = []
    for name in ludic.builtin_games():
        out.append((name, None, None))
        for v in ludic.load_game(name).variants():
            out.append((name, None, v["name"]))
        opts = {o["name"] for o in ludic.load_game(name).option_descriptions()}
        if "team_size" in opts:
            out.append((name, {"team_size": 2}, None))
    return out


CONFIGS = configurations()


def config_id(c):
    name, params, variant = c
    s = name
    if params:
        s += "-" + ",".join(f"{k}={v}" for k, v in params.items())
    if variant:
        s += "-" + variant.replace(" ", "_")
    return s


def random_playout(state, rng: random.Random, limit: int = 100000):
    """Plays random actions (chance by its probabilities) to the end; returns the state."""
    n = 0
    while not state.is_terminal() and n < limit:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        n += 1
    return state


@pytest.fixture(params=CONFIGS, ids=[config_id(c) for c in CONFIGS])
def config(request):
    return request.param
