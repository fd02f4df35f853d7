"""The GM screen's actions: every key with its id, title and when it applies, and the palette's entries
(docs/architecture/index.md), as one list (`tracker.ui.actions`).

Kept apart from the screen so the list reads as the keyboard map it is. The footer and ``?`` help show the
keys in this order; the palette lists its entries in `PALETTE`'s. Each id is what a `[keymap]` entry of the
settings file names to give the action other keys (docs/guide/keys.md). When an action applies and what
the palette offers for it are worked out in `tracker.ui.offers`.
"""

from __future__ import annotations

from functools import partial

from tracker.ui import offers as on
from tracker.ui.actions import Action, Actions
from tracker.ui.screens.acting import (
    ANSWER_FIRST,
    ANSWERS,
    BACK,
    COMMAND,
    NEXT,
    NEXT_TAB,
    PREVIOUS_TAB,
    QUIT,
    SPEND,
    STORY,
    THEME,
)


def _prefill(action_id: str, key: str, verb: str, title: str, *, show: bool = True) -> Action:
    """A key that opens the command line with `verb` and the selected combatant."""
    return Action(
        action_id,
        key,
        title,
        "prefill",
        (verb,),
        show=show,
        changes=True,
        when=on.has_verb,
        offer=partial(on.offer_prefilled, verb=verb),
    )


def _pool(action_id: str, key: str, pool: str, delta: int, title: str) -> Action:
    """A key that moves a pool by one (the palette offers the +1 steps)."""
    offer = partial(on.offer_pool, verb=pool) if delta > 0 else None
    return Action(
        action_id, key, title, "pool", (pool, delta), show=False, changes=True, when=on.has_pools, offer=offer
    )


def _scroll(action_id: str, keys: str, step: int, title: str) -> Action:
    """PageUp/PageDown scroll the side panel's open tab from anywhere (so they come before the focused
    widget's own)."""
    return Action(action_id, keys, title, "scroll_tab", (step,), show=False, priority=True)


GM_ACTIONS = Actions(
    [
        NEXT.but(tooltip="End the turn (or start the fight)", changes=True, offer=on.offer_next),
        Action("undo", "u", "Undo", "undo", changes=True, when=on.can_undo, offer=on.offer_undo),
        Action("redo", "ctrl+y", "Redo", "redo", show=False, changes=True, when=on.can_redo, offer=on.offer_redo),
        SPEND.but(changes=True, when=on.someone_acts, offer=on.offer_spend),
        _prefill("damage", "d", "damage", "Damage"),
        _prefill("heal", "h", "heal", "Heal", show=False),
        _prefill("add", "a", "add", "Add cond."),
        _prefill("remove", "r", "remove", "Remove cond.", show=False),
        _prefill("move", "m", "move", "Move"),
        Action(
            "join",
            "J",
            "Join the fight",
            "join",
            show=False,
            tooltip="A combatant joins from a stat block",
            changes=True,
            when=on.has_blocks,
            offer=on.offer_join,
        ),
        _prefill("leave", "L", "leave", "Leave the fight", show=False).but(offer=on.offer_leave),
        _pool("momentum-up", "plus", "momentum", 1, "Momentum +1"),
        _pool("momentum-down", "minus", "momentum", -1, "Momentum −1"),
        _pool("threat-up", "right_square_bracket", "threat", 1, "Threat +1"),
        _pool("threat-down", "left_square_bracket", "threat", -1, "Threat −1"),
        Action(
            "approve",
            "A",
            "Approve request",
            "decide",
            ("approve",),
            tooltip="Run the oldest player's request",
            changes=True,
            when=on.requests_wait,
            offer=on.offer_requests,
        ),
        Action(
            "deny",
            "D",
            "Deny request",
            "decide",
            ("deny",),
            tooltip="Drop the oldest player's request",
            changes=True,
            when=on.requests_wait,
        ),
        COMMAND.but(changes=True),
        Action("rule", "i", "Rule", "rule", show=False),
        THEME.but(offer=on.offer_theme),
        STORY.but(keys="S", title="Story (full screen)", show=False),
        PREVIOUS_TAB,
        NEXT_TAB,
        _scroll("tab-scroll-up", "pageup,ctrl+up", -1, "Scroll the tab up"),
        _scroll("tab-scroll-down", "pagedown,ctrl+down", 1, "Scroll the tab down"),
        Action("help", "question_mark,f1", "Help", "help", offer=on.offer_help),
        *(answer.but(changes=True) for answer in ANSWERS),
        # Enter, before the order table's own while a question waits (`acting.takes_default`).
        ANSWER_FIRST.but(title="Answer 1 (the default)", changes=True, offer=on.offer_answers),
        BACK,
        QUIT,
        Action("end", "", "End the fight", "", changes=True, offer=on.offer_end),
    ],
    palette=[
        "approve",
        "answer-first",
        "next",
        "spend",
        "damage",
        "heal",
        "add",
        "remove",
        "move",
        "momentum-up",
        "threat-up",
        "end",
        "join",
        "leave",
        "undo",
        "redo",
        "help",
        "theme",
    ],
)

#: The screen's `BINDINGS`, made from the list.
GM_BINDINGS = GM_ACTIONS.bindings
