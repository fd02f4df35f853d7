"""One run of the rest of a fight: a cheap copy of the live state, reseeded, played to its end by the policy.

What the table has not seen is drawn afresh in each run (docs/reference/cli.md "tracker odds … --fight"): the
run's draws are keyed by a secret made from ``--seed`` and the run's number, never by the file's own seed or
secret, and the family puts whatever is still unseen (the Fate Deck's undrawn order, the Twist Decks) in a new
order from it (`FamilyRules.new_branch`, the same as after an undo). The history is never replayed and no
record is validated: the state the runs start from is pickled once and unpickled per run.
"""

from __future__ import annotations

import hashlib
import pickle
import random
from collections.abc import Callable, Sequence
from typing import NamedTuple

from tracker.engine.errors import Refusal
from tracker.engine.language.commands import Command
from tracker.engine.state import LiveState
from tracker.families.file import EncounterFile
from tracker.families.rules import FamilyRules
from tracker.families.seam import RuleFamily
from tracker.present.words import quote

#: Commands one run may apply at most: far above any fight's (a guard against a policy that goes round in a
#: circle; such a run ends undecided, with the reason).
STEP_LIMIT = 20_000
#: Statuses that count as a fall (docs/reference/json-state.md): out of the fight.
DOWN = frozenset({"unconscious", "defeated", "dying", "dead"})


class Start(NamedTuple):
    """What every run starts from, made once (`start_of`) and shipped to the worker processes."""

    system: str
    #: The setup the runs play (`Pilot.armed`).
    setup: EncounterFile
    #: The live state, pickled without its log.
    state: bytes
    #: Everyone still in the fight, in the file's order, with the side each fights on.
    names: tuple[str, ...]
    sides: tuple[str, ...]
    #: The round the runs start in (0 before ``start``).
    round: int
    #: Rounds a run may play before it is called undecided.
    cap: int
    seed: int
    #: Whose hands of cards the viewer has not seen: drawn afresh in every run (`FamilyRules.unseen_hands`).
    blind: tuple[str, ...] = ()


class Outcome(NamedTuple):
    """How one run ended."""

    #: The side that won, or "" (undecided: the round cap, everyone down at once, or no way on).
    winner: str
    rounds: int
    #: Indexes into `Start.names` of those who fell and of those who died.
    fell: tuple[int, ...]
    died: tuple[int, ...]
    #: Why the run could not go on ("" when it could).
    stuck: str = ""


def start_of(family: RuleFamily, rules: FamilyRules, cap: int, seed: int, players: bool = False) -> Start:
    """The start of every run from the live `rules` (the file's history replayed once, by the caller).

    `players`: from what the players know (docs/reference/cli.md "fight_odds_for_players"): the combatants the
    GM keeps hidden are not in the fight at all, and nobody's hand of cards is known (each is drawn afresh in
    every run), so the figures say nothing a seat could not know."""
    pilot = family.pilot()
    setup = pilot.armed(rules_setup(rules))
    hidden = sorted(rules.hidden_names() - set(rules.state.left)) if players else []
    if hidden:
        rules = _without(family, pilot.over(setup, pickle.loads(pickle.dumps(rules.state))), hidden)
    st = rules.state
    # Neither the log nor what keys the tracker's own draws goes with the runs: each run has its own key.
    kept = st.log, st.seed, st.secret, st.branch, st.draws
    st.log, st.seed, st.secret, st.branch, st.draws = [], 0, None, 0, 0
    try:
        names = tuple(rules.present_names())
        frozen = pickle.dumps(st, protocol=pickle.HIGHEST_PROTOCOL)
    finally:
        st.log, st.seed, st.secret, st.branch, st.draws = kept
    blind = names if players else ()
    sides = tuple(rules.side(n) for n in names)
    return Start(family.name, setup, frozen, names, sides, st.round, cap, seed, blind)


def _without(family: RuleFamily, rules: FamilyRules, names: Sequence[str]) -> FamilyRules:
    """`rules` (a copy) with `names` out of the fight as the family's ``leave`` takes them out (their turn, their
    engagements); while a question waits, which ``leave`` must not interrupt, only marked as gone."""
    parse = _parser(family)
    for name in names:
        try:
            rules.apply(parse(f"leave {quote(name)}"))
        except Refusal:
            rules.state.left.append(name)
    return rules


def rules_setup(rules: FamilyRules) -> EncounterFile:
    """The setup the rules were opened on (every family's rules keep it as ``setup``)."""
    setup = getattr(rules, "setup", None)
    if not isinstance(setup, EncounterFile):
        raise Refusal("these rules cannot play the fight's odds")
    return setup


def secret_of(seed: int, run: int) -> str:
    """The 128-bit key of run `run`'s draws under ``--seed`` `seed` (`tracker.engine.rng`): nothing of the file's."""
    return hashlib.blake2b(f"fight odds:{seed}:{run}".encode(), digest_size=16).hexdigest()


def winner_of(rules: FamilyRules, start: Start) -> str | None:
    """The side still standing when every other side is down or gone; "" when nobody stands; None while two
    sides still stand."""
    found: str | None = None  # asked after every command: stop at the second side found standing
    for name, side in zip(start.names, start.sides, strict=True):
        if side == found or rules.has_left(name) or rules.status(name) in DOWN:
            continue
        if found is not None:
            return None
        found = side
    return found or ""


def play(family: RuleFamily, start: Start, run: int, story: list[str] | None = None) -> Outcome:
    """Run number `run`; with `story`, the log lines that tell it are appended to it (`told`)."""
    pilot = family.pilot()
    st = pickle.loads(start.state)
    st.secret, st.branch, st.draws = secret_of(start.seed, run), 0, 0
    rules = pilot.over(start.setup, st)
    rules.new_branch()
    if start.blind:
        rules.unseen_hands(start.blind)
    rules.unlogged = story is None
    luck = random.Random(f"fight odds policy:{start.seed}:{run}")
    parse = _parser(family)
    first = max(start.round, 1)
    last = first + start.cap - 1
    stuck = ""
    winner = winner_of(rules, start)
    steps = 0
    while winner is None:
        if st.round > last:
            break
        if steps >= STEP_LIMIT:
            stuck = f"a run went past {STEP_LIMIT} commands"
            break
        seen = st.logged
        refusals: list[str] = []
        for line in pilot.commands(rules, luck):
            try:
                rules.apply(parse(line))
            except Refusal as exc:
                refusals.append(f"'{line}': {exc}")
                continue
            pilot.applied(rules, line)
            break
        else:
            stuck = "no command the policy tried was accepted (" + "; ".join(refusals[-2:]) + ")"
            break
        steps += 1
        if story is not None:
            told(st, seen, story)
        winner = winner_of(rules, start)
    rounds = 0 if steps == 0 else min(st.round, last) - first + 1
    fell = tuple(i for i, n in enumerate(start.names) if rules.status(n) in DOWN)
    died = tuple(i for i, n in enumerate(start.names) if rules.status(n) == "dead")
    return Outcome(winner or "", max(0, rounds), fell, died, stuck)


#: Log lines that tell a run: damage taken, falls, deaths (the engine's own words).
_TOLD = (" takes ", " falls ", " dies", " is Defeated", " is dead", "Dying", "unconscious")


def told(st: LiveState[object], seen: int, story: list[str]) -> None:
    """Append the log entries written since `seen` that tell the fight (damage and falls), each with its round."""
    new = st.logged - seen
    for entry in st.log[-new:] if new > 0 else []:
        if entry.kind == "prompt" or not any(word in entry.text for word in _TOLD):
            continue
        story.append(f"round {entry.round}: {entry.text}")


#: Lines the policies typed, read once per process (a `Command` is immutable; a policy types the same few
#: hundred lines over and over, run after run), by family, at most `_READ_LIMIT`.
_READ: dict[tuple[str, str], Command] = {}
_READ_LIMIT = 100_000


def _parser(family: RuleFamily) -> Callable[[str], Command]:
    """The family's parser, remembering the lines it read."""
    parse, name = family.verbs.parse, family.name

    def parsed(line: str) -> Command:
        cmd = _READ.get((name, line))
        if cmd is None:
            cmd = parse(line)
            if len(_READ) < _READ_LIMIT:
                _READ[name, line] = cmd
        return cmd

    return parsed


def played(family: RuleFamily, start: Start, runs: Sequence[int]) -> list[Outcome]:
    """The outcomes of runs `runs`, in that order."""
    return [play(family, start, run) for run in runs]
