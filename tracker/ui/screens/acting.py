"""What the GM's screen and the players' screens share of their actions (`tracker.ui.actions`): the actions
themselves (answer a question, spend, move between tabs, the story, the theme, quit), when they apply, and
the code they run, written once.

A screen lists its actions (`ACTIONS`, its `BINDINGS` made from it) and says how it runs a command
(`run_line`: the GM's screen runs it, a player's sends it to the GM's process), which answers the
question waiting offers it (`answers`) and which story it tells (`PLAYERS_STORY`); everything else here
is the same on every screen. The GM's list is `tracker.ui.screens.bindings`; a player's screen takes the
same actions under ids of its own (`renamed`), so a `[keymap]` entry can remap one screen's key and not
the other's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from textual.screen import Screen
from textual.widgets import TabbedContent, TabPane

from tracker.ui.actions import Action, Actions
from tracker.ui.widgets.command import CommandLine
from tracker.ui.widgets.order_table import OrderTable

if TYPE_CHECKING:
    from collections.abc import Iterable

    from tracker.present.view import ActionChoice
    from tracker.ui.host import Host


def can_answer(screen: ActingScreen, args: tuple[object, ...]) -> bool:
    """A number key answers only with an option of that number waiting."""
    return int(str(args[0])) <= len(screen.answers)


def takes_default(screen: ActingScreen, _args: tuple[object, ...]) -> bool:
    """Enter takes the tracker's default (option 1) while a question waits and nothing is being typed;
    otherwise the key goes on to the focused widget (the command line, the order table)."""
    return bool(screen.answers) and not screen.typing


#: The actions every screen that plays the fight has, under the GM screen's ids.
NEXT = Action("next", "n", "Next", "next_turn")
SPEND = Action("spend", "s", "Spend", "spend")
COMMAND = Action("command", "colon", "Command", "command")
ANSWERS = tuple(
    Action(f"answer-{i}", str(i), f"Answer {i}", "answer", (i,), show=False, when=can_answer) for i in range(1, 10)
)
# Priority, so the order table's own Enter does not take it while a question waits.
ANSWER_FIRST = Action(
    "answer-first", "enter", "Answer 1", "answer_first", show=False, priority=True, when=takes_default
)
PREVIOUS_TAB = Action("tab-prev", "comma", "Previous tab", "tab", (-1,), show=False)
NEXT_TAB = Action("tab-next", "full_stop", "Next tab", "tab", (1,), show=False)
STORY = Action("story", "S", "Story", "story")
THEME = Action("theme", "t", "Theme", "cycle_theme", show=False)
QUIT = Action("quit", "q", "Quit", "app.quit")
BACK = Action("focus-order", "escape", "Back to the order", "focus_order", show=False)


def renamed(prefix: str, actions: Iterable[Action]) -> list[Action]:
    """The actions under ids of another screen's (``play.spend``): each screen's keys are remapped apart."""
    return [action.but(id=f"{prefix}.{action.id}") for action in actions]


class ActingScreen(Screen[None]):
    """A screen whose keys, footer, palette and help come from its `ACTIONS`."""

    #: The screen's actions; `BINDINGS` is made from them.
    ACTIONS: ClassVar[Actions] = Actions([])
    #: The story screen it opens tells the players' story (nothing GM-only), not the GM's.
    PLAYERS_STORY: ClassVar[bool] = True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.ACTIONS.allows(self, action, parameters)

    @property
    def answers(self) -> tuple[str, ...]:
        """The command each option of the question waiting for this screen's answer stands for."""
        return ()

    @property
    def typing(self) -> bool:
        """The command line has the keyboard."""
        return isinstance(self.focused, CommandLine)

    def run_line(self, line: str) -> None:
        """Ask for one command: every key's command goes this way."""
        raise NotImplementedError

    def action_answer(self, number: int) -> None:
        answers = self.answers
        if 1 <= number <= len(answers):
            self.run_line(answers[number - 1])

    def action_answer_first(self) -> None:
        """Enter while a question waits: its first option, the tracker's default (the best target, the
        tracker's flip or roll)."""
        self.action_answer(1)

    def pick(self, who: str, choices: Iterable[ActionChoice]) -> None:
        """`s`: `who`'s actions in the picker; the one chosen runs, or opens the command line when it needs
        more words."""
        from tracker.ui.screens.modals import pick_action

        pick_action(self.app, who, choices, self.run_line, self.open_line)

    def open_line(self, text: str) -> None:
        """Put `text` on the command line for the player or GM to finish."""
        line = self.query_one(CommandLine)
        line.value = text
        line.cursor_position = len(line.value)
        line.focus()

    def action_focus_order(self) -> None:
        """Esc: back to the order table (the command line keeps what was typed)."""
        self.query_one(OrderTable).focus()

    def action_tab(self, step: int) -> None:
        """`,` and `.` move between the side panel's tabs."""
        tabs = self.query_one(TabbedContent)
        panes = [pane.id for pane in tabs.query(TabPane) if pane.id]
        if tabs.active in panes:
            tabs.active = panes[(panes.index(tabs.active) + step) % len(panes)]

    def action_story(self) -> None:
        """The story of the fight on a screen of its own (the players' unless `PLAYERS_STORY` is off)."""
        from tracker.ui.screens.story import StoryScreen  # lazily: textual-plotext is not a start-up import

        self.app.push_screen(StoryScreen(player=self.PLAYERS_STORY))

    def action_cycle_theme(self) -> None:
        cast("Host", self.app).cycle_theme()

    def action_help(self) -> None:
        """Every key that does something here now (with the keys the keymap gave it), and the commands."""
        from tracker.ui.screens.modals import HelpScreen

        host = cast("Host", self.app)
        rows = self.ACTIONS.help_rows(self, self.app.get_key_display, host.remapped)
        self.app.push_screen(HelpScreen(rows, self.help_commands()))

    def help_commands(self) -> list[tuple[str, str]]:
        """(usage, help) of the commands help lists under the keys."""
        return []
