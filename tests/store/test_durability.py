"""Durability under SIGKILL: a writer killed at random moments across hundreds of commands
always leaves a valid file that holds every command it acknowledged (on disk before on screen)."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
from pathlib import Path

from tracker.families.session import Session
from tracker.store import files

WRITER = """
import sys
from pathlib import Path
from tracker.families.session import Session
from tracker.store import files
from tracker.store.save import encounter_text

path = Path(sys.argv[1])
session = Session(files.load(path))
if session.state.phase == "setup":
    session.execute("start")
    files.write_text(path, encounter_text(session))
while True:
    session.execute("next")
    files.write_text(path, encounter_text(session))
    print(len(session.history.commands), flush=True)   # the acknowledgement: after the durable write
"""

ENCOUNTER = """
[encounter]
name = "Kill test"
system = "ttb"
seed = 3
[[combatants]]
name = "A"
rank_value = 9
initiative = 3
wounds = 8
[[combatants]]
name = "B"
rank_value = 5
initiative = 1
wounds = 6
conditions = { poison = 1 }
"""


def test_sigkill_never_loses_an_acknowledged_command(tmp_path: Path) -> None:
    path = tmp_path / "fight.toml"
    path.write_text(ENCOUNTER)
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    rng = random.Random(7)
    total_acked = 0
    for _ in range(6):
        proc = subprocess.Popen([sys.executable, str(script), str(path)], stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        acked = 0
        wanted = rng.randint(20, 70)
        for line in proc.stdout:
            acked = int(line)
            wanted -= 1
            if wanted <= 0:
                break
        proc.send_signal(signal.SIGKILL)  # at a random moment of the next command or save
        proc.wait()
        proc.stdout.close()
        session = Session(files.load(path))  # always a valid file
        assert len(session.history.commands) >= acked
        total_acked = acked
        leftovers = [p for p in tmp_path.iterdir() if p.name.startswith(".fight.toml.")]
        for p in leftovers:  # a temp file from a write cut short may remain; it is never the file itself
            p.unlink()
    assert total_acked >= 200
