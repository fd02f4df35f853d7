"""Name matching shared by both rule families: case-insensitive, unique prefixes accepted."""

from __future__ import annotations

from collections.abc import Iterable

from tracker.engine.errors import Refusal


def normalise(text: str) -> str:
    """Condition and field names are case-insensitive and written in snake_case (docs/reference/file-format.md)."""
    return text.strip().casefold().replace("-", "_").replace(" ", "_")


def matching(text: str, candidates: Iterable[str]) -> list[str]:
    """The candidates `text` may name: the exact match (any case) alone, else those it is a prefix of, else
    those with a word it is a prefix of ("thug" for "Guild Thug"). `resolve` wants exactly one."""
    options = list(candidates)
    key = text.casefold()
    exact = [n for n in options if n.casefold() == key]
    if exact:
        return exact[:1]
    starts = [n for n in options if n.casefold().startswith(key)]
    if starts:
        return starts
    return [n for n in options if any(w.casefold().startswith(key) for w in n.split())]


def resolve(text: str, candidates: Iterable[str], what: str = "combatant") -> str:
    """The one candidate `text` names: an exact match (any case) or a unique prefix.

    Raises a one-line Refusal naming the candidates when nothing or several match.
    """
    options = list(candidates)
    if text in options:  # the name as written (a policy's or the screen's line): no case folding to do
        return text
    found = matching(text, options)
    if len(found) == 1:
        return found[0]
    if not found:
        known = ", ".join(options[:8]) + (" …" if len(options) > 8 else "")
        raise Refusal(f"no {what} named '{text}'" + (f" (known: {known})" if options else ""))
    listed = ", ".join(sorted(found)[:6])
    raise Refusal(f"'{text}' is ambiguous: {listed}")
