"""ludic's games as OpenSpiel games (the extra `open-spiel`: `pip install .[openspiel]`).

    import pyspiel
    import ludic.openspiel
    game = ludic.openspiel.load_game("my-game", {"holes": 7})   # a real pyspiel.Game
    pyspiel.random_sim_test(game, num_sims=10, serialize=False, verbose=False)

Each game is registered with pyspiel as a Python game, named `ludic_` and its file stem for a
built-in game (`ludic_my-game`; `pyspiel.load_game("ludic_my-game(holes=7)")` works once
`ludic.openspiel.register_builtin_games()` ran), or `ludic_` and its source hash for a path or
a text. Its parameters are the game's options (typed as OpenSpiel wants them: ints, bools for
`on`/`off`, strings for words) and `variant` (an option left at its default does not undo what the variant sets). OpenSpiel's
algorithms (MCTSBot,
`evaluate_bots`, CFR on small games...) then run on it unchanged.

The state wraps a `ludic.State` (`.ludic_state`): the action ids, the chance outcomes' numbers
and their notation are ludic's own. The observation tensor is ludic's (see
`ludic.Game.observation_tensor_layout`); the observation string is the board as the command
line draws it; the information state string (perfect information) is the history.
"""

from __future__ import annotations

import atexit
from typing import Any, Dict, Optional

import numpy as np
import pyspiel

import ludic

__all__ = ["load_game", "register", "register_builtin_games", "LudicGame", "LudicState"]

# short name -> (what load_game loads, the GameType)
_REGISTERED: Dict[str, Any] = {}

# The games made: pyspiel keeps the games it loaded until the C++ side exits, after Python
# has finalized; a game that still held a `ludic.Game` (an object of the extension) then would
# free it without the interpreter and abort. At exit, before finalization, they let it go.
_MADE: list = []


@atexit.register
def _release_games() -> None:
    for g in _MADE:
        g.__dict__.pop("ludic_game", None)
    _MADE.clear()


def _typed(value: str, default: str):
    """An option's value typed as OpenSpiel wants it: int, bool (on/off) or str."""
    if default in ("on", "off"):
        return value == "on"
    try:
        return int(value)
    except ValueError:
        return value


def _spec_of(core: ludic.Game) -> Dict[str, Any]:
    """The parameters of a ludic game in OpenSpiel: its options with their defaults, and
    `variant` (empty: none)."""
    spec = {o["name"]: _typed(o["default"], o["default"]) for o in core.option_descriptions()}
    spec["variant"] = ""
    return spec


def _core_game(source: str, params: Dict[str, Any], spec: Dict[str, Any]) -> ludic.Game:
    """The ludic game of an OpenSpiel game's source and parameters. pyspiel gives every
    parameter, at its default when not set: an option at its default value is left out, so
    that it does not undo what the variant sets."""
    opts = {k: v for k, v in params.items() if k != "variant" and spec.get(k) != v}
    variant = params.get("variant") or None
    return ludic.load_game(source, opts, variant)


def register(source: str) -> str:
    """Registers a ludic game (a built-in name, a path or a text) with pyspiel; returns its
    short name (`ludic_NAME` for a built-in game, `ludic_HASH` else). Registering again is a
    no-op."""
    core = ludic.load_game(source)
    builtin = core.name() in ludic.builtin_games()
    short = "ludic_" + (core.name() if builtin else core.source_hash()[:16])
    if short in _REGISTERED:
        return short
    t = core.get_type()
    chance = (
        pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        if t["chance_mode"] == "explicit_stochastic"
        else pyspiel.GameType.ChanceMode.DETERMINISTIC
    )
    utility = (
        pyspiel.GameType.Utility.ZERO_SUM
        if t["utility"] == "zero_sum"
        else pyspiel.GameType.Utility.GENERAL_SUM
    )
    game_type = pyspiel.GameType(
        short_name=short,
        long_name="ludic: " + core.title(),
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=64,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_spec_of(core),
    )
    _REGISTERED[short] = (source, game_type)
    pyspiel.register_game(game_type, _factory(short))
    return short


def _factory(short: str):
    """The class pyspiel makes the game with: a subclass of `LudicGame` per short name (a
    class, as OpenSpiel's own Python games register, not a function: pyspiel's registry lets
    go of what it holds after Python has finalized, which a class outlives)."""
    return type("LudicGame_" + short.replace("-", "_"), (LudicGame,), {"_short": short})


def register_builtin_games() -> Dict[str, str]:
    """Registers every built-in game; returns a dict of ludic name -> OpenSpiel short name."""
    return {n: register(n) for n in ludic.builtin_games()}


def load_game(
    name_or_path_or_text: str,
    params: Optional[Dict[str, Any]] = None,
    variant: Optional[str] = None,
) -> pyspiel.Game:
    """A ludic game as a real `pyspiel.Game` (loaded through `pyspiel.load_game`), with its
    options (`params`) and a variant. Raises `ludic.GameError` when the game does not load."""
    short = register(name_or_path_or_text)
    p = dict(params or {})
    if variant:
        p["variant"] = variant
    # checked by ludic first, so that a bad option is ludic's message, not OpenSpiel's
    ludic.load_game(name_or_path_or_text, {k: v for k, v in p.items() if k != "variant"}, variant)
    return pyspiel.load_game(short, p)


class LudicGame(pyspiel.Game):
    """A ludic game registered with pyspiel; `.ludic_game` is the `ludic.Game`."""

    _short = ""

    def __init__(self, params: Optional[Dict[str, Any]] = None):
        source, game_type = _REGISTERED[self._short]
        given = dict(params or {})
        core = _core_game(source, given, game_type.parameter_specification)
        self.ludic_game = core
        info = pyspiel.GameInfo(
            num_distinct_actions=core.num_distinct_actions(),
            max_chance_outcomes=core.max_chance_outcomes(),
            num_players=core.num_players(),
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=core.utility_sum(),
            # OpenSpiel keeps it in a C int: the bound, capped (see ludic.Game.max_game_length)
            max_game_length=min(core.max_game_length(), 2**31 - 1),
        )
        full = _spec_of(core)
        full.update(given)
        super().__init__(game_type, info, full)
        _MADE.append(self)

    def new_initial_state(self) -> "LudicState":
        """The state at the start."""
        return LudicState(self, self.ludic_game.new_initial_state())

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer: ludic's observation tensor and board; with perfect recall (the
        information state), the history as its string."""
        return LudicObserver(self.ludic_game, iig_obs_type)


class LudicState(pyspiel.State):
    """A state of a ludic game in OpenSpiel; `.ludic_state` is the `ludic.State`."""

    def __init__(self, game: LudicGame, core: ludic.State):
        super().__init__(game)
        self.ludic_state = core

    def current_player(self) -> int:
        """The player to move, `pyspiel.PlayerId.CHANCE` or `pyspiel.PlayerId.TERMINAL`."""
        return self.ludic_state.current_player()

    def _legal_actions(self, player: int):
        """The legal action ids of `player` (the mover)."""
        return self.ludic_state.legal_actions(player)

    def chance_outcomes(self):
        """The chance event's outcomes, `(action, probability)`."""
        return self.ludic_state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        """Plays an action (an outcome's number at a chance event)."""
        self.ludic_state.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        """The notation of an action (the outcome's name at a chance event)."""
        return self.ludic_state.action_to_string(action)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.ludic_state.is_terminal()

    def returns(self):
        """1 for the winning side's players, -1 for the others, 0 for a draw."""
        return self.ludic_state.returns()

    def __str__(self) -> str:
        return str(self.ludic_state)


class LudicObserver:
    """OpenSpiel's observer for a ludic game: the observation tensor (ludic's), the board as
    the observation string, the history as the information state string."""

    def __init__(self, core: ludic.Game, iig_obs_type=None):
        self.history_string = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        size = core.observation_tensor_size()
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: LudicState, player: int) -> None:
        """Fills the tensor from a state."""
        self.tensor[:] = state.ludic_state.observation_tensor()

    def string_from(self, state: LudicState, player: int) -> str:
        """The board, or with perfect recall the history."""
        if self.history_string:
            return state.ludic_state.history_str()
        return state.ludic_state.observation_string()
