"""Seeded, replayable randomness.

The state keeps only a seed and a draw counter. Every random operation builds a fresh generator from
``(seed, counter)``, so the state stays tiny in the saved file and a replay from the same seed produces
exactly the same cards and dice, which is what makes undo-by-replay exact.
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence
from typing import Protocol, TypeVar

T = TypeVar("T")


class Seeded(Protocol):
    """Anything that carries a seed and a draw counter (the live state of either rule family)."""

    seed: int
    draws: int


def generator(state: Seeded) -> random.Random:
    """A generator for the next draw; advances the counter so the next call differs."""
    gen = random.Random(f"{state.seed}:{state.draws}")
    state.draws += 1
    return gen


def shuffle(state: Seeded, items: MutableSequence[T]) -> None:
    """Shuffle in place, reproducibly."""
    generator(state).shuffle(items)


def roll(state: Seeded, sides: int) -> int:
    """One die of `sides` faces, reproducibly."""
    return generator(state).randint(1, sides)
