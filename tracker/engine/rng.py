"""Seeded, replayable randomness, unpredictable to everyone but the GM.

The state keeps what the draws are keyed by and a draw counter. Every random operation builds a fresh
generator from them, so the state stays tiny in the saved file and a replay of the same history produces
exactly the same cards and dice, which is what makes undo-by-replay exact.

What keys the draws (docs/guide/shared-box.md: the seed is one of the GM's secrets):

* a **secret**, 128 random bits kept in the GM's own file (``[state] secret``, mode 0600), when the file names
  no ``seed``: each draw's generator is seeded with the text "secret:branch:counter", which `random` turns
  into its state through SHA-512, so knowing the public code, every card seen and the counter tells a player
  nothing about the next draw without the 128 secret bits (the stdlib's generator seeded per draw from a
  secret; its lean built-in SHA-512 spares `hmac`'s load of hashlib and OpenSSL, ≈ 6 ms of every start);
* an explicit ``seed`` (the file's, ``tracker exec --seed N``, the ``seed N`` command), for demos and tests: the
  generator of draw n is ``Random("seed:n")`` (``"seed:branch:n"`` on a later branch), known to anyone who
  knows the seed, which is what a demo wants.

The **branch** changes when a new command follows an undo (`tracker.families.session`): the undone command
saw some of the future, and the new one must not find it there again.
"""

from __future__ import annotations

import os
import random
from collections.abc import MutableSequence
from typing import Protocol, TypeVar

T = TypeVar("T")

#: The bits of a fresh secret: out of reach of any search, unlike a 31-bit seed (hours of one CPU).
SECRET_BITS = 128


class Seeded(Protocol):
    """Anything that carries a seed or secret, a branch and a draw counter (either family's live state)."""

    seed: int
    secret: str | None
    branch: int
    draws: int


def fresh_secret() -> str:
    """A new secret from the operating system's randomness (what `secrets` draws from), as hex text (it is
    saved in TOML)."""
    return os.urandom(SECRET_BITS // 8).hex()


def _key(state: Seeded) -> str:
    """The seed of the generator for the state's next draw (`random` hashes a text seed with SHA-512)."""
    if state.secret is None:
        return f"{state.seed}:{state.draws}" if not state.branch else f"{state.seed}:{state.branch}:{state.draws}"
    return f"{state.secret}:{state.branch}:{state.draws}"


def generator(state: Seeded) -> random.Random:
    """A generator for the next draw; advances the counter so the next call differs."""
    gen = random.Random(_key(state))
    state.draws += 1
    return gen


def shuffle(state: Seeded, items: MutableSequence[T]) -> None:
    """Shuffle in place, reproducibly."""
    generator(state).shuffle(items)


def roll(state: Seeded, sides: int) -> int:
    """One die of `sides` faces, reproducibly."""
    return generator(state).randint(1, sides)
