"""The GM screen's keys: every binding with an id and a description (docs/architecture/index.md).

Kept apart from the screen so the list reads as the keyboard map it is; which keys apply now is decided
with the palette's entries in `tracker.ui.offers` (the screen's `check_action` asks it).
"""

from __future__ import annotations

from textual.binding import Binding

GM_BINDINGS: list[Binding | tuple[str, str] | tuple[str, str, str]] = [
    Binding("n", "next_turn", "Next", id="next", tooltip="End the turn (or start the fight)"),
    Binding("u", "undo", "Undo", id="undo"),
    Binding("ctrl+y", "redo", "Redo", id="redo", show=False),
    Binding("s", "spend", "Spend", id="spend"),
    Binding("d", "prefill('damage')", "Damage", id="damage"),
    Binding("h", "prefill('heal')", "Heal", id="heal", show=False),
    Binding("a", "prefill('add')", "Add cond.", id="add"),
    Binding("r", "prefill('remove')", "Remove cond.", id="remove", show=False),
    Binding("m", "prefill('move')", "Move", id="move"),
    Binding("J", "join", "Join the fight", id="join", show=False, tooltip="A combatant joins from a stat block"),
    Binding("L", "prefill('leave')", "Leave the fight", id="leave", show=False),
    Binding("plus", "pool('momentum', 1)", "Momentum +1", id="momentum-up", show=False),
    Binding("minus", "pool('momentum', -1)", "Momentum −1", id="momentum-down", show=False),
    Binding("right_square_bracket", "pool('threat', 1)", "Threat +1", id="threat-up", show=False),
    Binding("left_square_bracket", "pool('threat', -1)", "Threat −1", id="threat-down", show=False),
    Binding("A", "decide('approve')", "Approve request", id="approve", tooltip="Run the oldest player's request"),
    Binding("D", "decide('deny')", "Deny request", id="deny", tooltip="Drop the oldest player's request"),
    Binding("colon", "command", "Command", id="command"),
    Binding("i", "rule", "Rule", id="rule", show=False),
    Binding("t", "cycle_theme", "Theme", id="theme", show=False),
    Binding("S", "story", "Story (full screen)", id="story", show=False),
    Binding("comma", "tab(-1)", "Previous tab", id="tab-prev", show=False),
    Binding("full_stop", "tab(1)", "Next tab", id="tab-next", show=False),
    Binding("pageup,ctrl+up", "scroll_tab(-1)", "Scroll the tab up", id="tab-scroll-up", show=False, priority=True),
    Binding(
        "pagedown,ctrl+down",
        "scroll_tab(1)",
        "Scroll the tab down",
        id="tab-scroll-down",
        show=False,
        priority=True,
    ),
    Binding("question_mark,f1", "help", "Help", id="help"),
    *[Binding(str(i), f"answer({i})", f"Answer {i}", id=f"answer-{i}", show=False) for i in range(1, 10)],
    # Priority, so the order table's own Enter does not take it while a question waits; `allows` passes the
    # key on to the focused widget when no question waits or the command line has the keyboard.
    Binding("enter", "answer_first", "Answer 1 (the default)", id="answer-first", show=False, priority=True),
    Binding("escape", "focus_order", "Back to the order", id="focus-order", show=False),
    Binding("q", "app.quit", "Quit", id="quit"),
]
