"""A saved Through the Breach ``[state]`` checked against its setup before an engine resumes it.

The engine looks names, cards and agenda steps up as it goes; a ``[state]`` that names a combatant the
setup lacks, holds a card that is no card, or loses a card of the Fate Deck would crash it several
commands later (a KeyError in ``tracker exec``, a frozen GM screen). Every load checks here first, so
such a file is refused with each problem at its key inside ``[state]``, as a wrong type is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection

from tracker.engine.errors import Refusal
from tracker.engine.records.model import Loc, Located
from tracker.engine.state import name_problems, unknown_names
from tracker.families.ttb.fate.cards import full_deck, parse_card
from tracker.families.ttb.records.file import TTBFile
from tracker.families.ttb.records.state import TTBState
from tracker.families.ttb.tables.actions import ACTIONS
from tracker.families.ttb.tables.catalogue import CONDITIONS, STATES


def state_problems(setup: TTBFile, st: TTBState, ops: Collection[str], prompts: Collection[str]) -> list[Located]:
    """Every way `st` disagrees with `setup`, at its key inside ``[state]``; `ops` are the agenda steps the
    engine runs and `prompts` the questions it can resolve."""
    # Newcomers (`join`) live in the state with their sheets: they are combatants of this fight too.
    names = [c.name for c in [*setup.combatants, *st.joined]]
    problems = name_problems(st, names)
    problems += unknown_names([(("engagements", i), n) for i, n in _pair_names(st.engagements)], names)
    for n, effect in enumerate(st.effects):
        problems += unknown_names(
            [(("effects", n, "owner"), effect.owner), (("effects", n, "target"), effect.target)], names
        )
    for table, steps in (("agenda", st.agenda), ("after_turn", st.after_turn)):
        for n, step in enumerate(steps):
            if step.op not in ops:
                problems.append(((table, n, "op"), f"unknown step '{step.op}'"))
            problems += unknown_names([((table, n, "who"), step.who)], names)
    problems += unknown_names([(("ending",), st.ending)], names)
    problems += unknown_names([(("tie_picks", n), who) for n, who in enumerate(st.tie_picks)], names)
    problems += unknown_names([(("last_tie_picks", n), who) for n, who in enumerate(st.last_tie_picks)], names)
    if st.prompt is not None and st.prompt.kind not in prompts:
        problems.append((("prompt", "kind"), f"unknown question '{st.prompt.kind}'"))
    problems += _fate_deck(st)
    for name, f in st.fighters.items():
        at: Loc = ("fighters", name)
        problems += unknown_names([((*at, "ordered"), f.ordered)], names)
        if f.wait is not None and f.wait not in ACTIONS:
            problems.append(((*at, "wait"), f"unknown action '{f.wait}'"))
        for key in f.conditions:
            if key not in CONDITIONS and key not in STATES:
                problems.append(((*at, "conditions", key), f"unknown condition '{key}'"))
        for pile in ("hand", "twist_deck", "twist_discards"):
            problems += _cards((*at, pile), getattr(f, pile))
    return problems


def _pair_names(pairs: list[list[str]]) -> list[tuple[int, str]]:
    """The names of melee engagement pairs, numbered by pair (a pair that is not two names is a stranger)."""
    out: list[tuple[int, str]] = []
    for i, pair in enumerate(pairs):
        out += [(i, n) for n in pair] if len(pair) == 2 else [(i, f"{pair} (an engagement pairs two names)")]
    return out


def _cards(loc: Loc, cards: list[str]) -> list[Located]:
    problems: list[Located] = []
    for n, card in enumerate(cards):
        try:
            parse_card(card)
        except Refusal as exc:
            problems.append(((*loc, n), str(exc)))
    return problems


def _fate_deck(st: TTBState) -> list[Located]:
    """The Fate Deck, its discards and the cards on the table are the 54 cards, each once (docs/rules/ttb.md#s2-2-1):
    a lost card would leave a flip with nothing to draw after the reshuffle."""
    problems = _cards(("deck",), st.deck) + _cards(("discards",), st.discards) + _cards(("table",), st.table)
    if problems:
        return problems
    held = Counter(parse_card(c).code for c in [*st.deck, *st.discards, *st.table])
    want = Counter(full_deck())
    if held != want:
        missing = sorted((want - held).elements())
        extra = sorted((held - want).elements())
        parts = ([f"missing {', '.join(missing)}"] if missing else []) + (
            [f"extra {', '.join(extra)}"] if extra else []
        )
        problems.append(
            (("deck",), f"the Fate Deck, discards and table must be the 54 cards once each ({'; '.join(parts)})")
        )
    return problems
