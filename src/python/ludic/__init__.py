"""ludic from Python: traditional board games described in a small language, played through
an API that follows OpenSpiel's (pyspiel's) vocabulary.

    import ludic
    game = ludic.load_game("my-game", {"holes": 7})   # a built-in name, a path, or a text
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(random.choices(actions, probs)[0])
        else:
            state.apply_action(random.choice(state.legal_actions()))
    print(state.returns())

The core (`Game`, `State`, `Bot`, `load_game`, `load_record`, `GameError`) is the extension
module `ludic._ludic`, a thin layer over the Rust library's public API. `ludic.openspiel`
turns a game into a real `pyspiel.Game` (extra `open-spiel`), `ludic.pettingzoo` into an AEC
environment (extra `pettingzoo`). `play_match` plays games between agents as `ludic match`
does; `sweep` plays a study of every point of a grid of options as `ludic sweep` does, here or
on a Ray cluster.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Union

from ._ludic import (
    CHANCE_PLAYER_ID,
    INVALID_PLAYER_ID,
    TERMINAL_PLAYER_ID,
    Bot,
    Game,
    GameError,
    State,
    builtin_games,
    load_game,
    load_record,
    mcts_bot,
    play_match,
    random_bot,
)
from ._sweep import sweep

__all__ = [
    "CHANCE_PLAYER_ID",
    "INVALID_PLAYER_ID",
    "TERMINAL_PLAYER_ID",
    "Bot",
    "Game",
    "GameError",
    "State",
    "builtin_games",
    "load_game",
    "load_record",
    "mcts_bot",
    "play_match",
    "random_bot",
    "bot",
    "sweep",
]

__version__ = "0.1.0"


def bot(game: Game, spec: str, seed: int = 0) -> Bot:
    """A bot from an agent spec as the command line writes it (`random`, `mcts`,
    `mcts:playouts=2000,c=1.4`, `mcts:time=500ms`), its random choices seeded with `seed`."""
    return Bot(game, spec, seed)
