#!/usr/bin/env python3
"""A ludic agent that plays uniformly at random: the agent protocol's smallest example.

    ludic match GAME --agent 'cmd:python3 src/agents/bots/random_bot.py' --agent mcts -n 10

It reads JSON lines on its standard input (see "The agent protocol" in README.md) and
answers each `decide` with the id of a legal decision, drawn from a generator seeded by
the game's seed, its number in the run and the players it plays: the same game twice
gives the same answers.
"""
import json
import random
import sys

rng = random.Random(0)
for line in sys.stdin:
    msg = json.loads(line)
    kind = msg.get("type")
    if kind == "game":
        # one generator a game, from what ludic says of it
        rng = random.Random(f"{msg['seed']}/{msg['index']}/{'+'.join(msg['you'])}")
    elif kind == "decide":
        choice = rng.choice(msg["legal"])
        print(json.dumps({"id": choice["id"]}), flush=True)
    elif kind == "quit":
        break
    # "step" and "end" need no answer
