"""ludic.sweep: a sweep played from Python, here or on a Ray cluster, gives the file that
`ludic sweep` writes, byte for byte but for the timing fields (seconds, per-second rates,
threads), whatever the number of workers and shards.

The Ray tests share one local cluster (`ray.init(num_cpus=2)`, started once for this module:
Ray takes seconds to start)."""

import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import time

import pytest

import ludic
from ludic import _sweep as sweep_module
from ludic import _ludic
from conftest import ludic_bin

GAME = "pallankuzhi"
GRID = {"seeds": "4..8/2", "muthu": ["on", "off"]}
CLI_GRID = ["-o", "seeds=4..8/2", "-o", "muthu=on,off"]
GAMES = 40
SEED = 7

# the timing fields of a study, one a line in the pretty JSON: all that may differ
TIMING = re.compile(r'^\s*"(seconds|moves_per_second|playouts_per_second|threads)": .*\n', re.M)


def without_timing(text: str) -> str:
    return TIMING.sub("", text)


def cli_sweep(tmp_path: pathlib.Path, *args: str) -> str:
    """`ludic sweep` with these arguments, its JSON file's text."""
    out = tmp_path / "cli.json"
    r = subprocess.run(
        [ludic_bin(), "sweep", GAME, *args, "--output", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    return out.read_text()


def py_sweep(tmp_path: pathlib.Path, name: str, grid=GRID, **kw):
    """`ludic.sweep` with these arguments: (its dict, its file's text)."""
    out = tmp_path / name
    kw.setdefault("games", GAMES)
    kw.setdefault("seed", SEED)
    s = ludic.sweep(GAME, grid, output=out, **kw)
    return s, out.read_text()


def test_local_sweep_is_the_binarys(tmp_path):
    """3 x 2 points played in this process (Ray not initialised): the file `ludic sweep`
    writes with the same arguments, byte for byte but for the timing fields."""
    assert "ray" not in sys.modules or not sys.modules["ray"].is_initialized()
    s, text = py_sweep(tmp_path, "py.json")
    cli = cli_sweep(tmp_path, *CLI_GRID, "-n", str(GAMES), "--seed", str(SEED))
    assert without_timing(text) == without_timing(cli)
    assert TIMING.search(text), "the timing fields are where the pattern looks"
    assert s["format"] == "ludic-sweep-1" and s["partial"] is False
    assert [p["label"] for p in s["points"]] == [
        f"seeds={n} muthu={m}" for n in (4, 6, 8) for m in ("on", "off")
    ]
    for p in s["points"]:
        assert p["study"]["requested"] == GAMES and p["study"]["playouts"] == GAMES
        assert p["study"]["options"]["seeds"] == p["point"]["seeds"]
    # the points differ from each other: the grid's settings reached the games
    metrics = {json.dumps(p["study"]["metrics"], sort_keys=True) for p in s["points"]}
    assert len(metrics) == 6


def test_shards_and_threads_do_not_change_the_numbers(tmp_path):
    """Each point in 3 shards on 1 thread, merged, equals each point whole on 2 threads."""
    _, whole = py_sweep(tmp_path, "whole.json", jobs=2)
    _, sharded = py_sweep(tmp_path, "sharded.json", shards=3, jobs=1)
    assert without_timing(sharded) == without_timing(whole)


def test_variants_and_fixed_options_are_the_binarys(tmp_path):
    """A grid of a range, variants as the last axis, an option fixed for every point."""
    grid = {"stones": range(3, 5)}
    kw = dict(variants=["default", "equal stones"], options={"max_turns": 300}, games=20, seed=2)
    s = ludic.sweep("ceelkoqyuqkoqiji", grid, output=tmp_path / "py.json", **kw)
    r = subprocess.run(
        [ludic_bin(), "sweep", "ceelkoqyuqkoqiji", "-o", "stones=3,4", "--variant", "default",
         "--variant", "equal stones", "-o", "max_turns=300", "-n", "20", "--seed", "2",
         "--format", "json"],
        capture_output=True, text=True, timeout=300,
    )
    assert r.returncode == 0, r.stderr
    assert without_timing((tmp_path / "py.json").read_text()) == without_timing(r.stdout)
    assert s["fixed"] == {"max_turns": "300"}
    assert [a["name"] for a in s["axes"]] == ["stones", "variant"]
    assert [p["variant"] for p in s["points"]] == [None, "equal stones"] * 2


def test_an_output_file_is_resumed(tmp_path):
    """An output file holding points 1 and 4 (played whole by `ludic sweep --only`; this
    sweep plays each point in 2 shards): they are kept as they are, timing fields included,
    the others are played, and the whole file is the sweep played in one go (but for the
    timing fields)."""
    out = tmp_path / "resumed.json"
    for k in ("1", "4"):  # the second run resumes the first's file
        text = cli_sweep(tmp_path, *CLI_GRID, "-n", str(GAMES), "--seed", str(SEED), "--only", k)
    out.write_text(text)
    kept = {p["index"]: p for p in json.loads(out.read_text())["points"]}
    assert sorted(kept) == [1, 4]
    s = ludic.sweep(GAME, GRID, games=GAMES, seed=SEED, output=out, shards=2)
    assert [p["index"] for p in s["points"]] == list(range(6))
    for k, p in kept.items():
        assert s["points"][k] == p
    _, whole = py_sweep(tmp_path, "whole.json")
    assert without_timing(out.read_text()) == without_timing(whole)
    assert out.read_text() != whole, "the kept points' timing fields are the first runs'"


def test_a_stopped_sweep_keeps_its_points_and_resumes(tmp_path, monkeypatch):
    """A task failing after two points: the file holds those two; the same call again plays
    only the four others."""
    out = tmp_path / "stopped.json"
    real, played = _ludic.sweep_task, []

    def failing(spec, index, *rest):
        if len(played) == 2:
            raise RuntimeError("a worker lost")
        played.append(index)
        return real(spec, index, *rest)

    monkeypatch.setattr(_ludic, "sweep_task", failing)
    with pytest.raises(RuntimeError, match="a worker lost"):
        ludic.sweep(GAME, GRID, games=GAMES, seed=SEED, output=out)
    assert [p["index"] for p in json.loads(out.read_text())["points"]] == [0, 1]
    monkeypatch.setattr(_ludic, "sweep_task", lambda spec, index, *rest: (
        played.append(index), real(spec, index, *rest))[1])
    ludic.sweep(GAME, GRID, games=GAMES, seed=SEED, output=out)
    assert played == [0, 1, 2, 3, 4, 5]
    _, whole = py_sweep(tmp_path, "whole.json")
    assert without_timing(out.read_text()) == without_timing(whole)


def test_an_output_file_of_another_sweep_is_refused(tmp_path):
    out = tmp_path / "other.json"
    py_sweep(tmp_path, "other.json", grid={"seeds": "4,6"})
    before = out.read_text()
    with pytest.raises(ValueError, match="holds another sweep: its axes"):
        ludic.sweep(GAME, GRID, games=GAMES, seed=SEED, output=out)
    assert out.read_text() == before


def test_a_point_the_game_refuses_carries_its_error():
    s = ludic.sweep(GAME, {"seeds": "3..4"}, games=5)
    refused, played = s["points"]
    assert "must be even" in refused["error"] and "study" not in refused
    assert played["study"]["playouts"] == 5 and "error" not in played
    assert s["partial"] is False


@pytest.mark.parametrize(
    "grid, kw, words",
    [
        ({"seeds": "8..4"}, {}, "the range 8..4 is empty"),
        ({"seeds": "4..8/0"}, {}, "the step of a range is at least 1"),
        ({"sedes": "4..8"}, {}, "did you mean `seeds`?"),
        ({"seeds": "4,6"}, {"variants": ["nope"]}, "unknown variant `nope`"),
        ({"seeds": []}, {}, "has no values"),
        ({"seeds": [4.5]}, {}, "must be an int, a bool or a string"),
        ({"seeds": ["4..8", 10]}, {}, "in a list is one value"),
        ({"seeds": "4,6"}, {"options": {"seeds": 4}}, "both in the grid and in options"),
        ({"seeds": "4,6"}, {"options": {"muthu": "on,off"}}, "put it in the grid"),
        ({"seeds": "4,6"}, {"shards": 0}, "shards=0"),
        ({"seeds": "4,6"}, {"games": 0}, "games=0"),
        ({"seeds": "4,6"}, {"agents": ["human"]}, "`human` cannot play"),
    ],
)
def test_bad_sweeps_raise_value_error(grid, kw, words):
    with pytest.raises(ValueError) as e:
        ludic.sweep(GAME, grid, **kw)
    assert words in str(e.value)


def test_an_unknown_game_raises_game_error():
    with pytest.raises(ludic.GameError) as e:
        ludic.sweep("no-such-game", {"seeds": "4,6"})
    assert "no-such-game" in str(e.value)


def test_tasks_check_what_they_are_given():
    spec, points, tasks = _ludic.sweep_plan(GAME, ["seeds=4,6"], games=10, shards=2)
    assert points == 2 and tasks == [(0, 1, 2), (0, 2, 2), (1, 1, 2), (1, 2, 2)]
    with pytest.raises(ValueError, match="there is no point 2"):
        _ludic.sweep_task(spec, 2, 1, 1, 1)
    with pytest.raises(ValueError, match="there is no shard 3 of 2"):
        _ludic.sweep_task(spec, 0, 3, 2, 1)
    with pytest.raises(ValueError, match="not a sweep task's spec"):
        _ludic.sweep_task("{}", 0, 1, 1, 1)
    with pytest.raises(ValueError, match="not a sweep"):
        _ludic.sweep_merge(['{"format": "ludic-study-1"}'])
    other, _, _ = _ludic.sweep_plan(GAME, ["seeds=4,6"], games=10, seed=2)
    a = _ludic.sweep_task(spec, 0, 1, 2, 1)
    b = _ludic.sweep_task(other, 0, 1, 1, 1)
    with pytest.raises(ValueError, match="not parts of one sweep"):
        _ludic.sweep_merge([a, b])


def test_ray_is_not_imported_without_a_cluster():
    code = (
        "import sys, ludic; ludic.sweep('pallankuzhi', {'seeds': '4,6'}, games=3); "
        "print('ray' in sys.modules)"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False"


def test_ctrl_c_stops_a_point_at_once():
    """SIGINT while a point plays natively (the GIL released): the point stops within a
    moment and KeyboardInterrupt names it."""
    # Python turns SIGINT into KeyboardInterrupt only when it starts with SIGINT's default
    # disposition; a test run in the background (`cmd &` in a script: SIGINT ignored) starts
    # it ignored, so the child sets the handler itself, as an interactive Python has it.
    code = (
        "import signal, time, ludic\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "print('playing', flush=True)\n"
        "t = time.time()\n"
        "try:\n"
        "    ludic.sweep('pallankuzhi', {'seeds': '4,6'}, games=10**9, jobs=1)\n"
        "except KeyboardInterrupt as e:\n"
        "    print(round(time.time() - t, 2), e)\n"
    )
    p = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert p.stdout.readline() == "playing\n"
    time.sleep(1)
    p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=30)
    finally:
        p.kill()
    assert p.returncode == 0, err
    seconds, words = out.split(" ", 1)
    assert "point 0 (seeds=4) was stopped" in words
    assert float(seconds) < 5, out


# --- on a Ray cluster --------------------------------------------------------------------


def import_ray():
    """Ray, which the test environment installs (tests/common/pyenv.rs); a run of pytest by
    hand without it skips these tests, CI's fails."""
    if os.environ.get("CI") == "true":
        import ray

        return ray
    return pytest.importorskip("ray")


@pytest.fixture(scope="module")
def ray_cluster():
    ray = import_ray()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        logging_level="warning",
    )
    yield ray
    ray.shutdown()


@pytest.fixture
def ray_calls(monkeypatch):
    """The number of sweeps sent to Ray (the real dispatch, counted)."""
    calls = []
    real = sweep_module._on_ray

    def counted(ray, spec, tasks, *rest):
        calls.append(len(tasks))
        return real(ray, spec, tasks, *rest)

    monkeypatch.setattr(sweep_module, "_on_ray", counted)
    return calls


def test_ray_sweep_is_the_local_one(ray_cluster, ray_calls, tmp_path):
    """Ray initialised by the caller: each point and shard a Ray task (12 here, on 2 worker
    CPUs); the merged file is the local run's, byte for byte but for the timing fields, and so
    the binary's."""
    _, here = py_sweep(tmp_path, "local.json", cluster="local")
    assert ray_calls == []
    s, on_ray = py_sweep(tmp_path, "ray.json", shards=2)
    assert ray_calls == [12]
    assert without_timing(on_ray) == without_timing(here)
    cli = cli_sweep(tmp_path, *CLI_GRID, "-n", str(GAMES), "--seed", str(SEED))
    assert without_timing(on_ray) == without_timing(cli)
    assert s["partial"] is False and len(s["points"]) == 6


def test_ray_cluster_auto_uses_the_running_cluster(ray_cluster, ray_calls, tmp_path):
    """cluster="auto" with Ray already initialised: the same cluster, left running."""
    s, _ = py_sweep(tmp_path, "auto.json", grid={"seeds": "4,6"}, games=10, cluster="auto")
    assert ray_calls == [2] and ray_cluster.is_initialized()
    assert [p["study"]["playouts"] for p in s["points"]] == [10, 10]


def test_ray_refused_point_and_bad_grid(ray_cluster, ray_calls):
    s = ludic.sweep(GAME, {"seeds": "3..4"}, games=6, shards=2)
    assert ray_calls == [4]
    refused, played = s["points"]
    assert "must be even" in refused["error"]
    assert played["study"]["playouts"] == 6
    with pytest.raises(ValueError, match="the range 8..4 is empty"):
        ludic.sweep(GAME, {"seeds": "8..4"})
    assert ray_calls == [4], "a bad grid is refused before any task is sent"


def test_ray_task_errors_come_back_with_their_message(ray_cluster):
    task = ray_cluster.remote(sweep_module._run_task)
    with pytest.raises(ValueError, match="not a sweep task's spec"):
        ray_cluster.get(task.remote("{}", 0, 1, 1, 1))


def test_ray_plays_a_game_given_by_path(ray_cluster, ray_calls):
    """A game given by a relative path: the workers of a local cluster read it (they share the
    driver's working directory), and the numbers are the built-in game's."""
    path = os.path.relpath(pathlib.Path(__file__).parents[2] / "games" / "pallankuzhi.game")
    by_path = ludic.sweep(path, {"seeds": "4,6"}, games=10)
    by_name = ludic.sweep(GAME, {"seeds": "4,6"}, games=10, cluster="local")
    assert ray_calls == [2] and by_path["source"] == path
    assert numbers_of(by_path) == numbers_of(by_name)


def numbers_of(s):
    return [json.dumps(p["study"]["metrics"], sort_keys=True) for p in s["points"]]
