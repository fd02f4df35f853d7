"""Write the README's SVG screenshots of both systems, the odds and the story:
python scripts/screenshots.py [NAME.svg …]"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
from pathlib import Path

from textual.widgets import TabbedContent

from tracker.families.session import Session
from tracker.store import files
from tracker.store.save import encounter_text
from tracker.ui.app import TrackerApp

ROOT = Path(__file__).resolve().parent.parent
#: Stands for an example's whole [[demo]], played.
DEMO = ["<demo>"]
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
    # The odds: a duel waiting to be flipped, with the Fate Deck tab open; Ada's chances in the Zones tab.
    "ttb-odds.svg": ("duel.toml", ["initiative Sofia 9", "start", "spend Sofia charge Enforcer", "answer pass 1"]),
    "2d20-odds.svg": ("skirmish_srd.toml", ["start", "pick Ada"]),
    # A campaign fight after reinforcements: the party from party.toml, enemies from the bestiary, two
    # more Guild Thugs joining in round 2 and a cutthroat fleeing.
    "campaign.svg": (
        "campaign/1_ambush.toml",
        [
            "initiative Sofia 10",
            "initiative Ash 8",
            "initiative Marguerite 5",
            "start",
            "answer 'Guild Thug 1'",
            "answer 'Dockside Cutthroat 1'",
            "engage Sofia 'Guild Thug 1'",
            "spend Sofia strike",
            "damage 'Guild Thug 1' 2/3/5 margin=12",
            "join 'Guild Thug' count=2",
            "leave 'Dockside Cutthroat 2'",
            "next",
        ],
    ),
    # The story: the Story tab after the brawl's demo, and the 2d20 skirmish's story full screen (S).
    "story.svg": ("brawl.toml", DEMO),
    "story-2d20.svg": ("skirmish_srd.toml", DEMO),
    # The map: the harbour's zones mid-fight with the Enforcer's range bands; the brawl's engagements.
    "2d20-map.svg": (
        "skirmish_srd.toml",
        [
            "start",
            "pick Ada",
            "spend Ada attack",
            "damage Cultist 4 icons=1 vicious=1",
            "next",
            "pick Enforcer",
            "move Enforcer Boathouse",
            "reach Enforcer Brann",
        ],
    ),
    "ttb-melee.svg": (
        "brawl.toml",
        [
            "initiative Sofia 10",
            "initiative Ash 8",
            "initiative Marguerite 5",
            "start",
            "answer Belle",
            "engage Sofia 'Guild Thug'",
            "engage Sofia Lieutenant",
            "engage Ash Ghoul",
            "engage Marguerite Lieutenant",
        ],
    ),
}
#: The side tab a screenshot shows (the Turn tab otherwise).
TABS = {
    "ttb-odds.svg": "tab-resources",
    "2d20-odds.svg": "tab-field",
    "2d20-map.svg": "tab-field",
    "ttb-melee.svg": "tab-field",
    "story.svg": "tab-story",
}
#: Keys pressed before the shot.
KEYS = {"story-2d20.svg": ["S"]}
#: The terminal size of a screenshot: 120×36, or 100×30 for a side tab, unless given here (the map
#: takes half of a screen 160 columns wide).
SIZES = {"2d20-map.svg": (160, 40), "story.svg": (120, 36), "story-2d20.svg": (100, 40)}
#: A screenshot of what lies below the map in its tab: the panel is scrolled to it.
BELOW_MAP = {"2d20-odds.svg"}


async def shoot(name: str, example: str, commands: list[str], folder: Path) -> None:
    # The whole examples folder, so a campaign encounter finds its party and bestiary files.
    shutil.copytree(ROOT / "examples", folder / "examples", dirs_exist_ok=True)
    target = folder / "examples" / example
    session = Session(files.load(target))
    if commands == DEMO:
        commands = [step.do for step in session.setup.demo]
    for line in commands:
        session.execute(line)
    files.write_text(target, encounter_text(session))
    app = TrackerApp(session, target)
    size = SIZES.get(name, (100, 30) if name in TABS else (120, 36))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        if name in TABS:
            app.screen.query_one("#side", TabbedContent).active = TABS[name]
            await pilot.pause()
        if name in BELOW_MAP:
            body = app.screen.query_one("#field .panel-body")
            app.screen.query_one("#field").scroll_to_widget(body, top=True, animate=False)
            await pilot.pause()
        for key in KEYS.get(name, []):
            await pilot.press(key)
            await pilot.pause()
        await pilot.pause(0.3)  # the story's plots draw once laid out
        app.save_screenshot(filename=name, path=str(ROOT / "docs"))


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wanted = sys.argv[1:] or list(SHOTS)
        for name, (example, commands) in SHOTS.items():
            if name not in wanted:
                continue
            asyncio.run(shoot(name, example, commands, Path(tmp)))
            print(f"wrote docs/{name}")


if __name__ == "__main__":
    main()
