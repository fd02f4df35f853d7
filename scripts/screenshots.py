"""Write the README's SVG screenshots of both systems: python scripts/screenshots.py"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path

from tracker.rules.session import Session
from tracker.store import files
from tracker.store.save import encounter_text
from tracker.ui.app import TrackerApp

ROOT = Path(__file__).resolve().parent.parent
SHOTS = {
    "ttb.svg": (
        "brawl.toml",
        [
            "initiative Sofia 10",
            "initiative Ash 8",
            "initiative Marguerite 5",
            "start",
            "answer Belle",
            "engage Sofia 'Guild Thug'",
            "add Ash bleeding_out 3",
            "add Marguerite burning 2",
            "spend Sofia strike",
            "damage Thug 2/3/5 margin=8",
        ],
    ),
    "2d20.svg": (
        "skirmish_srd.toml",
        [
            "start",
            "pick Ada",
            "spend Ada attack",
            "damage Cultist 4 icons=1",
            "next",
            "pick Enforcer",
            "move Enforcer Boathouse",
            "reach Enforcer Brann",
            "damage Brann 9 icons=2 persistent=1",
        ],
    ),
}


async def shoot(name: str, example: str, commands: list[str], folder: Path) -> None:
    target = folder / example
    shutil.copy(ROOT / "examples" / example, target)
    session = Session(files.load(target))
    for line in commands:
        session.execute(line)
    files.write_text(target, encounter_text(session))
    app = TrackerApp(session, target)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        app.save_screenshot(filename=name, path=str(ROOT / "docs"))


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for name, (example, commands) in SHOTS.items():
            asyncio.run(shoot(name, example, commands, Path(tmp)))
            print(f"wrote docs/{name}")


if __name__ == "__main__":
    main()
