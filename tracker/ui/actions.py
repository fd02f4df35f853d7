"""One model of what a screen can do, read by its keys, the footer, the command palette and ``?`` help.

An `Action` is one thing a screen does: its id (the binding id a `[keymap]` entry of the settings file
names, docs/guide/keys.md), its default keys, its title, when it is offered and what it runs (the Textual
action its key runs, and the palette entries it offers). A screen's `Actions` is its list of them, in the
order the footer and help show them; the screen's `BINDINGS` are made from it, its `check_action` asks it
(`allows`), help lists it (`help_rows`) and the palette reads it (`offers`, in the palette's own order).
This is braindrop's model (its `Command` classes make the bindings, the palette entries and the help of
one list) in our words: plain data, not one class per action.

Nothing here knows the GM's screen or a player's: each screen's list says which actions it has and when
they apply (`tracker.ui.screens.bindings` for the GM, `tracker.ui.screens.acting` for what every screen
shares).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from textual.binding import Binding

#: (title, help, callback): one command palette entry.
Offer = tuple[str, str, Callable[[], object]]
#: Whether an action applies now, given the screen and the action's arguments: True shown and usable,
#: None shown greyed out, False hidden (Textual's `check_action`).
When = Callable[[Any, tuple[object, ...]], "bool | None"]
#: The palette entries an action offers now, given the screen.
Offers = Callable[[Any], Iterable[Offer]]


def always(_screen: object, _args: tuple[object, ...]) -> bool:
    """The default `when`: the action applies whenever the screen shows."""
    return True


@dataclass(frozen=True)
class Action:
    """One thing a screen can do."""

    #: The binding id: what a `[keymap]` entry names to give the action other keys.
    id: str
    #: The default keys, comma-separated as Textual writes them ("pagedown,ctrl+down"); "" for an action
    #: only the palette offers.
    keys: str
    #: What the footer and help call it.
    title: str
    #: The Textual action the keys run: the screen's ``action_<name>`` (or ``app.<name>``) …
    name: str
    #: … with these arguments.
    args: tuple[object, ...] = ()
    #: Whether the footer shows it.
    show: bool = True
    tooltip: str | None = None
    #: Checked before the focused widget's own keys (Enter while a question waits).
    priority: bool = False
    #: It changes the encounter: a read-only view neither binds it to a working key nor offers it.
    changes: bool = False
    #: When it applies, beyond `changes` (every action sharing a `name` shares it).
    when: When = always
    #: The palette entries it offers now (none by default).
    offer: Offers | None = None

    @property
    def run(self) -> str:
        """The action string Textual runs: ``prefill('damage')``."""
        if not self.args:
            return self.name
        return f"{self.name}({', '.join(repr(a) for a in self.args)})"

    def binding(self) -> Binding:
        return Binding(
            self.keys,
            self.run,
            self.title,
            show=self.show,
            priority=self.priority,
            tooltip=self.tooltip or "",
            id=self.id,
        )

    def but(self, **changes: Any) -> Action:
        """The same action with some fields changed (another screen's id or title for it)."""
        from dataclasses import replace

        return replace(self, **changes)


@dataclass(frozen=True)
class Actions:
    """A screen's actions, in the order its footer and help show them, and the order of its palette."""

    actions: Sequence[Action]
    #: The ids whose entries the command palette lists, in its order (the actions' order when empty).
    palette: Sequence[str] = ()
    _by_name: dict[str, Action] = field(init=False, repr=False, compare=False)
    _by_id: dict[str, Action] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_name: dict[str, Action] = {}
        for action in self.actions:
            by_name.setdefault(action.name.removeprefix("app."), action)
        object.__setattr__(self, "_by_name", by_name)
        object.__setattr__(self, "_by_id", {a.id: a for a in self.actions})
        unknown = [i for i in self.palette if i not in self._by_id]
        if unknown:
            raise ValueError(f"the palette names actions the list does not have: {unknown}")

    @property
    def bindings(self) -> list[Binding | tuple[str, str] | tuple[str, str, str]]:
        """The screen's `BINDINGS`: every action that has keys."""
        return [a.binding() for a in self.actions if a.keys]

    def ids(self) -> set[str]:
        return set(self._by_id)

    def __getitem__(self, action_id: str) -> Action:
        return self._by_id[action_id]

    def allows(self, screen: Any, name: str, args: tuple[object, ...]) -> bool | None:
        """Whether the action `name` (as Textual's `check_action` names it) applies now on `screen`."""
        action = self._by_name.get(name)
        if action is None:
            return True
        return self._applies(action, screen, args)

    @staticmethod
    def _applies(action: Action, screen: Any, args: tuple[object, ...]) -> bool | None:
        if action.changes and getattr(screen, "read_only", False):
            return False
        return action.when(screen, args)

    def help_rows(
        self, screen: Any, key_display: Callable[[Binding], str], keymap: Mapping[str, str]
    ) -> list[tuple[str, str]]:
        """(keys, title) of every key that does something on `screen` now, with the keys `keymap` (the
        settings file's) gave it; `key_display` writes a key as the footer does (`App.get_key_display`)."""
        rows = []
        for action in self.actions:
            if not action.keys or self._applies(action, screen, action.args) is False:
                continue  # keys that do nothing in this encounter (2d20 keys in a TTB fight)
            keys = keymap.get(action.id, action.keys)
            rows.append((" ".join(key_display(Binding(k, action.run)) for k in keys.split(",")), action.title))
        return rows

    def offers(self, screen: Any) -> list[Offer]:
        """The palette's entries now: each action's offers, in the palette's order."""
        out: list[Offer] = []
        for action_id in self.palette or [a.id for a in self.actions]:
            action = self._by_id[action_id]
            if action.offer is None or (action.changes and getattr(screen, "read_only", False)):
                continue
            out.extend(action.offer(screen))
        return out
