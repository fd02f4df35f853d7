"""A fuzz harness for the command line ("Faults found by fuzzing and kill tests").

Hypothesis mutates the example encounter files (fresh and mid-fight, with a saved ``[state]``): values
swapped for hostile ones (a 5,000-digit number, 500-deep arrays, a name the setup lacks, a track or
profile parameter that does not exist, a hundred million dice), lines dropped, doubled or cut short,
bytes that are not UTF-8. It also draws random command lines from each family's verbs with hostile
arguments. Each file goes through ``tracker check`` and ``tracker exec --save`` in-process, and every run
must end the way docs/reference/cli.md promises:

* exit 0, 1 or 2, never an exception, never a traceback nor the CLI's "internal error" last resort;
* ``check``: one ``FILE:LINE:COL: message`` line per problem, and exit 0 exactly when there is no error;
* ``exec``: on failure exactly one line on stderr and the file byte for byte as it was; on success
  the saved file loads again (a save never writes a file the loader refuses);
* no run hangs: each is cut off by an alarm after a few seconds (the dice loops of the issue hung).

Bounded to keep the suite fast: a few dozen examples per test, a few seconds in all.
"""

from __future__ import annotations

import contextlib
import io
import re
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tracker.cli.main import main
from tracker.engine.errors import Refusal
from tracker.families.session import Session
from tracker.store import files
from tracker.store.save import encounter_text

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

#: Commands that move each example into a fight, so the fuzz also meets a saved [state] and [history].
OPENINGS = {
    "duel.toml": ["initiative Sofia 13", "start", "add Sofia burning 2", "next"],
    "brawl.toml": ["start", "answer Belle", "damage Thug 3"],
    "skirmish_srd.toml": ["start", "pick Ada", "damage Cultist 4 icons=1 persistent=2", "next", "pick Cultist"],
    "firefight_infinity.toml": ["start", "next"],
}


def _played(name: str) -> str:
    """The example after its opening commands, as a save writes it (refused openings are skipped)."""
    session = Session(files.load(EXAMPLES / name), seed=5)
    for line in OPENINGS.get(name, []):
        with contextlib.suppress(Refusal):
            session.execute(line)
    return encounter_text(session)


FRESH = {p.name: p.read_text(encoding="utf-8") for p in sorted(EXAMPLES.glob("*.toml"))}
BASES = {**{f"fresh {k}": v for k, v in FRESH.items()}, **{f"played {k}": _played(k) for k in FRESH}}

#: Values a hostile or careless hand puts on the right of `key =`.
HOSTILE_VALUES = [
    "-1",
    "0",
    "100000000",
    "9" * 30,
    "9" * 5000,
    "1.5",
    "inf",
    "true",
    '""',
    '"mana"',
    '"Cult Priest"',
    '"Sofia Ramos"',
    '"Nobody"',
    '"Pier"',
    "[]",
    "{}",
    '["Nobody", "Nobody"]',
    "[" * 500 + "]" * 500,
    "{ persistent = 100000000 }",
    "{ burning = 100000000 }",
    '"\\u0000"',
    '"' + "x" * 2000 + '"',
]

#: Lines inserted whole: settings that break engines, tables out of place, a dangling live part.
HOSTILE_LINES = [
    '[settings]\ndefault_track = "mana"',
    "[settings]\nharm_threshold = 0",
    "[settings]\ninfinity_conditions = true",
    '[settings]\nranged_step_rule = "sideways"',
    "[settings]\ncover = 100000000",
    '[[zones]]\nname = "Pier"',
    '[[demo]]\ndo = "challenge 100000000"',
    '[[demo]]\ndo = "damage Ada 3 cover=100000000"',
    "[state]\nseed = 1\nfighters = {}",
    "[history]\nseed = 1",
    "nested = " + "[" * 500 + "]" * 500,
    "big = " + "9" * 5000,
    "junk",
]


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, bytes]:
    """(which base, the mutated file's bytes)."""
    base = draw(st.sampled_from(sorted(BASES)))
    lines = BASES[base].splitlines()
    for _ in range(draw(st.integers(1, 3))):
        if not lines:
            break
        at = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["value", "value", "value", "drop", "double", "insert", "truncate"]))
        if op == "value" and "=" in lines[at]:
            key = lines[at].split("=", 1)[0]
            lines[at] = f"{key}= {draw(st.sampled_from(HOSTILE_VALUES))}"
        elif op == "drop":
            del lines[at]
        elif op == "double":
            lines.insert(at, lines[at])
        elif op == "insert":
            lines.insert(at, draw(st.sampled_from(HOSTILE_LINES)))
        elif op == "truncate":
            lines = [*lines[:at], lines[at][: draw(st.integers(0, len(lines[at])))]]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    if draw(st.integers(0, 9)) == 0:
        cut = draw(st.integers(0, len(data)))
        data = data[:cut] + b"\xff\xfe" + data[cut:]
    return base, data


#: Arguments for random command lines: names (whole, prefixes, strangers), numbers (huge, negative,
#: not ASCII), conditions, zones, options with hostile counts, and text that is not UTF-8.
WORDS = [
    "Sofia", "'Guild Thug'", "Ada", "Cultist", "'Cult Priest'", "Nobody", "a",
    "0", "1", "2", "-1", "+3", "100000000", "9" * 40, "²", "١", "1_000",
    "burning", "persistent", "bleeding", "prone", "unconscious", "mana",
    "Pier", "Yard", "Moon", "strike", "walk", "attack", "defend", "9R", "RJ", "99R",
    "cover=100000000", "persistent=100000000", "icons=100000000", "incendiary=100000000", "vicious=3",
    "icons=1", "cover=2", "track=mana", "track=mental", "faces=1,2", "faces=99", "card=13R", "by=Sofia",
    "mental", "yield", "no-armor", "pass", "fail", "flip", "yes", "no", "\udcff", "'unclosed",
]  # fmt: skip
VERBS = [
    "start", "next", "add", "remove", "damage", "heal", "spend", "move", "reach", "momentum", "threat", "pick",
    "keep", "roll", "challenge", "treat", "stabilize", "revive", "fortune", "end", "answer", "undo", "redo",
    "seed", "initiative", "flip", "engage", "disengage", "reshuffle", "bogus",
]  # fmt: skip


@st.composite
def command_lines(draw: st.DrawFn) -> str:
    lines = []
    for _ in range(draw(st.integers(1, 8))):
        words = [draw(st.sampled_from(VERBS))]
        words += draw(st.lists(st.sampled_from(WORDS), max_size=5))
        lines.append(" ".join(words))
    return "\n".join(lines) + "\n"


class Hang(Exception):
    """A run took longer than the alarm allows: the dice loops of the issue."""


@contextlib.contextmanager
def alarm(seconds: float) -> Iterator[None]:
    def ring(signum: int, frame: object) -> None:
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    """`tracker ARGS` in-process: (exit code, stdout, stderr); an escaping exception fails the test."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), alarm(5.0):
            try:
                code = main(args)
            except SystemExit as exc:  # argparse
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


def assert_no_fault(code: int, out: str, err: str) -> None:
    assert code in (0, 1, 2), (code, err)
    assert "Traceback" not in out + err, err
    assert "internal error" not in err, err


def check_contract(path: Path) -> None:
    code, out, err = run(["check", str(path)])
    assert_no_fault(code, out, err)
    problem = re.compile(rf"^{re.escape(str(path))}:\d+:\d+: \S")
    lines = err.splitlines()
    assert all(problem.match(line) for line in lines), err
    errors = [line for line in lines if ": warning: " not in line]
    assert (code == 0) == (not errors), (code, err)


def exec_contract(path: Path, commands: str) -> None:
    before = path.read_bytes()
    code, out, err = run(["exec", str(path), "--save"], commands)
    assert_no_fault(code, out, err)
    if code != 0:
        assert len(err.splitlines()) == 1, err
        assert path.read_bytes() == before, "a refused exec changed the file"
    else:
        files.load(path)  # what a save wrote loads again


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=mutated(), commands=command_lines())
def test_mutated_files_never_crash_check_or_exec(folder: Path, case: tuple[str, bytes], commands: str) -> None:
    """Issue 12: hostile files give one-line problems (check: one a problem), never a traceback or a hang;
    a refused exec leaves the file untouched."""
    _, data = case
    path = folder / "mutated.toml"
    path.write_bytes(data)
    check_contract(path)
    exec_contract(path, commands)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from(sorted(BASES)), commands=command_lines())
def test_random_command_lines_never_crash_exec(folder: Path, base: str, commands: str) -> None:
    """Issue 12: random command lines (huge counts, numbers that are not ASCII, bytes that are not UTF-8)
    are accepted or refused in one line; a save always writes a file that loads."""
    path = folder / "commands.toml"
    path.write_text(BASES[base], encoding="utf-8")
    exec_contract(path, commands)
