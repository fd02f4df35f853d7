"""The table's resources: the TTB Fate Deck (cards left, discards, Jokers seen, hands and Fate
Points), or the 2d20 pools (Momentum, Threat or Heat, each player's Fortune)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from tracker.rules.session import Session
from tracker.ui.present import pips
from tracker.ui.widgets.base import Panel


class ResourcesPanel(Panel):
    DEFAULT_CSS = "ResourcesPanel { overflow-y: auto; }"

    def compose(self) -> ComposeResult:
        yield Static(id="resources-body")

    def show(self, session: Session) -> None:
        body = self.query_one("#resources-body", Static)
        self.put(body, self._deck(session) if session.system == "ttb" else self._pools(session))

    def _deck(self, session: Session) -> Text:
        st = session.state
        eng = session.engine
        out = Text()
        out.append("Fate Deck ", style="bold")
        out.append(f"{len(st.deck)} left · {len(st.discards)} discarded · {st.reshuffles} reshuffles\n")
        jokers = [c for c in st.discards if c in ("RJ", "BJ")]
        seen = ", ".join("Red Joker" if c == "RJ" else "Black Joker" for c in jokers)
        out.append(f"Jokers in the discards: {seen or 'none'}\n")
        out.append("\nControl Hands\n", style="bold")
        for name, sheet in eng.sheets.items():
            if sheet.fated:
                f = st.fighters[name]
                over = " (over 5: discard pending)" if len(f.hand) > 5 else ""
                out.append(f"  {name}: {len(f.hand)} cards, Twist Deck {len(f.twist_deck)}{over}\n")
        fp = [(n, st.fighters[n].fate_points) for n, s in eng.sheets.items() if not s.fated]
        if fp:
            out.append("\nFate Points\n", style="bold")
            for name, points in fp:
                out.append(f"  {name}: {points}\n")
        return out

    def _pools(self, session: Session) -> Text:
        st = session.state
        eng = session.engine
        out = Text()
        cap = eng.profile.momentum_max
        out.append("Momentum ", style="bold")
        out.append(f"{pips(st.momentum, cap)} {st.momentum}/{cap}\n")
        out.append(f"{eng.pool_name} ", style="bold")
        out.append(f"{st.threat}\n")
        if st.bonus_momentum:
            out.append(f"Bonus Momentum this turn: {st.bonus_momentum} (lost if unspent)\n")
        out.append(f"\n{eng.profile.meta_currency.title()}\n", style="bold")
        for name, sheet in eng.sheets.items():
            if sheet.pc:
                out.append(f"  {name}: {st.fighters[name].fortune}\n")
        out.append(f"\nProfile: {eng.profile.name} · order: {eng.order_rule}\n", style="dim")
        return out
