"""The GM's screen: every panel, the prompt bar and the command line, and the keys that drive them.

It stays one class of some 600 lines: Textual finds a screen's reactives, watchers, message handlers and
actions on its own class, and here they all act on the same slices of one `EncounterView`; split into mixins
they would share that state through attributes no type checker follows. What needs no Textual lives beside
it (`tracker.ui.screens.marks`: breakpoints and turn marks; `tracker.ui.title`; `tracker.ui.fight_odds`), the
actions both screens share in `tracker.ui.screens.acting`, the keys in `tracker.ui.screens.bindings`.

Data flows one way (docs/architecture/index.md): a key or the command line → a `Submit` message → the app runs
the command (engine → durable save) → the family builds one typed `EncounterView` → the screen sets
its slices (`header`, `order`, `turn` …) → each panel, bound to its slice with `data_bind`, redraws only
when its slice changed. No panel reads the session; the screen asks the family, never "which system?".
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, TypeVar, cast

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.geometry import Size
from textual.reactive import var
from textual.widget import Widget
from textual.widgets import Footer, Input, Static, TabbedContent, TabPane

from tracker.engine.errors import Refusal
from tracker.engine.language.commands import prefilled
from tracker.families.presenter import FamilyPresenter
from tracker.families.rules import FamilyRules
from tracker.present.view import (
    Block,
    ConditionNote,
    EncounterView,
    HeaderView,
    OddsView,
    OrderRow,
    OrderView,
    PromptView,
)
from tracker.ui import fight_odds
from tracker.ui.messages import Submit
from tracker.ui.offers import keys_signature
from tracker.ui.palette import TrackerCommands
from tracker.ui.screens.acting import ActingScreen
from tracker.ui.screens.bindings import GM_ACTIONS
from tracker.ui.screens.marks import breakpoint_classes, same_turn, turn_mark
from tracker.ui.textual_adapter import toast_rack
from tracker.ui.title import fit_title, title_parts
from tracker.ui.widgets.base import Panel
from tracker.ui.widgets.command import CommandLine, CommandSuggester, typed_line
from tracker.ui.widgets.initiative import InitiativePanel, mark_gm_only
from tracker.ui.widgets.log import LogPanel, LogSlice
from tracker.ui.widgets.order_table import OrderTable
from tracker.ui.widgets.prompt import PromptBar
from tracker.ui.widgets.text_panel import TextPanel

if TYPE_CHECKING:
    from textual.screen import Screen

    from tracker.families.session import Session
    from tracker.present.map.graph import MapView
    from tracker.ui.host import Host

#: A widget of the screen found once (`TrackerScreen._found`).
Found = TypeVar("Found", bound=Widget)

#: The keys the idle prompt bar names: (action id, word), in this order; a word in `PREFILLED` is a verb the
#: family may lack.
IDLE_KEYS = (("next", "next"), ("spend", "spend"), ("damage", "damage"), ("command", "command"), ("help", "help"))
PREFILLED = frozenset({"damage"})

#: Seconds a refusal toast stays; the same refusal while the same question waits is not shown again
#: within it (a GM pressing `n` three times sees one notice, not a stack).
REFUSAL_TIMEOUT = 6.0


class TrackerScreen(ActingScreen):
    """The main screen for both rule families; `read_only` turns it into a viewer."""

    COMMANDS = {TrackerCommands}
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide"), (160, "-vast")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (36, "-tall")]

    ACTIONS = GM_ACTIONS
    BINDINGS = GM_ACTIONS.bindings
    PLAYERS_STORY = False

    #: The whole typed view of this revision, built once by the family after each accepted command.
    view: var[EncounterView | None] = var(None)
    #: The combatant selected in the order table (None: the active one).
    selected: var[str | None] = var(None)
    # The slices of `view` the panels are bound to; a panel redraws only when its slice changed.
    header: var[HeaderView | None] = var(None)
    #: Who is connected from their own terminals (`tracker play`, other accounts' viewers).
    at_table: var[tuple[str, ...]] = var(())
    #: The player whose answer the pending question waits for, when a seated player's.
    waiting_on: var[str | None] = var(None)
    #: Why players cannot connect, with the fix, when the table stays closed (the title and the log say so).
    table_closed: var[str | None] = var(None)
    order: var[OrderView | None] = var(None)
    turn: var[Block] = var(())
    subject: var[str | None] = var(None)
    conditions: var[tuple[ConditionNote, ...]] = var(())
    field: var[Block] = var(())
    resources: var[Block] = var(())
    prompt: var[PromptView | None] = var(None)
    log_slice: var[LogSlice] = var(((), 0))
    #: The family's odds, asked for only while its odds tab shows (`_show_odds`).
    odds: var[OddsView | None] = var(None)
    #: The fight's odds line in full (`tracker.ui.fight_odds`), drawn at the top of the odds tab: the title
    #: drops its figures where the screen is narrow, the tab keeps them all, with an undecided fight's reason.
    fight_line: var[str] = var("")
    #: The family's map (zones, engagements), asked for only while the field tab shows (`_show_map`).
    field_map: var[MapView | None] = var(None)

    def __init__(self, read_only: bool = False, size: Size | None = None) -> None:
        # Born with the breakpoint classes of the terminal it opens on: Textual then styles every
        # widget once, instead of styling them all again when the first resize adds the classes.
        bands = breakpoint_classes(size, self.HORIZONTAL_BREAKPOINTS, self.VERTICAL_BREAKPOINTS) if size else []
        super().__init__(classes=" ".join(bands) or None)
        self.read_only = read_only
        #: (round, active) of the turn the selection last followed: a new one moves the selection.
        self._turn: tuple[int, str | None, int] | None = None
        #: The last refusal shown while a question waited, with when: it is not stacked again.
        self._refusal: tuple[object, str, float] | None = None
        #: The widgets the screen speaks to after every command, found once (`_found`).
        self._found_widgets: dict[str, Widget] = {}
        #: (revision, focus) each hidden tab's contents were last asked of the family for (`_due`).
        self._asked: dict[str, tuple[int, str | None]] = {}
        #: The order's rows of combatants hidden from the players, as marked last (`mark_gm_only`).
        self._gm_only_rows: dict[str, tuple[OrderRow, OrderRow]] = {}
        #: What the footer's keys were last worked out from (`keys_signature`).
        self._signature: tuple[object, ...] | None = None
        #: The title as last drawn, and whether a player's request was showing.
        self._title_text: str | None = None
        self._requests_shown = False
        #: The bottom margin the toasts were last given (`_keep_toasts_clear`).
        self._toast_margin: int | None = None

    @property
    def tracker(self) -> Host:
        return cast("Host", self.app)

    @property
    def session(self) -> Session:
        return self.tracker.session

    @property
    def rules(self) -> FamilyRules:
        """The encounter's rules: its state, its choices and actions."""
        return self.session.rules

    @property
    def presenter(self) -> FamilyPresenter[FamilyRules]:
        """What the family shows of the encounter: the view, the tabs' text, the odds, the map."""
        return self.session.presenter

    def compose(self) -> ComposeResult:
        family = self.session.family
        yield Static(id="title", markup=False)
        caption = Static(id="caption", markup=False)
        caption.display = False  # the demo's captions (`show_caption`)
        yield caption
        with Horizontal(id="body"):
            yield InitiativePanel(id="order").data_bind(order=TrackerScreen.order)
            # The hidden tabs' panels are made just after the first frame (`_mount_hidden_panels`).
            with TabbedContent(id="side"):
                with TabPane("Turn", id="tab-turn"):
                    yield TextPanel(id="turn").data_bind(block=TrackerScreen.turn)
                yield TabPane("Conditions", id="tab-conditions")
                yield TabPane(family.tab_titles["field"], id="tab-field")
                yield TabPane(family.tab_titles["resources"], id="tab-resources")
                yield TabPane("Log", id="tab-log")
                with TabPane("Story", id="tab-story"):
                    # The Story panel (and textual-plotext) is imported when the tab is first shown.
                    yield Static("The story of the fight is told here.", id="story-wait", markup=False)
        with Vertical(id="log-strip"):
            yield LogPanel(id="log-bottom").data_bind(entries=TrackerScreen.log_slice, note=TrackerScreen.table_closed)
        requests = Static(id="requests", markup=False)
        requests.display = False  # shown while a player's request waits
        yield requests
        yield PromptBar(id="prompt").data_bind(TrackerScreen.prompt)
        if not self.read_only:
            yield CommandLine(
                placeholder="command (e.g. damage thug 4) — Enter to run, Esc to leave",
                suggester=CommandSuggester(lambda: self.session.family.verbs, lambda: self.rules),
                select_on_focus=False,
                id="command-line",
            )
        yield Footer()

    # The widgets the screen speaks to after every command, found once: a query walks the screen's DOM,
    # some thirty widgets, and three of them per keypress cost half a millisecond.
    def _found(self, selector: str, kind: type[Found]) -> Found:
        """The one widget `selector` finds, looked up the first time only (NoMatches until composed)."""
        widget = self._found_widgets.get(selector)
        if widget is None:
            widget = self._found_widgets[selector] = self.query_one(selector, kind)
        return cast("Found", widget)

    @property
    def side_tabs(self) -> TabbedContent:
        return self._found("#side", TabbedContent)

    @property
    def order_table(self) -> OrderTable:
        return self._found("#order-table", OrderTable)

    @property
    def title_line(self) -> Static:
        return self._found("#title", Static)

    def _family_panel(self, tab: str) -> TextPanel:
        """The Melee/Zones or Fate Deck/Pools panel; the family's odds tab shows the odds above its text,
        and the field tab draws the family's map above all. The resources tab's first paragraph (who holds
        which cards) comes before the odds table."""
        from tracker.ui.widgets.map_panel import MapPanel

        panel = MapPanel(id=tab) if tab == "field" else TextPanel(id=tab, lead=True)
        if self.session.family.odds_tab == tab:
            panel.data_bind(odds=TrackerScreen.odds, fight=TrackerScreen.fight_line)
        return panel

    def _due(self, what: str, tab: str | None) -> EncounterView | None:
        """The view, when `tab` is showing and `what` it shows was last asked of the family for another
        revision or selection: hidden tabs' contents are asked for only for a GM who looks (their modules
        load, and their work is done, then)."""
        view = self.view
        if tab is None or view is None or not self.is_mounted or self.side_tabs.active != f"tab-{tab}":
            return None
        key = (view.revision, view.focus)
        if self._asked.get(what) == key:
            return None
        self._asked[what] = key
        return view

    def _show_odds(self) -> None:
        """The odds, while the family's odds tab shows."""
        view = self._due("odds", self.session.family.odds_tab)
        if view is not None:
            self.odds = self.presenter.odds(view.focus)

    def _show_resources(self) -> None:
        """The Fate Deck or Pools text, while its tab shows: it lists every Fatemaster's Fate Points, a 500-line
        block at 500 combatants, for a tab seldom open."""
        if self._due("resources", "resources") is not None:
            self.resources = self.presenter.resources()

    def _show_map(self) -> None:
        """The family's map and the text under it, while the field tab shows (the map modules load only for a
        GM who looks; the 2d20 text is a range report to every other combatant, ≈ 6 ms at 500); the screen
        gives the tab more room while it does."""
        view = self._due("map", "field")
        if view is not None:
            self.field_map = self.presenter.field_map(view.focus)
            self.field = self.presenter.field(view.focus)
        shown = self.is_mounted and self.side_tabs.active == "tab-field"
        self.set_class(shown and self.field_map is not None and bool(self.field_map.nodes), "-map")

    @property
    def prompt_bar(self) -> PromptBar:
        return self._found("#prompt", PromptBar)

    @property
    def turn_panel(self) -> TextPanel:
        return self._found("#turn", TextPanel)

    def on_mount(self) -> None:
        self._focus_order()
        self.prompt_bar.read_only = self.read_only
        self.prompt_bar.idle_keys = self.idle_keys()
        self.rebuild(self.tracker.revision)
        self.screen_layout_refresh_signal.subscribe(self, self._keep_toasts_clear, immediate=True)
        self.call_after_refresh(self._mount_hidden_panels)

    def idle_keys(self) -> str:
        """The keys the idle prompt bar names, from the screen's actions as bound now (a `[keymap]` entry shows
        its own key) and only where the family has the verb (no `d damage` where there is no damage)."""
        remapped: dict[str, str] = getattr(self.app, "remapped", {})
        verbs = self.session.family.verbs
        parts = []
        for action_id, word in IDLE_KEYS:
            if word in PREFILLED and word not in verbs:
                continue
            keys = remapped.get(action_id) or self.ACTIONS[action_id].keys
            first = keys.split(",")[0].strip()
            parts.append(f" · {self.app.get_key_display(Binding(first, word))} {word}")
        return "".join(parts)

    def on_unmount(self) -> None:
        line = fight_odds.found_on(self)
        if line is not None:
            line.close()

    def _focus_order(self) -> None:
        """Focus the order table. It is composed by the initiative panel, which may compose its children after
        the screen's own Mount (the order of the two is Textual's): then the focus waits for the next refresh
        instead of raising NoMatches."""
        found = self.query("#order-table")
        if found:
            found.first().focus()
        else:
            self.call_after_refresh(self._focus_order)

    def _keep_toasts_clear(self, _screen: Screen[object]) -> None:
        """Toasts stand above the prompt bar, the command line and the footer, never over them: a question
        or the line being typed stays whole while a result shows. Textual docks its toast rack at the
        screen's bottom, over everything; its bottom margin follows the prompt lines' height (a question
        with many options makes the bar taller) after every layout."""
        rack = toast_rack(self)
        if rack is None:  # an app without notifications has no rack
            return
        bar = self.prompt_bar.region
        bottom = self.size.height - bar.y if bar.height else 1
        if bottom > 0 and bottom != self._toast_margin:
            self._toast_margin = bottom
            rack.styles.margin = (0, 0, bottom, 0)

    def _mount_hidden_panels(self) -> None:
        """Make the hidden tabs' panels and put them in their tabs once the first frame is out (what
        Textual's `Lazy` does, without its placeholder widgets, and without their modules at start-up): a
        GM sees the fight sooner, and the panel a tab reveals has caught up by then (`Panel.catch_up`)."""
        from tracker.ui.widgets.conditions import ConditionsPanel

        panels = {
            "tab-conditions": ConditionsPanel().data_bind(
                subject=TrackerScreen.subject, notes=TrackerScreen.conditions
            ),
            "tab-field": self._family_panel("field").data_bind(
                block=TrackerScreen.field, field_map=TrackerScreen.field_map
            ),
            "tab-resources": self._family_panel("resources").data_bind(block=TrackerScreen.resources),
            "tab-log": LogPanel().data_bind(entries=TrackerScreen.log_slice, note=TrackerScreen.table_closed),
        }
        for pane_id, panel in panels.items():
            pane = self.query_one(f"#{pane_id}", TabPane)
            if pane.is_attached:  # not when the app quits at once (q before the first frame): it let go of them
                pane.mount(panel)

    # --- the view ----------------------------------------------------------------------------
    def rebuild(self, revision: int) -> None:
        """Ask the family for the view of this revision (after a command, a file change, a selection).

        When a turn starts the selection moves to the combatant who acts, so `a`, `d`, `r`, `i`, `m` and
        the Conditions tab speak of them (a GM who had moved the cursor to Brann must not prefill
        ``move Brann`` on the Cultist's turn); the GM may move it away again until the next turn starts.
        The Turn panel goes back to its top then. A turn is told by where it starts in the log
        (`turn_mark`), so a combatant's second turn in a row (a Reactivate turn) is a new turn too.
        """
        st = self.rules.state
        turn = turn_mark(st.round, st.active, st.log, st.logged)
        follow = st.active is not None and not same_turn(self._turn, turn, st.logged - len(st.log))
        self._turn = turn
        if follow:
            # Set without its watcher: the view built just below is already about the new selection.
            self.set_reactive(TrackerScreen.selected, st.active)
        self.view = self.presenter.view(revision, self.selected)
        if follow and st.active is not None and self.is_mounted:
            self._select_active(st.active)
        if self.is_mounted and self.side_tabs.active == "tab-story":
            self.tell_story()
        if not self.read_only or self.rules.fight_odds_for_players():
            gm = fight_odds.line_of(self, self._fight_line_changed)
            gm.ask(self.session, revision)
            if not self.read_only and self.rules.fight_odds_for_players():
                # The players' own line, from what they know, for the table to send their screens.
                fight_odds.players_line_of(self, self._players_line_changed, gm).ask(self.session, revision)

    def _fight_line_changed(self) -> None:
        """The GM's fight odds line changed: the title shows what fits of it, the odds tab all of it."""
        line = fight_odds.found_on(self)
        self.fight_line = line.text if line is not None else ""
        self._draw_title()

    def _players_line_changed(self) -> None:
        """The players' line changed: the table sends it with their next projection, at once."""
        line = getattr(self, "_fight_odds_players", None)
        tell = getattr(self.app, "players_odds", None)
        if line is not None and tell is not None:
            tell(line.text)

    def _select_active(self, name: str, again: bool = True) -> None:
        """The order's cursor on whose turn it is, and the Turn panel at its top, where the new actor's name
        and AP are (a panel left scrolled down the last actor's actions hid them).

        The order table and the Turn panel are composed by their own containers (the initiative panel, the
        tabs), which Textual may compose after the screen's Mount: a command that lands in between (a file
        change, a pilot, a player's request on a loaded box) waits one refresh for them, once."""
        try:
            table, turn = self.order_table, self.turn_panel
        except NoMatches:
            if again:
                self.call_after_refresh(self._select_active, name, False)
            return
        table.select_name(name)
        turn.scroll_home(animate=False)

    def _show_requests(self, requests: tuple[str, ...]) -> None:
        """The players' requests waiting for the GM, above the question (which they never block)."""
        if not requests and not self._requests_shown:
            return
        self._requests_shown = bool(requests)
        line = self.query_one("#requests", Static)
        keys = "" if self.read_only else " · A approve · D deny"
        more = f" (+{len(requests) - 1} more)" if len(requests) > 1 else ""
        line.update(f"Request {requests[0]}{more}{keys}" if requests else "")
        line.display = bool(requests)

    def action_decide(self, verb: str) -> None:
        """`A` / `D`: approve or deny the oldest player's request (`approve 3` on the command line for another)."""
        self.run_line(verb)

    def tell_story(self) -> None:
        """Bring the Story tab up to date: mounted on first use, it then follows the session."""
        from tracker.ui.widgets.story import StoryPanel  # lazily: textual-plotext is not a start-up import

        pane = self.query_one("#tab-story", TabPane)
        panels = pane.query(StoryPanel)
        if panels:
            panel = panels.first()
        else:
            panel = StoryPanel(hint="S full screen", id="story")
            pane.query("#story-wait").remove()
            pane.mount(panel)  # it draws the story it was given once it is mounted
        panel.follow(self.session)
        if not self.read_only:  # the GM's: the runs read what the players do not see
            fight_odds.line_of(self, self._fight_line_changed).ask_timeline(self.session, panel.show_odds)

    def watch_selected(self) -> None:
        if self.is_mounted and self.view is not None:
            self.rebuild(self.view.revision)

    def watch_view(self, view: EncounterView | None) -> None:
        if view is None:
            return
        self.header = view.header
        self.order = mark_gm_only(view.order, self.rules.hidden_names(), self._gm_only_rows)
        self.turn = view.turn
        self.subject = view.focus
        self.conditions = view.conditions
        self.prompt = view.prompt
        self._show_requests(view.requests)
        self.log_slice = (view.log, view.logged)
        self._show_odds()
        self._show_map()
        self._show_resources()
        # The footer is rebuilt only when the set of usable keys can have changed.
        signature = keys_signature(self, view)
        if signature != self._signature:
            self._signature = signature
            self.refresh_bindings()

    def watch_header(self) -> None:
        self._draw_title()

    def watch_at_table(self) -> None:
        self._draw_title()

    def watch_waiting_on(self) -> None:
        self._draw_title()

    def watch_table_closed(self) -> None:
        self._draw_title()

    def on_resize(self) -> None:
        self._draw_title()

    def _draw_title(self) -> None:
        """The title, shortened by priority to the screen's width (`tracker.ui.title`); drawn from
        `on_mount` on, when the screen has its size (the first frame must show it)."""
        if self.header is None:
            return
        try:
            title = self.title_line
        except NoMatches:  # not composed yet
            return
        width = max(20, self.size.width - 2)
        parts = title_parts(self.header, self.read_only, self.at_table, self.waiting_on, self.table_closed is not None)
        parts += fight_odds.parts_of(self)
        text = fit_title(parts, width)
        if text != self._title_text:
            self._title_text = text
            title.update(text, layout=False)

    def show_caption(self, text: str | None) -> None:
        """The demo's caption for the step being played (hidden when None)."""
        caption = self.query_one("#caption", Static)
        caption.update(text or "")
        caption.display = bool(text)

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        """Panels in hidden tabs skip their redraws; the one coming into view catches up."""
        self._show_odds()
        self._show_map()
        self._show_resources()
        for panel in event.pane.query(Panel):
            panel.catch_up()
        if event.pane.id == "tab-story":
            self.tell_story()

    # --- selection ---------------------------------------------------------------------
    def on_order_table_highlighted(self, event: OrderTable.Highlighted) -> None:
        self.selected = event.name

    # --- actions -------------------------------------------------------------------------
    def on_submit(self, message: Submit) -> None:
        """Every command the screen's widgets and keys ask for arrives here, and only here.

        A refused typed line stays on the command line, all of it selected: typing replaces it (it is
        never glued to the next command), → or End edits it, Esc leaves it and `:` reopens it selected.
        An accepted command says what it did where the GM looks: undo and redo name the command, and the
        results the family logged (flips, rolls) come up as a toast as well as in the Log. Each command's
        toast takes the place of those before it: a toast on screen always speaks of the last command (a
        refusal left up after the next command went through read as if that one had been refused).
        """
        message.stop()
        logged = self.rules.state.logged
        prompt = self.rules.state.prompt
        error = self.tracker.submit(message.line)
        if error:
            self._refused(error, prompt)
            if message.typed:
                self.query_one("#command-line", CommandLine).select_for_editing()
            return
        self._refusal = None
        self.app.clear_notifications()
        if message.typed:
            self.query_one("#command-line", Input).value = ""
            self.action_focus_order()
        self._announce(message.line, logged)

    def _refused(self, error: str, prompt: object) -> None:
        """One toast per refusal, in place of the toasts before it; the same refusal again while the same
        question waits leaves its toast as it is."""
        now = time.monotonic()
        last = self._refusal
        if prompt is not None and last is not None and last[:2] == (prompt, error) and now - last[2] < REFUSAL_TIMEOUT:
            return
        self._refusal = (prompt, error, now) if prompt is not None else None
        self.app.clear_notifications()
        self.notify(error, severity="error", timeout=REFUSAL_TIMEOUT, markup=False)

    def _announce(self, line: str, logged: int) -> None:
        """Toast what an accepted command did that the GM might not be looking at: what undo or redo
        stepped over, and the results (flips, rolls) the family marked in its log."""
        history = self.session.history
        try:
            verb = self.session.parse(line).verb
        except Refusal:  # accepted a moment ago, so this does not happen; say nothing more if it does
            return
        if verb == "undo" and history.undone:
            self.notify(f"Undone: {history.undone[-1]}", timeout=4, markup=False)
            return
        if verb == "redo" and history.commands:
            self.notify(f"Redone: {history.commands[-1]}", timeout=4, markup=False)
        st = self.rules.state
        new = st.logged - logged
        if new <= 0:
            return
        results = [entry.text for entry in st.log[-new:] if entry.kind == "result"]
        if results:
            self.notify("\n".join(results), title="Result", timeout=8, markup=False)

    def run_line(self, line: str) -> None:
        """Ask for one command (as a `Submit` message, like every other source of commands)."""
        self.post_message(Submit(line))

    def action_next_turn(self) -> None:
        phase = self.rules.state.phase
        self.run_line("start" if phase in ("setup", "ended") else "next")

    def action_undo(self) -> None:
        self.run_line("undo")

    def action_redo(self) -> None:
        self.run_line("redo")

    def action_pool(self, pool: str, delta: int) -> None:
        self.run_line(f"{pool} {delta:+d} GM")

    @property
    def answers(self) -> tuple[str, ...]:
        """The commands of the question the rules wait on, as the screen shows it."""
        prompt = self.view.prompt if self.view else None
        return prompt.answers if prompt is not None else ()

    def _target(self) -> str | None:
        return self.selected or self.rules.state.active

    def action_prefill(self, verb: str) -> None:
        if self.read_only:
            return
        verbs = self.session.family.verbs
        self.open_line(prefilled(verbs.get(verb), verb, self._target(), self.rules.state.active))

    def action_join(self) -> None:
        """`J` opens ``join `` for a stat block's name (completed from the encounter's stat blocks)."""
        if not self.read_only:
            self.open_line("join ")

    def action_command(self) -> None:
        """`:` opens the command line; a line kept from a refusal comes back all selected (typing replaces it)."""
        if not self.read_only:
            line = self.query_one("#command-line", CommandLine)
            line.focus()
            if line.value:
                line.select_for_editing()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        line = typed_line(event.value)
        if not line:
            self.action_focus_order()
            return
        self.post_message(Submit(line, typed=True))

    def action_spend(self) -> None:
        who = self.rules.state.active
        if who is None:
            self.app.clear_notifications()
            self.notify("No turn is open: n starts or moves to the next turn", severity="warning", markup=False)
            return
        self.pick(who, self.rules.actions_for(who))

    def action_rule(self) -> None:
        from tracker.ui.screens.modals import RuleScreen

        notes = self.view.conditions if self.view and self._target() else ()
        self.app.push_screen(RuleScreen([(n.title, n.summary, n.section) for n in notes if n.section]))

    def action_scroll_tab(self, step: int) -> None:
        """PageUp/PageDown scroll the side panel's open tab (the zone map, a long log) from anywhere."""
        tabs = self.query_one("#side", TabbedContent)
        pane = tabs.get_pane(tabs.active) if tabs.active else None
        if pane is None:
            return
        for widget in [*pane.query(Panel), *pane.query("RichLog")]:
            if widget.allow_vertical_scroll:
                (widget.scroll_page_down if step > 0 else widget.scroll_page_up)(animate=False)
                return

    def help_commands(self) -> list[tuple[str, str]]:
        """The family's command language, under the keys."""
        return self.session.family.help_lines()

    def panels(self) -> list[Panel]:
        return list(self.query(Panel))
