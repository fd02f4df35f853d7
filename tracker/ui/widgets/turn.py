"""The active combatant's budget: TTB General and Combat AP as pips with every action's cost and
legality (and why not); 2d20 Major, Minor and Reaction use this turn and round."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from tracker.rules.session import Session
from tracker.ui.present import pips
from tracker.ui.widgets.base import Panel


class TurnPanel(Panel):
    DEFAULT_CSS = """
    TurnPanel { overflow-y: auto; }
    TurnPanel > Static { width: 1fr; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="turn-body")

    def show(self, session: Session) -> None:
        body = self.query_one("#turn-body", Static)
        who = session.state.active
        if who is None:
            self.put(body, Text("No turn is open.", style="italic"))
            return
        if session.system == "ttb":
            self.put(body, self._ttb(session, who))
        else:
            self.put(body, self._twod20(session, who))

    def _ttb(self, session: Session, who: str) -> Text:
        from tracker.rules.ttb import actions

        eng = session.engine
        f = eng.fighter(who)
        base = max(f.ap, eng.sheet(who).base_general_ap)
        out = Text()
        out.append(f"{who}\n", style="bold")
        out.append(f"General AP {pips(f.ap, base)} {f.ap}   Combat AP {pips(f.combat_ap, 1)} {f.combat_ap}\n")
        if not eng.sheet(who).fated:
            out.append(f"Fate Points {f.fate_points}\n")
        engaged = eng.engaged_by(who)
        if engaged:
            out.append(f"Engaged by {', '.join(engaged)}: no shooting, no Charge\n", style="bold")
        out.append("\n")
        for key, act, reason in actions.available(eng, who):
            cost = "X" if act.cost is None else str(act.cost)
            line = f"{actions.display(key):<15} {cost:>2} AP  "
            if reason is None:
                out.append(line + "\n")
            else:
                out.append(line + reason + "\n", style="dim")
        return out

    def _twod20(self, session: Session, who: str) -> Text:
        eng = session.engine
        a = eng.fighter(who)
        out = Text()
        out.append(f"{who}\n", style="bold")
        majors_turn = f"{a.majors_turn}/{a.majors_allowed}"
        out.append(f"Major {majors_turn} this turn ({a.majors}/2 this round)\n")
        extra = f" (+{len(a.minors) - 1} paid)" if len(a.minors) > 1 else ""
        out.append(f"Minor {len(a.minors)}{extra}: {', '.join(a.minors) or '—'}\n")
        out.append(
            f"Reactions this round: {a.reactions}"
            + (" (the next costs more Heat)" if eng.profile.reactions == "escalating" else " of 1")
            + "\n"
        )
        if a.conditions.get("stunned"):
            out.append("Stunned: no actions this turn\n", style="bold")
        if a.defeated:
            out.append("Defeated: one Free Action\n", style="bold")
        foes = eng.in_reach_of_enemy(who)
        if foes:
            out.append(f"Within Reach of {', '.join(foes)}: +2 Difficulty to non-melee tests; Disengage to move\n")
        return out
