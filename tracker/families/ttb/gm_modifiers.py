"""The GM's own modifiers typed on a duel's command: ``+``/``++``/``+++`` (⊞ each), ``-``… (⊟ each) and
``tn=+N``, read into duel parts named "GM" (`tracker.families.ttb.duel.Part`) and written back the same way
when they ride in a queued step."""

from __future__ import annotations

from collections.abc import Iterable

from tracker.engine.errors import Refusal
from tracker.families.ttb.duel import CAP, Part


def gm_parts(words: Iterable[str]) -> tuple[list[Part], list[str]]:
    """The GM's ``+``/``++``/``-``/``--`` (⊞ or ⊟ each) and ``tn=+N`` among `words`; the other words back."""
    parts: list[Part] = []
    rest: list[str] = []
    for word in words:
        if word and set(word) <= {"+"} and len(word) <= CAP:
            parts.append(Part("GM", fate=len(word)))
        elif word and set(word) <= {"-"} and len(word) <= CAP:
            parts.append(Part("GM", fate=-len(word)))
        elif word.casefold().startswith("tn="):
            value = word[3:]
            try:
                n = int(value)
            except ValueError:
                raise Refusal(f"tn= takes a whole number of TN to add or take off (tn=+2), not '{value}'") from None
            if not -20 <= n <= 20:
                raise Refusal(f"tn={n}: at most 20 either way")
            parts.append(Part("GM", tn=n))
        elif word and set(word) <= {"+", "-"}:
            raise Refusal(f"'{word}': give ⊞ as + (at most +++) or ⊟ as - (at most ---), one kind a word")
        else:
            rest.append(word)
    return parts, rest


def gm_words(parts: Iterable[Part]) -> list[str]:
    """The GM parts back as the words `gm_parts` reads (they ride in a queued step's argument)."""
    out = []
    for p in parts:
        if p.fate:
            out.append(("+" if p.fate > 0 else "-") * abs(p.fate))
        elif p.tn:
            out.append(f"tn={p.tn:+d}")
    return out
