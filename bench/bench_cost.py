"""Start-up cost in CPU instructions (valgrind's callgrind): the same figures on a busy machine as on an idle one.

Wall-clock benchmarks on a shared two-core machine swing by ±30 %; an instruction count does not, so a
change of a few per cent shows. Each case is one process under callgrind (about 30× slower than normal):

- the first frame (headless, 160×50) of the GM screen on a 20-combatant TTB fight, beside the bare
  Textual app of bench_startup (the process leaves as soon as its first frame is written): the app built
  on the loaded file, and `tracker run` as the command line starts it;
- `tracker exec` of one command on the duel, beside `import pydantic` and pydantic with one model built.

Run: python -m bench.bench_cost [--before DIR]   (needs valgrind: apt-get install valgrind)
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bench.bench_engine import encounter_text

ROOT = Path(__file__).resolve().parent.parent

#: Runs in the measured process: build the app, leave right after the first frame is written.
FIRST_FRAME = """
import os, sys
if sys.argv[1] == "bare":
    sys.path.insert(0, os.path.join(sys.argv[2], "bench"))
    import bare_app
    app = bare_app.BareApp(20)
else:
    from pathlib import Path
    try:  # an older checkout (--before): the rules were one package (asked first: the editable install
        # would find this checkout's new modules for a package imported from the older one)
        from tracker.rules.session import Session
    except ImportError:
        from tracker.families.session import Session
    from tracker.store import files
    from tracker.ui.app import TrackerApp
    try:
        from tracker.store.validated import remember_validations
    except ImportError:  # an older checkout (--before): it validated every time
        pass
    else:
        remember_validations()  # as the command line does
    app = TrackerApp(Session(files.load(sys.argv[2])), Path(sys.argv[2]))
display = app._display
def first(*args, **kwargs):
    display(*args, **kwargs)
    os._exit(0)
app._display = first
app.run(headless=True, size=(160, 50))
"""
#: `tracker run FILE` as the command line starts it (its argument parsing, the writer's lock, the collector
#: paused), headless at the same size, leaving right after the first frame is written.
RUN = """
import os, sys
import textual.app
display = textual.app.App._display
def first(self, *args, **kwargs):
    display(self, *args, **kwargs)
    os._exit(0)
run = textual.app.App.run
def headless(self, *args, **kwargs):
    return run(self, headless=True, size=(160, 50))
textual.app.App._display = first
textual.app.App.run = headless
from tracker.cli import main
sys.exit(getattr(main, "main", main)(["run", sys.argv[1]]))
"""
# `tracker.cli` was a module with `main` before it became a package with a `main` module: both are run.
EXEC = 'import sys; from tracker.cli import main; sys.exit(getattr(main, "main", main)())'
ONE_MODEL = "from pydantic import BaseModel\nclass One(BaseModel):\n    x: int\n"


def instructions(argv: list[str], root: Path, folder: Path, stdin: str = "", remember: bool = True) -> int:
    """Instructions one process runs, counted by callgrind. The uncounted run before it warms the bytecode
    and, unless `remember` is False (``TRACKER_NO_CACHE=1``), the memo of validated files."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "TRACKER_NO_CACHE")}
    env |= {"PYTHONPATH": str(root), "TRACKER_CONFIG_DIR": str(folder / "config"), "TRACKER_CACHE_DIR": str(folder)}
    if not remember:
        env["TRACKER_NO_CACHE"] = "1"
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv]
    subprocess.run(argv, input=stdin, capture_output=True, text=True, env=env, cwd=root, check=True)  # warm .pyc
    done = subprocess.run(command, input=stdin, capture_output=True, text=True, env=env, cwd=root, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"callgrind said nothing countable: {done.stderr[-500:]}")
    return int(found.group(1))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_cost")
    parser.add_argument("--before", type=Path, help="an older checkout, counted beside this one")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        raise SystemExit("bench_cost needs valgrind (apt-get install valgrind)")
    py = sys.executable
    roots = {"tracker": ROOT, **({"before": args.before.resolve()} if args.before else {})}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        fight = folder / "fight.toml"
        fight.write_text(encounter_text(20), encoding="utf-8")
        duel = ROOT / "examples" / "duel.toml"
        bare = instructions([py, "-c", FIRST_FRAME, "bare", str(ROOT)], ROOT, folder)
        print(f"first frame (millions of instructions): bare Textual app {bare / 1e6:.0f}")
        for remember in (True, False):
            for label, root in roots.items():
                count = instructions([py, "-c", FIRST_FRAME, "tracker", str(fight)], root, folder, remember=remember)
                said = "(target ≤ 1.3×)" if remember else "on a file new to it"
                print(f"  {label:8} {count / 1e6:.0f} ({count / bare:.2f}×)   {said}")
        print("`tracker run`, started by the command line (arguments, the writer's lock, the collector paused):")
        for remember in (True, False):
            for label, root in roots.items():
                count = instructions([py, "-c", RUN, str(fight)], root, folder, remember=remember)
                said = "(target ≤ 1.3×)" if remember else "on a file new to it"
                print(f"  {label:8} {count / 1e6:.0f} ({count / bare:.2f}×)   {said}")
        model = instructions([py, "-c", ONE_MODEL], ROOT, folder)
        plain = instructions([py, "-c", "import pydantic"], ROOT, folder)
        print(f"tracker exec, one command: import pydantic {plain / 1e6:.0f}, pydantic + one model {model / 1e6:.0f}")
        for remember in (True, False):
            for label, root in roots.items():
                count = instructions([py, "-c", EXEC, "exec", str(duel)], root, folder, "start\n", remember=remember)
                said = "" if remember else "   on a file new to it"
                print(f"  {label:8} {count / 1e6:.0f} ({count / model:.2f}× pydantic + one model){said}")


if __name__ == "__main__":
    main()
