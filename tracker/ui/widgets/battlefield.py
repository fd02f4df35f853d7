"""Where everyone stands: TTB melee engagements with their consequences, or the 2d20 zone map with
occupants, Reach pairs and the range and Difficulty from the selected combatant to every other."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from tracker.rules.errors import Refusal
from tracker.rules.session import Session
from tracker.ui.widgets.base import Panel


class BattlefieldPanel(Panel):
    DEFAULT_CSS = "BattlefieldPanel { overflow-y: auto; }"

    def compose(self) -> ComposeResult:
        yield Static(id="field-body")

    def show(self, session: Session) -> None:
        body = self.query_one("#field-body", Static)
        self.put(body, self._ttb(session) if session.system == "ttb" else self._zones(session))

    def _ttb(self, session: Session) -> Text:
        eng = session.engine
        out = Text()
        if not eng.st.engagements:
            out.append("Nobody is engaged in melee.\n", style="italic")
        for a, b in eng.st.engagements:
            out.append(f"{a} ⚔ {b}\n", style="bold")
        engaged = [n for n in eng.sheets if eng.engaged_by(n)]
        for name in engaged:
            foes = ", ".join(eng.engaged_by(name))
            out.append(
                f"  {name}: engaged by {foes} — no shooting, no Charge; walking away provokes a disengaging strike\n"
            )
        return out

    def _zones(self, session: Session) -> Text:
        from tracker.rules.twod20.core import range_report

        eng = session.engine
        out = Text()
        zones = eng.zones.names()
        if not zones:
            return Text("This encounter has no zones.", style="italic")
        for zone in zones:
            people = [n for n, a in eng.st.fighters.items() if a.zone == zone and not a.dead]
            traits = eng.zones.traits(zone)
            out.append(f"{zone}", style="bold")
            if traits:
                out.append(f" [{', '.join(traits)}]", style="italic")
            out.append(f" → {', '.join(eng.zones.neighbours(zone)) or '—'}\n")
            if people:
                out.append(f"   {', '.join(people)}\n")
        if eng.st.reach:
            out.append("Reach: " + "; ".join(f"{a}–{b}" for a, b in eng.st.reach) + "\n")
        who = self.focus_name()
        if who and eng.fighter(who).zone:
            out.append(f"\nFrom {who} (Close-range weapon):\n", style="bold")
            for other, a in eng.st.fighters.items():
                if other == who or a.dead or a.zone is None:
                    continue
                try:
                    out.append(f"  {other}: {range_report(eng, who, other, 'close')}\n")
                except Refusal as exc:
                    out.append(f"  {other}: {exc}\n")
        return out
