"""ludic's games as PettingZoo AEC environments (the extra `pettingzoo`: `pip install
.[pettingzoo]`).

    import ludic.pettingzoo
    env = ludic.pettingzoo.env("my-game", {"holes": 7})
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        mask = obs["action_mask"]
        action = None if termination or truncation else env.action_space(agent).sample(mask)
        env.step(action)

The agents are the game's players by name (with teams, each member; a name used twice gets
its number). Only the players decide: chance events (throws, who plays first) are resolved
inside the environment, drawn from its generator (seeded by `reset(seed=...)`). An
observation is a dict: `observation`, ludic's observation tensor (see
`ludic.Game.observation_tensor_layout`), and `action_mask`, 1 for each legal action id. The
reward is the return at the end (1 for the winning side's players, -1 for the others, 0 for
a draw); an episode ends by the rules or by the game's limits (`termination`; a game stopped
by a limit is a draw by ludic's rules, not a truncation). `info["legal_moves"]` lists the legal
ids, `info["notation"]` their notation. `env.state` is the `ludic.State`; `render()` in
`ansi` mode gives the board as the command line draws it.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import ludic

__all__ = ["env", "raw_env", "LudicEnv"]


def env(name_or_path_or_text: str, params: Optional[Dict[str, Any]] = None,
        variant: Optional[str] = None, render_mode: Optional[str] = None) -> "LudicEnv":
    """An AEC environment of a ludic game (a built-in name, a path or a text, with options
    and a variant)."""
    return LudicEnv(name_or_path_or_text, params, variant, render_mode)


raw_env = env


class LudicEnv(AECEnv):
    """A ludic game as a PettingZoo AEC environment (see the module's documentation)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "ludic", "is_parallelizable": False}

    def __init__(self, name_or_path_or_text: str, params=None, variant=None, render_mode=None):
        super().__init__()
        self.game = ludic.load_game(name_or_path_or_text, params, variant)
        self.metadata = dict(self.metadata, name="ludic_" + self.game.name())
        names = self.game.players()
        self.possible_agents = [
            n if names.count(n) == 1 else f"{n}_{i}" for i, n in enumerate(names)
        ]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        n_actions = self.game.num_distinct_actions()
        size = self.game.observation_tensor_size()
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self.render_mode = render_mode
        self.state = None
        self._rng = np.random.default_rng()

    def observation_space(self, agent):
        """The observation space of an agent: a dict of the tensor and the action mask."""
        return self.observation_spaces[agent]

    def action_space(self, agent):
        """The action ids of the game (`num_distinct_actions()` of them)."""
        return self.action_spaces[agent]

    def _resolve_chance(self) -> None:
        """Plays chance events until a player decides or the game ends."""
        st = self.state
        while st.is_chance_node():
            outcomes = st.chance_outcomes()
            probs = np.array([p for _, p in outcomes], dtype=np.float64)
            i = self._rng.choice(len(outcomes), p=probs / probs.sum())
            st.apply_action(outcomes[i][0])

    def _sync(self) -> None:
        """Updates whose turn it is, the rewards and the ends from the state."""
        st = self.state
        if st.is_terminal():
            returns = st.returns()
            for a, i in self._index.items():
                if a in self.agents:
                    self.rewards[a] = returns[i]
                    self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[st.current_player()]
        self._accumulate_rewards()
        for a in self.agents:
            self.infos[a] = self._info(a)

    def _info(self, agent) -> Dict[str, Any]:
        st = self.state
        if not st.is_terminal() and self._index[agent] == st.current_player():
            legal = st.legal_actions()
            return {"legal_moves": legal, "notation": st.legal_action_strings()}
        return {"legal_moves": [], "notation": []}

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        """Starts a new game; `seed` seeds the chance events."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.state = self.game.new_initial_state()
        self._resolve_chance()
        self.agent_selection = self.possible_agents[0]
        self._sync()

    def observe(self, agent) -> Dict[str, np.ndarray]:
        """The tensor (the same for every agent: perfect information) and the agent's action
        mask (all 0 when it is not his turn)."""
        st = self.state
        mask = np.zeros(self.game.num_distinct_actions(), np.int8)
        if not st.is_terminal() and self._index[agent] == st.current_player():
            mask[st.legal_actions()] = 1
        return {"observation": np.asarray(st.observation_tensor(), np.float32), "action_mask": mask}

    def step(self, action) -> None:
        """Plays the selected agent's action (None once he is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        self.state.apply_action(int(action))
        self._resolve_chance()
        self._sync()
        if self.render_mode == "human":
            self.render()

    def render(self):
        """The board as the command line draws it (printed in `human` mode)."""
        if self.state is None:
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
        return text

    def close(self) -> None:
        """Nothing to free."""
