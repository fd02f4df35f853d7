"""The rules core, the store and the headless CLI never import textual (docs/reference/cli.md, ARCHITECTURE).

`tracker exec`, `tracker check` and `tracker odds` run on machines and in scripts where starting Textual would be
slow and pointless; the import-linter contract in pyproject.toml guards the direct imports, and this
test guards what actually gets loaded at run time.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

ENCOUNTER = textwrap.dedent(
    """\
    [encounter]
    name = "Hygiene"
    system = "ttb"
    seed = 1

    [[combatants]]
    name = "Sofia Ramos"
    kind = "fated"
    wounds = 8

    [[combatants]]
    name = "Guild Thug"
    rank_value = 5
    wounds = 5

    [[demo]]
    do = "start"
    """
)

PROBE = textwrap.dedent(
    """\
    import io, json, sys
    import tracker.families.session
    import tracker.families.snapshot
    import tracker.store.files
    import tracker.cli.check
    import tracker.cli.main
    check_code = tracker.cli.main.main(["check", sys.argv[1]])
    sys.stdin = io.StringIO("start\\nflip 2\\nundo\\n")
    exec_code = tracker.cli.main.main(["exec", sys.argv[1], "--json", "--save"])
    odds_code = tracker.cli.main.main(["odds", sys.argv[1], "--tn", "10", "--av", "3", "--json"])
    loaded = sorted(m for m in sys.modules if m == "textual" or m.startswith("textual."))
    print(json.dumps({"check": check_code, "exec": exec_code, "odds": odds_code, "textual": loaded}), file=sys.stderr)
    """
)


def test_headless_commands_never_load_textual(tmp_path: Path) -> None:
    path = tmp_path / "hygiene.toml"
    path.write_text(ENCOUNTER, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, str(path)], capture_output=True, text=True, timeout=60, check=False, cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stderr.strip().splitlines()[-1])
    assert report == {"check": 0, "exec": 0, "odds": 0, "textual": []}


FAMILY_PROBE = textwrap.dedent(
    """\
    import importlib, json, sys
    importlib.import_module(sys.argv[1])
    loaded = sorted(m for m in sys.modules if m == sys.argv[2] or m.startswith(sys.argv[2] + "."))
    print(json.dumps(loaded))
    """
)


@pytest.mark.parametrize(
    ("module", "other_family"),
    [
        ("tracker.families.ttb.records.file", "tracker.families.twod20"),
        ("tracker.families.ttb.dispatch", "tracker.families.twod20"),
        ("tracker.families.twod20.records.file", "tracker.families.ttb"),
        ("tracker.families.twod20.dispatch", "tracker.families.ttb"),
    ],
)
def test_a_family_never_loads_the_other(module: str, other_family: str) -> None:
    """The shared file layer (`tracker.engine.records.model`) imports neither family, so one family's file model
    and engine load without the other's: a TTB run never pays for the 2d20 models and vice versa."""
    proc = subprocess.run(
        [sys.executable, "-c", FAMILY_PROBE, module, other_family],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == []


def test_textual_is_importable_so_the_probe_means_something() -> None:
    """The probe above would pass vacuously if textual were not installed at all."""
    proc = subprocess.run(
        [sys.executable, "-c", "import textual, sys; print('textual' in sys.modules)"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.stdout.strip() == "True", proc.stderr


def test_import_linter_contract_is_kept() -> None:
    exe = Path(sys.executable).parent / "lint-imports"
    command = str(exe) if exe.exists() else shutil.which("lint-imports")
    assert command, "lint-imports is not installed (pip install -e '.[test]')"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # --no-cache: a cached graph can miss a package that just gained its __init__.py.
    proc = subprocess.run(
        [command, "--no-cache"], capture_output=True, text=True, timeout=120, check=False, cwd=ROOT, env=env
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for contract in (
        "Layers: each package imports only the packages below it",
        "A rule family never imports another, and the seam imports none",
        "The rules and the files never import textual",
    ):
        assert f"{contract} KEPT" in proc.stdout, contract
    assert "0 broken" in proc.stdout


def run_probe(script: str, path: Path, env: dict[str, str]) -> list[str]:
    """Run a first-frame probe on `path` in its folder, with `env` over this environment (the memo of
    validated files on, as the command line has it); the JSON list it prints last."""
    environment = {k: v for k, v in os.environ.items() if k != "TRACKER_NO_CACHE"} | env
    proc = subprocess.run(
        [sys.executable, "-c", script, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=path.parent,
        env=environment,
    )
    assert proc.returncode == 0, proc.stderr
    found: list[str] = json.loads(proc.stdout.strip().splitlines()[-1])
    return found


GM_PROBE = textwrap.dedent(
    """\
    import json, sys
    from pathlib import Path
    from tracker.families.session import Session
    from tracker.store import files
    from tracker.ui.app import TrackerApp

    async def first_frame(pilot):
        await pilot.pause()  # the first frame, and the hidden tabs mounted after it
        pilot.app.exit()

    path = Path(sys.argv[1])
    app = TrackerApp(Session(files.load(path)), path)
    app.run(headless=True, size=(120, 40), auto_pilot=first_frame)
    print(json.dumps(sorted(sys.modules)))
    """
)

#: What the GM's screen never needs to show an encounter: the other family, the player's screen, the
#: modals (loaded when opened), the waiting screen (a viewer without its file), the problem app (a served
#: screen that could not open), the demo, the browser server, the file watcher (viewers only) and Textual's
#: `Lazy` (the hidden tabs' panels are made after the first frame without it).
NOT_FOR_THE_GM = (
    "tracker.ui.screens.player",
    "tracker.ui.screens.modals",
    "tracker.ui.screens.waiting",
    "tracker.ui.problem",
    "tracker.ui.demo",
    "textual_serve",
    "watchfiles",
    "textual.lazy",
)


@pytest.mark.parametrize(
    ("example", "other_family"),
    [("duel.toml", "tracker.families.twod20"), ("skirmish_srd.toml", "tracker.families.ttb")],
)
@pytest.mark.perf
def test_the_gm_screen_loads_only_what_its_first_frame_needs(tmp_path: Path, example: str, other_family: str) -> None:
    """Issue 12 (start-up): `tracker run` shows the fight without importing what it does not show, so
    the start-up gains of lazy imports stay. The probe sees the GM screen itself, so it is not vacuous."""
    path = tmp_path / example
    shutil.copy(ROOT / "examples" / example, path)
    loaded = set(run_probe(GM_PROBE, path, {"TRACKER_CONFIG_DIR": str(tmp_path / "config")}))
    assert {"tracker.ui.screens.main", "tracker.ui.widgets.order_table"} <= loaded
    unwanted = (other_family, *NOT_FOR_THE_GM)
    assert sorted(m for m in loaded if any(m == u or m.startswith(u + ".") for u in unwanted)) == []


REMEMBERED_PROBE = textwrap.dedent(
    """\
    import json, sys
    from pathlib import Path
    from tracker.store.validated import remember_validations
    remember_validations()  # as the command line does
    from tracker.families.session import Session
    from tracker.store import files
    from tracker.ui.app import TrackerApp

    seen = {}

    async def first_frame(pilot):
        await pilot.pause()
        seen["pydantic"] = sorted(m for m in sys.modules if m.split(".")[0] in ("pydantic", "pydantic_core"))
        pilot.app.exit()

    path = Path(sys.argv[1])
    app = TrackerApp(Session(files.load(path)), path)
    app.run(headless=True, size=(120, 40), auto_pilot=first_frame)
    print(json.dumps(seen["pydantic"]))
    """
)


@pytest.mark.perf
@pytest.mark.parametrize("example", ["duel.toml", "skirmish_srd.toml"])
def test_a_file_opened_before_shows_its_first_frame_without_pydantic(tmp_path: Path, example: str) -> None:
    """Issue 12 (start-up): pydantic validates a file the first time it is read; opened again, the GM screen
    reaches its first frame with the remembered records and never imports pydantic (its import and schema
    building were a third of the start-up). The first run loading pydantic shows the probe is not vacuous."""
    path = tmp_path / example
    shutil.copy(ROOT / "examples" / example, path)
    env = {"TRACKER_CONFIG_DIR": str(tmp_path / "config"), "TRACKER_CACHE_DIR": str(tmp_path / "cache")}
    loaded = [run_probe(REMEMBERED_PROBE, path, env) for _ in range(2)]
    assert "pydantic" in loaded[0]
    assert loaded[1] == []


RUN_PROBE = textwrap.dedent(
    """\
    import sys
    from textual.app import App
    import tracker.ui.app as ui_app

    seen = {}
    after_first_frame = ui_app.TrackerApp._after_first_frame

    def at_first_frame(self):
        seen.setdefault("modules", sorted(sys.modules))  # what the first frame needed, before what follows it
        after_first_frame(self)

    async def first_frame(pilot):
        await pilot.pause()
        pilot.app.exit()

    def run(self, **options):  # `tracker run` as the command line starts it, headless
        return App.run(self, headless=True, size=(120, 40), auto_pilot=first_frame)

    ui_app.TrackerApp._after_first_frame = at_first_frame
    ui_app.TrackerApp.run = run
    import tracker.cli.main

    assert tracker.cli.main.main(["run", sys.argv[1]]) == 0
    import json  # only now: what the first frame loaded is the question

    print(json.dumps(seen["modules"]))
    """
)

#: What `tracker run` never needs before its first frame: the save (the TOML writer and the modules that cut
#: out the setup text and write the live part: the GM's first command loads them), and the thread that runs
#: the saves.
NOT_BEFORE_THE_FIRST_FRAME = (
    "tomli_w",
    "tracker.store.save",
    "tracker.store.setup_text",
    "tracker.store.toml_cache",
    "concurrent.futures.thread",
)
#: What a file read before does not need either: it is recalled by its text, neither parsed (`tomllib`, the
#: key positions), expanded (stat blocks, party), nor validated (pydantic). (Its memo entry is JSON data, so
#: the json package is read: a pickle would need no parser, but a cache folder must never hold code.)
NOT_FOR_A_FILE_READ_BEFORE = (
    "tomllib",
    "tracker.store.tomlpos",
    "tracker.store.campaign.blocks",
    "pydantic",
    "pydantic_core",
)


@pytest.mark.perf
@pytest.mark.parametrize("example", ["duel.toml", "campaign/1_ambush.toml"])
def test_tracker_run_loads_no_save_and_no_parser_before_its_first_frame(tmp_path: Path, example: str) -> None:
    """Issue 12 (start-up): `tracker run FILE`, through the command line, reaches its first frame without the
    save's modules (the first command loads them), and on a file it has read before without parsing or
    validating it. The first run, on a file new to it, parses and validates it: the probe is not vacuous."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples", ignore=shutil.ignore_patterns(".*"))
    path = tmp_path / "examples" / example
    env = {"TRACKER_CONFIG_DIR": str(tmp_path / "config"), "TRACKER_CACHE_DIR": str(tmp_path / "cache")}
    new, again = (set(run_probe(RUN_PROBE, path, env)) for _ in range(2))

    def loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
        return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))

    assert {"tracker.ui.screens.main", "tracker.store.lock", "tomllib", "pydantic"} <= new
    assert loaded(new, NOT_BEFORE_THE_FIRST_FRAME) == []
    assert "tracker.ui.screens.main" in again
    assert loaded(again, (*NOT_BEFORE_THE_FIRST_FRAME, *NOT_FOR_A_FILE_READ_BEFORE)) == []


def test_no_two_modules_import_each_other() -> None:
    """The layers hold inside packages too: no chain of imports leads from a module back to itself (imports
    made for the type checker only are left out, as the import-linter contracts leave them)."""
    import grimp

    graph = grimp.build_graph("tracker", exclude_type_checking_imports=True)
    modules = sorted(graph.modules)
    cyclic = [
        (m, i)
        for m in modules
        for i in graph.find_modules_directly_imported_by(m)
        if i.startswith("tracker") and graph.find_shortest_chain(importer=i, imported=m) is not None
    ]
    assert cyclic == []
