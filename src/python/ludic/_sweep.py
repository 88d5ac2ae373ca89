"""Sweeps of rule sets from Python: `ludic.sweep` (this module's `sweep`; the module is
`ludic._sweep`, so that `ludic.sweep` stays the function) plays every point of a grid of
options (and variants) as `ludic sweep` does, in this process or on a Ray cluster.

    import ludic
    s = ludic.sweep("my-game", {"stones": "4..8/2", "capture": ["on", "off"]}, games=1000)
    for p in s["points"]:
        print(p["label"], p.get("error") or p["study"]["metrics"]["first_player_score"]["value"])

    import ray
    ray.init(address="auto")              # or cluster="ray://head:10001", or "auto"
    s = ludic.sweep("my-game", {"stones": "4..40/2"}, games=100_000, shards=8)

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
import time
from typing import (
    Any,
    Callable,
    Dict,
    Iterable,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Union,
)

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
    (`["on", "off"]`, `[4, 6, 8]`), a `range` (its values) or one value; as with `-o`, one
    value (alone or in a list) is the same for every point, not an axis. A fixed option is
    one value.

    >>> grid_settings({"stones": "4..8/2", "capture": ["on", "off"]}, {"max_turns": 500})
    ['stones=4..8/2', 'capture=on,off', 'max_turns=500']
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
                if "," in w or ".." in w:
                    raise ValueError(
                        f"the value `{w}` of the option `{name}` in a list is one value: a "
                        "comma or `..` is written in a string (`\"4..8/2\"`, `\"on,off\"`)"
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


Task = Tuple[int, int, int]


def _on_ray(ray, spec: str, tasks: List[Task], jobs: int, done: Callable[[Task, str], None]):
    """The tasks as Ray tasks, `jobs` CPUs each; `done(task, result)` as each comes back. On
    an error or Ctrl-C, the tasks not done are cancelled."""
    remote = ray.remote(num_cpus=jobs, max_retries=1)(_run_task)
    refs = {remote.remote(spec, k, i, n, jobs): (k, i, n) for (k, i, n) in tasks}
    pending = list(refs)
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=len(pending), timeout=1.0)
            for r in ready:
                done(refs[r], ray.get(r))
    except BaseException:
        for r in pending:
            try:
                ray.cancel(r)
            except Exception:
                pass
        raise


class _Parts:
    """The results so far: the points kept from `output`, the points whose every shard is
    done, and the shards of the others; written to `output` (merged, as a whole file, by a
    rename) at most every `every` seconds and when asked."""

    def __init__(self, path: Optional[str], kept: Optional[str], shards: int, every: float):
        self.path, self.shards, self.every = path, shards, every
        self.whole: List[str] = [kept] if kept else []
        self.waiting: Dict[int, List[str]] = {}
        self.written = time.monotonic()
        self.new = False

    def add(self, task: Task, result: str) -> None:
        k = task[0]
        got = self.waiting.setdefault(k, [])
        got.append(result)
        if len(got) == self.shards:
            self.whole.extend(self.waiting.pop(k))
            self.new = True
            if time.monotonic() - self.written >= self.every:
                self.write()

    def merged(self) -> str:
        return _ludic.sweep_merge(self.whole)

    def write(self, text: Optional[str] = None) -> None:
        """Writes the points done (all of them: `text`, the merged sweep) to the output."""
        if self.path is None or not (self.whole or text):
            return
        text = text if text is not None else self.merged()
        tmp = self.path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text + "\n")
        os.replace(tmp, self.path)
        self.written, self.new = time.monotonic(), False


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
      it (`ludic merge`, `ludic report` and a resumed `ludic sweep` read it): the points done
      so far every 10 seconds and when stopped (Ctrl-C, an error), the whole at the end. When
      it exists, the sweep resumes it: its points played whole are kept as they are and only
      the others are played (`ValueError` if it holds another sweep).

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
    path = os.fspath(output) if output is not None else None
    kept = None
    if path is not None and os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            kept, indices = _ludic.sweep_resume(spec, f.read(), path)
        skip = set(indices)
        tasks = [t for t in tasks if t[0] not in skip]
    parts = _Parts(path, kept, shards, every=10.0)
    ray, ours = _ray_module(cluster) if tasks else (None, False)
    try:
        if ray is None:
            threads = jobs if jobs is not None else (os.cpu_count() or 1)
            for t in tasks:
                parts.add(t, _ludic.sweep_task(spec, t[0], t[1], t[2], threads))
        else:
            _on_ray(ray, spec, tasks, jobs if jobs is not None else 1, parts.add)
    except BaseException:
        if parts.new:
            parts.write()  # the points done are kept: the same call again plays the others
        raise
    finally:
        if ours:
            ray.shutdown()
    text = parts.merged()
    parts.write(text)
    return json.loads(text)
