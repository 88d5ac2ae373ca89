#!/usr/bin/env python3
"""A ludic agent that looks one decision ahead: the agent protocol's example with the Python
package (`pip install .`).

    ludic match GAME --agent 'cmd:python3 src/agents/bots/greedy_bot.py' --agent random -n 10

At each `decide` it rebuilds the position from the protocol's `history` with the package,
tries each legal decision on a copy, and plays the one that leaves its side best off: a won
game first, then the largest lead in score (its players' scores minus the others'); ties go
to the first. Deterministic: no randomness at all.
"""
import json
import sys

import ludic

game, me = None, []
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "game":
        game = ludic.load_game(msg["game"], msg["options"])
        me = [game.players().index(p) for p in msg["you"]]
    elif msg["type"] == "decide":
        state = game.state_from_history(msg["history"])
        names = game.players()

        def value(action):
            after = state.clone()
            after.apply_action(action)
            scores = after.to_json()["scores"]
            lead = sum(scores[names[p]] * (1 if p in me else -1) for p in range(len(names)))
            return (after.returns()[me[0]], lead)

        best = max((c["id"] for c in msg["legal"]), key=value)
        print(json.dumps({"id": best}), flush=True)
    elif msg["type"] == "quit":
        break
