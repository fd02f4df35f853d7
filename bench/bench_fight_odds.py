"""The odds of the whole fight (``tracker odds FILE --fight``): runs per second per family at 10, 20 and 50
combatants, and 2,500 runs of the brawl example against one ``tracker exec`` of the same file (target: ≤ 25×).

The generated fights are even: half the combatants on each side, every one armed and strong enough that each
side wins about half the runs (the line after each figure says how it came out), so the runs end by a side's
fall, not at the round cap. Runs per second are measured on one core (`workers=1`) and on every core;
the brawl is timed as two processes, start to exit, as a user runs them.

Run: python -m bench.bench_fight_odds [--runs 400] [--brawl-runs 2500]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from tracker.families.session import Session
from tracker.playouts.report import fight_odds
from tracker.store.files import parse_text

ROOT = Path(__file__).resolve().parent.parent
BRAWL = ROOT / "examples" / "brawl.toml"
SIZES = (10, 20, 50)


def ttb_text(n: int) -> str:
    """`n` combatants: Fated with sabres and pistols against Fatemaster henchmen with cudgels, strong enough
    (Rank Value 9, Melee 5) that either side wins about half the runs: a Fated's Control Hand and its own flip
    beat a weaker Fatemaster character every time."""
    parts = ['[encounter]\nname = "Bench brawl"\nsystem = "ttb"\nseed = 5\n']
    for i in range(n):
        if i % 2 == 0:
            parts.append(
                f'[[combatants]]\nname = "Fated {i:02d}"\nkind = "fated"\ninitiative = 3\nspeed = {i}\nwounds = 8\n'
                "defense = 5\nskills = { melee = 2, pistol = 2, toughness = 2 }\n"
                'weapons = [{ name = "Sabre", kind = "melee", damage = "2/3/5" }, '
                '{ name = "Pistol", kind = "projectile", range = 12, damage = "2/3/4", reload = 1, capacity = 2 }]\n'
            )
        else:
            parts.append(
                f'[[combatants]]\nname = "Brute {i:02d}"\nrank_value = 9\ninitiative = 2\nspeed = {i}\nwounds = 8\n'
                "defense = 3\nskills = { melee = 5 }\n"
                'weapons = [{ name = "Cudgel", kind = "melee", damage = "2/3/5" }]\n'
            )
    return "\n".join(parts)


def twod20_text(n: int) -> str:
    """`n` combatants over three zones in a row: player characters with pistols against major NPCs armed and
    trained the same, a zone apart, so either side wins about half the runs."""
    parts = [
        '[encounter]\nname = "Bench firefight"\nsystem = "2d20"\nseed = 5\nprofile = "srd"\n'
        'action_order = "alternating"\nmomentum = 2\nthreat = 6\n',
        '[[zones]]\nname = "Pier"\nadjacent = ["Yard"]\n[[zones]]\nname = "Yard"\nadjacent = ["Warehouse"]\n'
        '[[zones]]\nname = "Warehouse"\n',
    ]
    attributes = "{ agility = 9, brawn = 9, coordination = 10, insight = 9, reason = 9, will = 9 }"
    for i in range(n):
        if i % 2 == 0:
            parts.append(
                f'[[combatants]]\nname = "Agent {i:02d}"\nattributes = {attributes}\n'
                'skills = { fight = 2, survive = 1 }\nstress = 10\narmor = 1\nzone = "Pier"\n'
                'weapons = [{ name = "Pistol", range = "close", damage = 4, effects = ["vicious=1"] }]\n'
            )
        else:
            parts.append(
                f'[[combatants]]\nname = "Cultist {i:02d}"\nnpc_type = "major"\nattributes = {attributes}\n'
                'skills = { fight = 2 }\nstress = 10\nharm_capacity = 3\narmor = 1\nzone = "Yard"\n'
                'weapons = [{ name = "Pistol", range = "close", damage = 4, effects = ["vicious=1"] }]\n'
            )
    return "\n".join(parts)


def rate(text: str, runs: int, workers: int) -> tuple[float, str]:
    """Runs per second over `runs` runs (after one warm-up run), and the party's chance they gave."""
    session = Session(parse_text(text, "<bench>"))
    fight_odds(session.family, session.rules, 1, seed=1, workers=1)
    t0 = time.perf_counter()
    odds = fight_odds(session.family, session.rules, runs, seed=1, workers=workers)
    seconds = time.perf_counter() - t0
    return runs / seconds, f"median {odds.summed.median} rounds, {odds.rating()}"


def process(argv: list[str], stdin: str = "") -> float:
    """Wall seconds of one `tracker` process, start to exit (it must succeed)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    t0 = time.perf_counter()
    done = subprocess.run(argv, input=stdin, capture_output=True, text=True, check=False, env=env, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"{argv} failed: {done.stderr}")
    return time.perf_counter() - t0


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_fight_odds")
    parser.add_argument("--runs", type=int, default=400, help="runs per measure of runs per second")
    parser.add_argument("--brawl-runs", type=int, default=2500, help="runs of the brawl (0: skip it)")
    args = parser.parse_args(argv)
    cores = os.cpu_count() or 1
    print(f"runs per second ({cores} cores; load average {os.getloadavg()[0]:.1f})")
    for family, make in (("ttb", ttb_text), ("2d20", twod20_text)):
        for n in SIZES:
            one, said = rate(make(n), args.runs, 1)
            every, _ = rate(make(n), args.runs, cores)
            print(f"  {family:<4} {n:>3} combatants: {one:7.1f} on one core, {every:7.1f} on {cores}  ({said})")
    if args.brawl_runs:
        tracker = [sys.executable, "-m", "tracker"]
        execs = sorted(process([*tracker, "exec", str(BRAWL)], "start\n") for _ in range(5))
        one_exec = execs[len(execs) // 2]
        odds = process([*tracker, "odds", str(BRAWL), "--fight", "--runs", str(args.brawl_runs), "--seed", "1"])
        print(
            f"brawl: {args.brawl_runs} runs {odds:.2f} s, one tracker exec {one_exec:.3f} s: "
            f"{odds / one_exec:.0f}× (target ≤ 25×)"
        )


if __name__ == "__main__":
    main()
