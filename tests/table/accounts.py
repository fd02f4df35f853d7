"""Running code as another local account, and a played TTB encounter full of secrets to run it against.

The table's promises are about accounts (the kernel's peer credential, file modes), so the tests that check
them run their player's end as a real second account through `runuser`. That needs root and an account
that can start this very interpreter (its home and the virtualenv must be reachable by it); where either is
missing the test is skipped, saying which. An account that is not there is made (``useradd -M``) and
removed when the tests end.
"""

from __future__ import annotations

import atexit
import os
import pwd
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tests.account_lock import remove_account
from tracker.store import files

EXAMPLES = Path(__file__).parents[2] / "examples"
#: The project's root, the working folder of commands run as another account (it must be able to enter it).
ROOT = Path(__file__).parents[2]

#: A TTB fight played far enough to hold every TTB secret: the hidden thug in the order and the log, a cheat
#: from Sofia's hand, end-of-Dramatic-Time discards and refills, a deck drawn from.
BRAWL_ROUND = "\n".join(
    [
        "start",
        "answer Belle",  # the tie between the Cutthroat and the GM-only Rotten Belle
        "next",
        "next",
        "engage Sofia Thug",
        "spend Sofia strike Thug",
        "answer pass 1",
        "answer 10C",  # Sofia cheats the damage flip with a card from her Control Hand
        "end",
        "answer none",
        "answer 6C",  # Ash discards at the end of Dramatic Time
        "answer none",
        "",
    ]
)


def cannot_run_as(name: str) -> str | None:
    """Why this test cannot run code as `name` here (the skip's reason), or None when it can."""
    if os.geteuid() != 0:
        return "running as another account needs root (runuser)"
    if shutil.which("runuser") is None:
        return "runuser is not installed"
    try:
        pwd.getpwnam(name)
    except KeyError:
        if shutil.which("useradd") is None:
            return f"no account {name} on this machine, and no useradd to make it"
        made = subprocess.run(["useradd", "-M", name], capture_output=True, text=True)
        if made.returncode != 0:
            return f"no account {name} on this machine, and useradd -M {name} failed: {made.stderr.strip()}"
        atexit.register(remove_account, name)  # made here: gone after, unless another run uses it
    try:
        done = subprocess.run(
            ["runuser", "-u", name, "--", sys.executable, "-c", "import tracker"],
            cwd=ROOT,
            capture_output=True,
            timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"runuser -u {name} -- {sys.executable} failed: {exc}"
    if done.returncode != 0:
        why = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["no output"]
        return f"{name} cannot run {sys.executable} with tracker importable ({why[0]}); its folders are not o+x"
    return None


def as_account(name: str, *args: str) -> list[str]:
    """The command line running `args` as `name`, with this interpreter."""
    return ["runuser", "-u", name, "--", sys.executable, *args]


def shared_folder() -> Iterator[Path]:
    """A folder another account may enter and list (0755, root's), as a GM's campaign folder is."""
    folder = Path(tempfile.mkdtemp(prefix="tracker-secrets-", dir="/tmp"))
    try:
        folder.chmod(0o755)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def play_brawl(folder: Path) -> Path:
    """examples/brawl.toml copied into `folder` (0600, as every save is) and `BRAWL_ROUND` played into it, dealt
    the cards of its demo seed 42 (`BRAWL_ROUND` answers them; the example keeps no seed of its own)."""
    path = folder / "brawl.toml"
    files.write_text(path, (EXAMPLES / "brawl.toml").read_text())
    done = subprocess.run(
        [sys.executable, "-m", "tracker", "exec", str(path), "--save", "--seed", "42"],
        input=BRAWL_ROUND.encode(),
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode()
    return path


# --- what must never reach another account ---------------------------------------------------------------

_CODE = r"(?:1[0-3]|[1-9])[RTMC]|RJ|BJ"
_SHORT = r"(?:1[0-3]|[1-9])[♥♠♣♦]|Red Joker|Black Joker"
_CARD = re.compile(rf"(?<![\w♥♠♣♦])(?:{_CODE}|{_SHORT})(?![\w♥♠♣♦])")
#: How many of the deck's next cards, in order, make its order known.
DECK_RUN = 6


def card_codes(text: str) -> list[str]:
    """Every card in `text` as its code, in order, whether written as a code (``9R``) or as the log and the
    screens write it (``9♥``, ``Red Joker``)."""
    from tracker.families.ttb.fate.cards import parse_card

    shorts = {parse_card(code).short(): code for code in _all_codes()}
    return [shorts.get(found, found) for found in _CARD.findall(text)]


def _all_codes() -> list[str]:
    return [f"{value}{suit}" for value in range(1, 14) for suit in "RTMC"] + ["RJ", "BJ"]


@dataclass
class Secrets:
    """The GM's secrets in a TTB encounter, read from the GM's own file."""

    #: Each Fated's Control Hand, as card codes.
    hands: dict[str, list[str]]
    #: Each Fated's Control Hand as its own player's sheet writes it.
    hand_lines: dict[str, str]
    #: The Fate Deck, top first.
    deck: list[str]
    seed: int
    hidden: set[str]
    #: The 128-bit secret the draws follow, when the fight has one (no seed in the file).
    secret: str | None = None
    #: Whose hand may be shown (the seat reading it).
    allowed: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, path: Path) -> Secrets:
        from tracker.families.ttb.fate.cards import parse_card
        from tracker.families.ttb.records.state import TTBState
        from tracker.store.opening import load_session

        session = load_session(str(path))
        st = session.rules.state
        assert isinstance(st, TTBState)
        hands = {name: list(f.hand) for name, f in st.fighters.items() if f.hand}
        lines = {name: " ".join(parse_card(c).short() for c in hand) for name, hand in hands.items()}
        deck = list(st.deck)
        assert len(hands) == 3 and all(len(hand) == 3 for hand in hands.values()), hands
        assert len(deck) >= DECK_RUN
        history = session.history
        return cls(hands, lines, deck, history.seed, set(session.rules.hidden_names()), secret=history.secret)

    def found_in(self, text: str) -> list[str]:
        """Each secret `text` gives away, said in a few words (empty: none)."""
        found: list[str] = []
        codes = "," + ",".join(card_codes(text)) + ","
        for name, hand in self.hands.items():
            if name in self.allowed:
                continue
            if self.hand_lines[name] in text or _has_run_of(codes, hand):
                found.append(f"{name}'s hand {hand}")
        for start in range(len(self.deck) - DECK_RUN + 1):
            run = self.deck[start : start + DECK_RUN]
            if "," + ",".join(run) + "," in codes:
                found.append(f"the deck's order from card {start} ({run})")
                break
        if self.secret is not None:
            if self.secret in text.casefold() or str(int(self.secret, 16)) in text:
                found.append("the secret the draws follow")
        elif re.search(rf"""["']?seed["']?\s*[=:]\s*{self.seed}\b""", text):
            found.append(f"the seed {self.seed}")
        for name in self.hidden:
            if name in text or name.split()[-1] in re.findall(r"\w+", text):
                found.append(f"the GM-only {name}")
        return found


def _has_run_of(codes: str, hand: list[str]) -> bool:
    """Whether the comma-joined `codes` hold every card of `hand` one after the other, in any order."""
    seq = codes.strip(",").split(",")
    size = len(hand)
    return any(sorted(seq[i : i + size]) == sorted(hand) for i in range(len(seq) - size + 1))
