"""The GM's screen: every panel, the prompt bar and the command line, and the keys that drive them.

Data flows one way: a key or the command line → `TrackerApp.submit` (command → engine → durable save)
→ `revision` → every panel redraws from the state. Panels never change state themselves.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Footer, Input, Static, TabbedContent, TabPane

from tracker.ui.palette import TrackerCommands
from tracker.ui.screens.modals import ActionPicker, HelpScreen, RuleScreen
from tracker.ui.widgets.base import Panel
from tracker.ui.widgets.battlefield import BattlefieldPanel
from tracker.ui.widgets.command import CommandLine, CommandSuggester
from tracker.ui.widgets.conditions import ConditionsPanel
from tracker.ui.widgets.initiative import InitiativePanel
from tracker.ui.widgets.log import LogPanel
from tracker.ui.widgets.order_table import OrderTable
from tracker.ui.widgets.prompt import PromptBar, answer_line
from tracker.ui.widgets.resources import ResourcesPanel
from tracker.ui.widgets.turn import TurnPanel

GM_ONLY_ACTIONS = {"next_turn", "undo", "redo", "spend", "prefill", "pool", "command", "answer"}
TWOD20_ACTIONS = {"pool"}


class TrackerScreen(Screen[None]):
    """The main screen for both rule families; `read_only` turns it into a viewer."""

    COMMANDS = {TrackerCommands}
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (36, "-tall")]

    BINDINGS = [
        Binding("n", "next_turn", "Next", id="next", tooltip="End the turn (or start the fight)"),
        Binding("u", "undo", "Undo", id="undo"),
        Binding("ctrl+y", "redo", "Redo", id="redo", show=False),
        Binding("s", "spend", "Spend", id="spend"),
        Binding("d", "prefill('damage')", "Damage", id="damage"),
        Binding("h", "prefill('heal')", "Heal", id="heal", show=False),
        Binding("a", "prefill('add')", "Add cond.", id="add"),
        Binding("r", "prefill('remove')", "Remove cond.", id="remove", show=False),
        Binding("m", "prefill('move')", "Move", id="move"),
        Binding("plus", "pool('momentum', 1)", "Momentum +1", id="momentum-up", show=False),
        Binding("minus", "pool('momentum', -1)", "Momentum −1", id="momentum-down", show=False),
        Binding("right_square_bracket", "pool('threat', 1)", "Threat +1", id="threat-up", show=False),
        Binding("left_square_bracket", "pool('threat', -1)", "Threat −1", id="threat-down", show=False),
        Binding("colon", "command", "Command", id="command"),
        Binding("i", "rule", "Rule", id="rule", show=False),
        Binding("t", "cycle_theme", "Theme", id="theme", show=False),
        Binding("comma", "tab(-1)", "Previous tab", id="tab-prev", show=False),
        Binding("full_stop", "tab(1)", "Next tab", id="tab-next", show=False),
        Binding("question_mark,f1", "help", "Help", id="help"),
        *[Binding(str(i), f"answer({i})", f"Answer {i}", id=f"answer-{i}", show=False) for i in range(1, 10)],
        Binding("escape", "focus_order", "Back to the order", id="focus-order", show=False),
        Binding("q", "app.quit", "Quit", id="quit"),
    ]

    #: Bumped after every accepted command; every panel is bound to it.
    revision = var(0)
    #: The combatant selected in the order table.
    selected: var[str | None] = var(None)

    def __init__(self, read_only: bool = False) -> None:
        super().__init__()
        self.read_only = read_only

    def compose(self) -> ComposeResult:
        app: Any = self.app
        session = app.session
        system = session.system
        yield Static(id="title")
        yield Static(id="caption")
        with Horizontal(id="body"):
            yield InitiativePanel(id="order").data_bind(TrackerScreen.revision, TrackerScreen.selected)
            with TabbedContent(id="side"):
                with TabPane("Turn", id="tab-turn"):
                    yield TurnPanel().data_bind(TrackerScreen.revision)
                with TabPane("Conditions", id="tab-conditions"):
                    yield ConditionsPanel().data_bind(TrackerScreen.revision, TrackerScreen.selected)
                with TabPane("Melee" if system == "ttb" else "Zones", id="tab-field"):
                    yield BattlefieldPanel().data_bind(TrackerScreen.revision, TrackerScreen.selected)
                with TabPane("Fate Deck" if system == "ttb" else "Pools", id="tab-resources"):
                    yield ResourcesPanel().data_bind(TrackerScreen.revision)
                with TabPane("Log", id="tab-log"):
                    yield LogPanel().data_bind(TrackerScreen.revision)
        with Vertical(id="log-strip"):
            yield LogPanel(id="log-bottom").data_bind(TrackerScreen.revision)
        yield PromptBar(id="prompt").data_bind(TrackerScreen.revision)
        if not self.read_only:
            yield CommandLine(
                placeholder="command (e.g. damage thug 4) — Enter to run, Esc to leave",
                suggester=CommandSuggester(lambda: app.session),
                select_on_focus=False,
                id="command-line",
            )
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#order-table", OrderTable).focus()
        self.query_one("#caption", Static).display = False
        self._update_title()

    def show_caption(self, text: str | None) -> None:
        """The demo's caption for the step being played (hidden when None)."""
        caption = self.query_one("#caption", Static)
        caption.update(text or "")
        caption.display = bool(text)

    def watch_revision(self) -> None:
        if self.is_mounted:
            self._update_title()
            # The footer is rebuilt only when the set of usable keys can have changed.
            signature = self._bindings_signature()
            if signature != getattr(self, "_signature", None):
                self._signature = signature
                self.refresh_bindings()

    def _bindings_signature(self) -> tuple[object, ...]:
        app: Any = self.app
        st = app.session.state
        prompt = st.prompt
        return (
            st.phase,
            st.active is None,
            prompt.kind if prompt else None,
            len(prompt.options) if prompt else 0,
            bool(app.session.history.commands),
            bool(app.session.history.undone),
        )

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        """Panels in hidden tabs skip their redraws; the one coming into view catches up."""
        for panel in event.pane.query(Panel):
            panel.catch_up()

    def _update_title(self) -> None:
        app: Any = self.app
        session = app.session
        st = session.state
        label = "VIEW ONLY · " if self.read_only else ""
        system = "Through the Breach" if session.system == "ttb" else f"2d20 {session.engine.profile.name}"
        where = f"Round {st.round}" if st.round else "not started"
        active = f" · {st.active}'s turn" if st.active else ""
        if session.system == "2d20":  # the pools first: the active name is in the order panel too
            active = f" · Momentum {st.momentum} · {session.engine.pool_name} {st.threat}" + active
        self.query_one("#title", Static).update(
            f"{label}{session.setup.encounter.name} · {system} · {where}{active}", layout=False
        )

    # --- selection ---------------------------------------------------------------------
    def on_order_table_highlighted(self, event: OrderTable.Highlighted) -> None:
        self.selected = event.name

    # --- which keys make sense now (footer and palette) -----------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        app: Any = self.app
        session = app.session
        if self.read_only and action in GM_ONLY_ACTIONS:
            return False
        if action in TWOD20_ACTIONS and session.system != "2d20":
            return False
        if action == "prefill" and parameters and parameters[0] == "move" and session.system != "2d20":
            return False
        st = session.state
        if action == "answer":
            prompt = st.prompt
            return prompt is not None and int(str(parameters[0])) <= len(prompt.options)
        if action == "spend":
            return st.active is not None or None
        if action == "undo":
            return bool(session.history.commands) or None
        if action == "redo":
            return bool(session.history.undone) or None
        return True

    # --- actions -------------------------------------------------------------------------
    def run_line(self, line: str) -> None:
        app: Any = self.app
        error = app.submit(line)
        if error:
            self.notify(error, severity="error", timeout=6)

    def action_next_turn(self) -> None:
        app: Any = self.app
        phase = app.session.state.phase
        self.run_line("start" if phase in ("setup", "ended") else "next")

    def action_undo(self) -> None:
        self.run_line("undo")

    def action_redo(self) -> None:
        self.run_line("redo")

    def action_pool(self, pool: str, delta: int) -> None:
        self.run_line(f"{pool} {delta:+d} GM")

    def action_answer(self, number: int) -> None:
        app: Any = self.app
        prompt = app.session.state.prompt
        if prompt is not None and number <= len(prompt.options):
            self.run_line(answer_line(app.session, prompt.options[number - 1]))

    def _target(self) -> str | None:
        app: Any = self.app
        return self.selected or app.session.state.active

    def action_prefill(self, verb: str) -> None:
        if self.read_only:
            return
        who = self._target()
        name = f"'{who}'" if who and " " in who else (who or "")
        line = self.query_one("#command-line", Input)
        line.value = f"{verb} {name} " if name else f"{verb} "
        line.cursor_position = len(line.value)
        line.focus()

    def action_command(self) -> None:
        if not self.read_only:
            self.query_one("#command-line", Input).focus()

    def action_focus_order(self) -> None:
        self.query_one("#order-table", OrderTable).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        line = event.value.strip()
        if not line:
            self.action_focus_order()
            return
        app: Any = self.app
        error = app.submit(line)
        if error:
            self.notify(error, severity="error", timeout=6)
        else:
            event.input.value = ""
            self.action_focus_order()

    def action_spend(self) -> None:
        app: Any = self.app
        session = app.session
        who = session.state.active
        if who is None:
            self.notify("No turn is open: n starts or moves to the next turn", severity="warning")
            return
        if session.system == "ttb":
            from tracker.rules.ttb import actions

            rows = []
            for k, a, reason in actions.available(session.engine, who):
                cost = "X AP (you say how many)" if a.cost is None else f"{a.cost} AP"
                rows.append((k, f"{actions.display(k):<16} {cost}", reason))
        else:
            from tracker.rules.twod20 import actions as twod20_actions

            rows = [
                (k, f"{k.replace('_', '-'):<16} {a.kind}", twod20_actions.legality(session.engine, who, k))
                for k, a in twod20_actions.ACTIONS.items()
            ]
            rows.sort(key=lambda r: r[2] is not None)

        def chosen(key: str | None) -> None:
            if key is None:
                return
            needs_more = key in (
                "charge",
                "assist",
                "impose",
                "trick",
                "order",
                "show",
                "doctor",
                "defensive",
                "wait",
                "cast",
                "cast_resisted",
                "reload",
                "recovery",
            )
            name = f"'{who}'" if " " in who else who
            text = f"spend {name} {key.replace('_', '-')}"
            if needs_more:
                line = self.query_one("#command-line", Input)
                line.value = text + " "
                line.cursor_position = len(line.value)
                line.focus()
            else:
                self.run_line(text)

        self.app.push_screen(ActionPicker(who, rows), chosen)

    def action_rule(self) -> None:
        app: Any = self.app
        session = app.session
        who = self._target()
        entries = []
        if who is not None:
            if session.system == "ttb":
                from tracker.rules.ttb.catalogue import CONDITIONS as TTB_CONDITIONS

                for key in session.state.fighters[who].conditions:
                    rule = TTB_CONDITIONS.get(key)
                    if rule:
                        entries.append((rule.title, rule.summary, rule.section))
            else:
                from tracker.rules.twod20.catalogue import CONDITIONS as TWOD20_CONDITIONS

                for key in session.state.fighters[who].conditions:
                    rule2 = TWOD20_CONDITIONS.get(key)
                    if rule2:
                        entries.append((rule2.title, rule2.summary, rule2.section))
        self.app.push_screen(RuleScreen(entries))

    def action_tab(self, step: int) -> None:
        """`,` and `.` move between the side panel's tabs (Turn, Conditions, Melee/Zones, …)."""
        tabs = self.query_one("#side", TabbedContent)
        panes = [pane.id for pane in tabs.query(TabPane) if pane.id]
        if tabs.active in panes:
            tabs.active = panes[(panes.index(tabs.active) + step) % len(panes)]

    def action_help(self) -> None:
        rows = []
        for b in self.BINDINGS:
            if not isinstance(b, Binding):
                continue
            action, _, args = b.action.partition("(")
            params = tuple(a.strip(" '\")") for a in args.split(",")) if args else ()
            if self.check_action(action.removeprefix("app."), params) is False:
                continue  # keys that do nothing in this encounter (2d20 keys in a TTB fight)
            keys = " ".join(self.app.get_key_display(Binding(k, b.action)) for k in b.key.split(","))
            rows.append((keys, b.description))
        self.app.push_screen(HelpScreen(rows))

    def action_cycle_theme(self) -> None:
        app: Any = self.app
        app.cycle_theme()

    def panels(self) -> list[Panel]:
        return list(self.query(Panel))
