"""Sweeps of rule sets from Python: `ludic.sweep` (this module's `sweep`; the module is
`ludic._sweep`, so that `ludic.sweep` stays the function) plays every point of a grid of
options (and variants) as `ludic sweep` does, in this process or on a Ray cluster.

    import ludic
    s = ludic.sweep("pallankuzhi", {"seeds": "4..8/2", "muthu": ["on", "off"]}, games=1000)
    for p in s["points"]:
        print(p["label"], p.get("error") or p["study"]["metrics"]["first_player_score"])

    import ray
    ray.init(address="auto")              # or cluster="ray://head:10001", or "auto"
    s = ludic.sweep("pallankuzhi", {"seeds": "4..40/2"}, games=100_000, shards=8)

A sweep is planned once (`_ludic.sweep_plan`: the grid checked against the game), split into
tasks (each point, or each of its `shards`), each task played natively by `_ludic.sweep_task`
(the engine in Rust on `jobs` threads, the GIL released: no Python in the playout loop), and
the tasks' results merged by `_ludic.sweep_merge` exactly as `ludic merge` merges the files of
`ludic sweep --plan`: the same seed gives the same metrics and statistics whatever the number
of workers and shards.

Ray is optional (`pip install ludic[ray]`); it is imported only when a cluster is used.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import _ludic

__all__ = ["sweep", "grid_settings"]

Value = Union[str, int, bool]
GridValue = Union[str, int, bool, range, Sequence[Value]]

# The timing fields of a study: they differ from run to run, everything else is determined by
# the seed.
TIMING_FIELDS = ("seconds", "moves_per_second", "playouts_per_second", "threads")


def _word(name: str, v: Any) -> str:
    """An option's value as `-o NAME=VALUE` writes it (`True`/`False` are `on`/`off`)."""
    if isinstance(v, bool):
        return "on" if v else "off"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        if v.strip() == "":
            raise ValueError(f"the option `{name}` has an empty value")
        return v
    raise ValueError(
        f"a value of the option `{name}` must be an int, a bool or a string, not "
        f"{type(v).__name__} ({v!r})"
    )


def grid_settings(
    grid: Optional[Mapping[str, GridValue]], options: Optional[Mapping[str, Value]] = None
) -> List[str]:
    """The `-o NAME=SPEC` settings of `ludic sweep` for a grid and fixed options, in the
    grid's order (the first axis varies slowest).

    A grid's value is a string as `-o` takes it (`"4..8/2"`, `"on,off"`), a list of values
    (`["on", "off"]`, `[4, 6, 8]`), a `range` (its values) or one value (the same for every
    point); a fixed option is one value.

    >>> grid_settings({"seeds": "4..8/2", "muthu": ["on", "off"]}, {"max_turns": 500})
    ['seeds=4..8/2', 'muthu=on,off', 'max_turns=500']
    """
    out: List[str] = []
    seen = set()
    for name, v in (grid or {}).items():
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"an option's name must be a non-empty string, not {name!r}")
        if isinstance(v, range):
            v = list(v)
        if isinstance(v, (list, tuple)):
            if not v:
                raise ValueError(f"the option `{name}` has no values in the grid")
            words = [_word(name, x) for x in v]
            for w in words:
                if "," in w:
                    raise ValueError(
                        f"the value `{w}` of the option `{name}` has a comma, which separates "
                        "values"
                    )
            spec = ",".join(words)
        else:
            spec = _word(name, v)
        out.append(f"{name}={spec}")
        seen.add(name)
    for name, v in (options or {}).items():
        if name in seen:
            raise ValueError(
                f"the option `{name}` is both in the grid and in options; give it once"
            )
        w = _word(name, v)
        if "," in w or ".." in w:
            raise ValueError(
                f"options sets one value for every point (`{name}={w}` is several): put "
                "it in the grid"
            )
        out.append(f"{name}={w}")
    return out


def _run_task(spec: str, index: int, shard: int, shards: int, jobs: int) -> str:
    """One task (a point, or a shard of one): what a Ray worker runs."""
    from ludic import _ludic as native  # in a Ray worker, imported there

    return native.sweep_task(spec, index, shard, shards, jobs)


def _ray_module(cluster: Optional[str]):
    """Ray when this sweep uses it (initialised by the caller, or `cluster` given), else None;
    and whether it was initialised here."""
    if cluster == "local":
        return None, False
    if cluster is None:
        ray = sys.modules.get("ray")
        if ray is None or not ray.is_initialized():
            return None, False
        return ray, False
    try:
        import ray
    except ImportError as e:
        raise ImportError(
            f"cluster={cluster!r} needs Ray: pip install 'ludic[ray]' (or pip install ray)"
        ) from e
    if ray.is_initialized():
        return ray, False
    ray.init(address=cluster)
    return ray, True


def _on_ray(ray, spec: str, tasks: List[Tuple[int, int, int]], jobs: int) -> List[str]:
    """The tasks as Ray tasks, `jobs` CPUs each; their results in the order of `tasks`."""
    remote = ray.remote(num_cpus=jobs, max_retries=1)(_run_task)
    refs = [remote.remote(spec, k, i, n, jobs) for (k, i, n) in tasks]
    try:
        return ray.get(refs)
    except BaseException:
        for r in refs:
            try:
                ray.cancel(r)
            except Exception:
                pass
        raise


def sweep(
    game: str,
    grid: Optional[Mapping[str, GridValue]],
    *,
    games: int = 1000,
    seed: int = 1,
    variants: Iterable[str] = (),
    options: Optional[Mapping[str, Value]] = None,
    agents: Iterable[str] = (),
    quick: bool = False,
    shards: int = 1,
    jobs: Optional[int] = None,
    cluster: Optional[str] = None,
    output: Optional[Union[str, "os.PathLike[str]"]] = None,
) -> Dict[str, Any]:
    """Plays a sweep as `ludic sweep GAME -o … --variant … -n GAMES --seed SEED` does and
    returns it as a dict in the `ludic-sweep-1` format (its "points" in grid order, each with
    the "study" `ludic simulate --format json` writes, or the game's "error" for a point whose
    options it refuses).

    - `game`: a built-in game's name or a `.game` file's path (on a cluster, a path every
      worker can read);
    - `grid`: option name -> values, the axes in order (the first varies slowest): a string as
      `-o` takes it (`"3..8"`, `"4..8/2"`, `"on,off"`), a list of values, a `range`;
    - `variants`: an axis of variants, after the options' (`"default"`: the rules without one);
    - `options`: options set to one value for every point;
    - `games` per point, `seed` (every point is played with it), `agents` as `--agent` takes
      them (none: random playouts), `quick`: only the cheap metrics;
    - `shards`: each point split into this many tasks of its games (they merge exactly);
    - `jobs`: threads a task plays on (default: every core here; 1 on a cluster, a Ray task
      asking for that many CPUs);
    - `cluster`: None plays here, unless Ray was initialised by the caller (then on it);
      `"auto"` or `"ray://host:10001"` connects (`ray.init(address=cluster)`) and shuts down
      after; `"local"` plays here even when Ray is initialised;
    - `output`: a file the sweep is written to, as `ludic sweep --format json --output` writes
      it (`ludic merge`, `ludic report` and a resumed `ludic sweep` read it).

    Raises `ValueError` when the grid or the settings do not fit the game (the message of
    `ludic sweep`), `GameError` when the game does not load, `KeyboardInterrupt` on Ctrl-C.
    """
    if isinstance(variants, str) or isinstance(agents, str):
        raise TypeError("variants and agents are lists of strings, not one string")
    settings = grid_settings(grid, options)
    spec, _points, tasks = _ludic.sweep_plan(
        str(game),
        settings,
        list(variants),
        games,
        seed,
        list(agents),
        quick,
        shards,
    )
    ray, ours = _ray_module(cluster)
    try:
        if ray is None:
            threads = jobs if jobs is not None else (os.cpu_count() or 1)
            results = [_ludic.sweep_task(spec, k, i, n, threads) for (k, i, n) in tasks]
        else:
            results = _on_ray(ray, spec, tasks, jobs if jobs is not None else 1)
    finally:
        if ours:
            ray.shutdown()
    text = _ludic.sweep_merge(results)
    if output is not None:
        path = os.fspath(output)
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text + "\n")
        os.replace(tmp, path)
    return json.loads(text)
