"""Name matching shared by both rule families: case-insensitive, unique prefixes accepted."""

from __future__ import annotations

from collections.abc import Iterable

from tracker.engine.errors import Refusal


def normalise(text: str) -> str:
    """Condition and field names are case-insensitive and written in snake_case (CONTRACT.md §2)."""
    return text.strip().casefold().replace("-", "_").replace(" ", "_")


def resolve(text: str, candidates: Iterable[str], what: str = "combatant") -> str:
    """The one candidate `text` names: an exact match (any case) or a unique prefix.

    Raises a one-line Refusal naming the candidates when nothing or several match.
    """
    options = list(candidates)
    key = text.casefold()
    for name in options:
        if name.casefold() == key:
            return name
    starts = [n for n in options if n.casefold().startswith(key)]
    if len(starts) == 1:
        return starts[0]
    if not starts:
        # Also accept a unique prefix of any word ("thug" for "Guild Thug").
        words = [n for n in options if any(w.casefold().startswith(key) for w in n.split())]
        if len(words) == 1:
            return words[0]
        if words:
            starts = words
    if not starts:
        known = ", ".join(options[:8]) + (" …" if len(options) > 8 else "")
        raise Refusal(f"no {what} named '{text}'" + (f" (known: {known})" if options else ""))
    listed = ", ".join(sorted(starts)[:6])
    raise Refusal(f"'{text}' is ambiguous: {listed}")
