"""The attack flow's engine cost, the part of a keypress the rules pay: `attack NAME` (the target question with
every candidate's odds) and then option 1 of each question to the end of the attack, on the brawl (10
combatants, TTB) and the SRD skirmish (2d20), median ms per whole attack and per question.

Each checkout runs in its own process (``PYTHONPATH``), interleaved, so a noisy machine hits both alike;
``--before DIR`` times an older checkout beside this one. Bytecode caching is on, as for a user.

Run: python -m bench.bench_attack [--runs 30] [--before DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: One process: load the example, open the fight, then time whole attacks (each undone after).
PROBE = r"""
import json, statistics, sys, time
from pathlib import Path
from tracker.store.files import parse_text
from tracker.families.session import Session

path, opening, attack, runs = sys.argv[1], sys.argv[2].split(";"), sys.argv[3], int(sys.argv[4])
s = Session(parse_text(Path(path).read_text(), path, Path(path).parent), seed=7)
for line in opening:
    s.execute(line)
who = attack.split(" ", 1)[1].split("'")[1] if "'" in attack else attack.split()[1]
for _ in range(40):  # on to the attacker's turn, any question answered with its first option
    if s.state.prompt is not None:
        s.execute("answer '" + s.state.prompt.options[0] + "'")
    elif s.state.active != who:
        s.execute("next")
    else:
        break
whole, asks = [], []
for _ in range(runs):
    t0 = time.perf_counter()
    s.execute(attack)
    n = 1
    while s.state.prompt is not None and n < 12:
        s.execute("answer '" + s.state.prompt.options[0] + "'")
        n += 1
    whole.append((time.perf_counter() - t0) * 1000)
    asks.append(whole[-1] / n)
    for _ in range(n):
        s.execute("undo")
print(json.dumps({"whole": statistics.median(whole), "per": statistics.median(asks)}))
"""

CASES = (
    ("TTB brawl (10)", "brawl.toml", "start", "attack 'Sofia Ramos'"),
    ("2d20 skirmish", "skirmish_srd.toml", "start", ""),
)


def probe(root: Path, example: str, opening: str, attack: str, runs: int) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(root)
    path = str(root / "examples" / example)  # each checkout reads its own copy (its own file format)
    done = subprocess.run(
        [sys.executable, "-c", PROBE, path, opening, attack, str(runs)],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    if done.returncode != 0:
        raise SystemExit(f"{root}: {done.stderr.strip().splitlines()[-1]}")
    result: dict[str, float] = json.loads(done.stdout)
    return result


def first_attack(example: str, opening: str) -> str:
    """The 2d20 skirmish's first actor attacks: found by running the opening once."""
    from tracker.families.session import Session
    from tracker.store.files import parse_text

    s = Session(parse_text((ROOT / "examples" / example).read_text(), example), seed=7)
    for line in opening.split(";"):
        s.execute(line)
    prompt = s.state.prompt
    if prompt is not None and prompt.options:
        s.execute(f"pick '{prompt.options[0]}'")
        opening += f";pick '{prompt.options[0]}'"
    return f"{opening}\t{s.state.active and 'attack ' + repr(s.state.active)}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_attack")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--before", type=Path, help="an older checkout, timed in the same runs")
    args = parser.parse_args(argv)
    roots = [("now", ROOT)] + ([("before", args.before)] if args.before else [])
    print(f"{'case':<18} {'checkout':<8} {'whole attack ms':>16} {'per question ms':>16}")
    for label, example, opening, attack in CASES:
        if not attack:
            opening, attack = first_attack(example, opening).split("\t")
        rows: dict[str, list[dict[str, float]]] = {name: [] for name, _ in roots}
        for _ in range(3):  # interleaved rounds
            for name, root in roots:
                rows[name].append(probe(root, example, opening, attack, args.runs))
        for name, _ in roots:
            whole = statistics.median(r["whole"] for r in rows[name])
            per = statistics.median(r["per"] for r in rows[name])
            print(f"{label:<18} {name:<8} {whole:>16.2f} {per:>16.2f}")


if __name__ == "__main__":
    main()
