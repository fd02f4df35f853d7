"""Engine benchmark: 100 combatants with 3 conditions each, 1,000 `next` commands.

Prints the median time per command for the engine alone and with the durable save (atomic replace
with fsync). Targets: ≤ 1 ms and ≤ 10 ms. Run: python -m bench.bench_engine
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from tracker.families.session import Session
from tracker.store import files, save

COMBATANTS = 100
COMMANDS = 1000


def encounter_text(n: int = COMBATANTS) -> str:
    """A large TTB fight: a few Fated, Fatemaster characters of every rank, three conditions each."""
    parts = ['[encounter]\nname = "Benchmark brawl"\nsystem = "ttb"\nseed = 5\n']
    for i in range(n):
        fated = i % 10 == 0
        parts.append("[[combatants]]")
        parts.append(f'name = "Fighter {i:03d}"')
        if fated:
            parts.append('kind = "fated"')
        else:
            parts.append(f"rank_value = {1 + i % 14}")
        parts.append(f"initiative = {i % 5}")
        parts.append(f"speed = {i}")  # distinct Speed: no tie prompts in the benchmark
        parts.append(f"wounds = {6 + i % 5}")
        parts.append("conditions = { dazed = true, crazy = 2, blind = true }\n")
    return "\n".join(parts)


def twod20_text(n: int = COMBATANTS, zones: int = 10) -> str:
    """A large 2d20 conflict over a chain of zones, initiative order (no hand-over prompts)."""
    parts = [
        '[encounter]\nname = "Benchmark firefight"\nsystem = "2d20"\nseed = 5\nprofile = "srd"\n'
        'action_order = "initiative"\n'
    ]
    for z in range(zones):
        nxt = f'"Zone {z + 1}"' if z + 1 < zones else ""
        parts.append(f'[[zones]]\nname = "Zone {z}"\nadjacent = [{nxt}]\n')
    for i in range(n):
        npc = "" if i % 4 == 0 else 'npc_type = "minor"\n'
        parts.append(
            f'[[combatants]]\nname = "Agent {i:03d}"\n{npc}initiative = {i % 50}\nstress = 12\narmor = 1\n'
            f'zone = "Zone {i % zones}"\nconditions = {{ prone = true, dazed = true, persistent = 1 }}\n'
        )
    return "\n".join(parts)


def run_family(label: str, text: str, opening: tuple[str, ...] = ("start",)) -> None:
    """Time 1,000 `next` alone and with the durable save for one encounter text.

    `opening` starts the fight (and answers what `start` asks). The durable run saves the way `tracker
    run` does: the GM's setup text kept byte for byte (`save.session_from_text`), the live part regenerated.
    """
    setup = files.parse_text(text, "<bench>")
    session = Session(setup)
    for line in opening:
        session.execute(line)
    engine_times = []
    for _ in range(COMMANDS):
        t0 = time.perf_counter()
        session.execute("next")
        engine_times.append(time.perf_counter() - t0)

    session = save.session_from_text(text, "<bench>")
    for line in opening:
        session.execute(line)
    durable_times = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.toml"
        files.write_text(path, save.encounter_text(session))
        for _ in range(COMMANDS):
            t0 = time.perf_counter()
            session.execute("next")
            files.write_text(path, save.encounter_text(session))
            durable_times.append(time.perf_counter() - t0)
        size = path.stat().st_size
        t0 = time.perf_counter()
        reloaded = save.load_session(path)
        load_time = time.perf_counter() - t0
        t0 = time.perf_counter()
        reloaded.execute("undo")
        undo_time = time.perf_counter() - t0

    def ms(values: list[float]) -> str:
        return (
            f"median {statistics.median(values) * 1000:.3f} ms, "
            f"p95 {sorted(values)[int(len(values) * 0.95)] * 1000:.3f} ms"
        )

    print(f"{label}: {COMBATANTS} combatants × 3 conditions, {COMMANDS} `next` (round {session.state.round})")
    print(f"engine alone      : {ms(engine_times)}   (target ≤ 1 ms)")
    print(f"engine + durable  : {ms(durable_times)}   (target ≤ 10 ms)")
    print(
        f"file after the run: {size / 1024:.0f} KiB; load {load_time * 1000:.0f} ms; "
        f"undo after restart (replay of {COMMANDS + 1} commands) {undo_time * 1000:.0f} ms"
    )


def main() -> None:
    run_family("Through the Breach", encounter_text())
    # Initiative order asks who started the conflict (docs/rules/2d20.md#s3); the first agent did.
    run_family("2d20 (10 zones)", twod20_text(), ("start", 'pick "Agent 000"'))


if __name__ == "__main__":
    main()
