"""Small modal screens: help (every key and command), a rule's summary, the action picker."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

if TYPE_CHECKING:
    from textual.app import App

    from tracker.present.view import ActionChoice


class HelpScreen(ModalScreen[None]):
    """Every binding with its description, and the command language."""

    BINDINGS = [Binding("escape,q,question_mark,f1", "dismiss", "Close", id="help.close")]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 90%; max-width: 100; height: 90%; border: thick $primary;
                                  background: $surface; padding: 0 1; }
    """

    def __init__(self, bindings: list[tuple[str, str]], commands: list[tuple[str, str]]) -> None:
        super().__init__()
        self._rows = bindings
        #: (usage, help) of every verb of this encounter's family, from its command table.
        self._commands = commands

    def compose(self) -> ComposeResult:
        out = Text()
        out.append("Keys\n", style="bold underline")
        for key, description in self._rows:
            out.append(f"  {key:<14}", style="bold")
            out.append(f"{description}\n")
        out.append("\nCommands (type after ':')\n", style="bold underline")
        for usage, text in self._commands:
            out.append(f"  {usage}\n")
            out.append(f"      {text}\n", style="dim")
        out.append("\nNames are case-insensitive; a unique prefix works; quote names with spaces.\n", style="dim")
        with VerticalScroll():
            yield Static(out)


class RuleScreen(ModalScreen[None]):
    """One condition's rule in our own words, with the heading of the rules reference that has it."""

    BINDINGS = [Binding("escape,q,i", "dismiss", "Close", id="rule.close")]
    DEFAULT_CSS = """
    RuleScreen { align: center middle; }
    RuleScreen > VerticalScroll { width: 80%; max-width: 90; height: auto; max-height: 80%;
                                  border: thick $accent; background: $surface; padding: 0 1; }
    """

    def __init__(self, entries: list[tuple[str, str, str]]) -> None:
        super().__init__()
        self._entries = entries

    def compose(self) -> ComposeResult:
        out = Text()
        if not self._entries:
            out.append("No conditions to explain.", style="italic")
        for title, summary, section in self._entries:
            out.append(f"{title}", style="bold")
            out.append(f"  (rules reference: {section})\n", style="dim")
            out.append(f"  {summary}\n\n")
        with VerticalScroll():
            yield Static(out)


def pick_action(
    app: App[Any],
    who: str,
    choices: Iterable[ActionChoice],
    run: Callable[[str], None],
    prefill: Callable[[str], None],
) -> None:
    """`s`: `who`'s actions in the picker; the one chosen is `run`, or, when it needs more words (a target,
    an amount), `prefill`ed on the command line. The GM's screen runs it as the GM's command, a player's
    sends it to the GM's process."""
    by_key = {c.key: c for c in choices}
    rows = [(c.key, f"{c.label:<16} {c.cost}", c.reason) for c in by_key.values()]

    def chosen(key: str | None) -> None:
        choice = by_key.get(key) if key else None
        if choice is None:
            return
        if choice.needs_more:
            prefill(choice.line + " ")
        else:
            run(choice.line)

    app.push_screen(ActionPicker(who, rows), chosen)


class ActionPicker(ModalScreen[str | None]):
    """A short list of actions: the legal ones first, then the illegal ones greyed with their reason.

    The illegal ones stay reachable with ↑↓ so the GM can read why ("engaged: no Charge") — a disabled
    option would be skipped and its reason out of reach; choosing one shows the reason and runs nothing.
    Typing narrows the list to the actions a word of whose name starts with what was typed (``str`` →
    strike, ``pro`` → drop-prone), shown in the border; Backspace widens it again, Enter picks the first.
    """

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", id="spend.cancel")]
    DEFAULT_CSS = """
    ActionPicker { align: center middle; }
    ActionPicker > OptionList { width: 80%; max-width: 90; height: 80%; border: thick $primary; }
    """

    def __init__(self, who: str, rows: list[tuple[str, str, str | None]]) -> None:
        super().__init__()
        self._who = who
        # Legal first, each group in the family's order.
        self._rows = sorted(rows, key=lambda row: row[2] is not None)
        self._reasons = {key: reason for key, _, reason in self._rows}

    #: What has been typed to narrow the list ("" shows every action).
    typed = ""

    def compose(self) -> ComposeResult:
        yield OptionList(*self._options())

    def _options(self) -> list[Any]:
        options: list[Any] = []
        for key, label, reason in self._rows:
            if not self._matches(key, label):
                continue
            if reason:
                text = Text(label, style="dim")
                text.append(f"  — {reason}", style="dim italic")
            else:
                text = Text(label)
            options.append(Option(text, id=key))
        if not options:
            options.append(Option(Text(f"no action starts with '{self.typed}'", style="dim italic"), disabled=True))
        return options

    def _matches(self, key: str, label: str) -> bool:
        """The action's name, or a word of it, starts with what was typed (``-`` and ``_`` split words)."""
        if not self.typed:
            return True
        typed = self.typed.casefold()
        names = {key.casefold(), label.split()[0].casefold() if label.split() else ""}
        words = {w for name in names for w in name.replace("_", "-").split("-") if w}
        return any(name.startswith(typed) for name in names | words)

    def on_mount(self) -> None:
        self._title()

    def _title(self) -> None:
        shown = f"{self._who}: spend on… {self.typed}" if self.typed else f"{self._who}: spend on…"
        self.query_one(OptionList).border_title = Text(shown)

    def on_key(self, event: events.Key) -> None:
        """Letters narrow the list; Backspace takes the last one back."""
        if event.key == "backspace" and self.typed:
            self.typed = self.typed[:-1]
        elif (
            event.character is not None
            and len(event.character) == 1
            and (event.character.isalnum() or event.character in "-_")
        ):
            self.typed += event.character
        else:
            return
        event.stop()
        listing = self.query_one(OptionList)
        listing.clear_options()
        listing.add_options(self._options())
        listing.highlighted = 0 if listing.option_count and not listing.get_option_at_index(0).disabled else None
        self._title()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        key = event.option.id
        reason = self._reasons.get(key) if key else None
        if reason:
            self.notify(reason, severity="warning", timeout=4, markup=False)
            return
        self.dismiss(key)


class HeldScreen(ModalScreen[None]):
    """The GM view could not open because someone else is running the file: say who, and offer to
    follow it read-only. A browser tab's version of `tracker run`'s "Open the read-only view instead?
    [Y/n]" (a served tab has no terminal to ask in); the viewer underneath is already following."""

    BINDINGS = [
        Binding("y,enter,escape", "dismiss", "Follow read-only", id="held.follow"),
        Binding("n,q", "app.quit", "Quit", id="held.quit"),
    ]
    DEFAULT_CSS = """
    HeldScreen { align: center middle; }
    HeldScreen > Static { width: 80%; max-width: 90; height: auto; border: thick $warning;
                          background: $surface; padding: 1 2; }
    """

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason

    def compose(self) -> ComposeResult:
        yield Static(f"{self.reason}\n\nOpen the read-only view instead? [Y/n]", id="held", markup=False)
