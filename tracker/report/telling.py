"""Telling the story of a fight: its history replayed, one command at a time, on a fresh session.

After each command the teller compares the JSON state (docs/reference/json-state.md) with the one before and reads
the log entries the command wrote: health (through the family's `StoryTerms`), conditions gained and
ended, status changes, arrivals and departures, the cards and dice (the log's ``result`` entries), the
family's gauges and table turns. Turns come from the log entries' ``actor`` field: a new actor (or the
same one after a gap with no turn open, such as a Reactivate turn) starts a turn.

**Who dealt the damage.** A command may name the attacker outright (TTB ``damage B … by=A``, 2d20
``damage B … from=A``): its damage to anyone but A is A's. A declared attack (``spend A strike``,
``spend A attack``) makes A the attacker of the damage that resolves it (``damage``, ``answer``, or the
declaring command itself) to A's enemies until the turn changes. Anything else (end-of-turn effects,
a GM's bare ``damage``) is unattributed.

The teller can follow a live session: `follow` feeds it only the commands it has not seen, and starts
again when the history no longer extends what it told (after an undo).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from tracker.engine.errors import Refusal
from tracker.engine.language.commands import Command
from tracker.engine.log import LogEntry
from tracker.engine.records.model import History
from tracker.engine.records.record import copied
from tracker.families.file import EncounterFile
from tracker.families.seating import underlying
from tracker.families.session import Session, luck_of
from tracker.present.story.events import (
    Arrival,
    Beats,
    ConditionSpan,
    Fighter,
    Heal,
    Hit,
    Reading,
    Result,
    StatusChange,
    Story,
    TableChange,
    Turn,
    compose,
    for_players,
)
from tracker.present.story.terms import JSONMap, number

#: Verbs that resolve an attack declared earlier in the turn.
RESOLVING = frozenset({"damage", "answer"})

Combatants = dict[str, JSONMap]


def _combatants(state: JSONMap) -> Combatants:
    entries = state.get("combatants")
    if not isinstance(entries, Sequence):
        return {}
    return {str(c["name"]): c for c in entries if isinstance(c, Mapping) and "name" in c}


def _conditions(entry: JSONMap) -> dict[str, int | bool | str]:
    value = entry.get("conditions")
    if not isinstance(value, Mapping):
        return {}
    return {str(k): v for k, v in value.items() if isinstance(v, int | bool | str)}


def _text(entry: JSONMap, key: str) -> str:
    value = entry.get(key)
    return value if isinstance(value, str) else ""


def _names(text: str, name: str) -> bool:
    return name.casefold() in text.casefold()


class Teller:
    """Replays commands on a fresh session from `setup` and the fight's `luck` (what keys its draws: seed or
    secret, and the branches after undos, `tracker.families.session.luck_of`), and remembers what each did."""

    def __init__(self, setup: EncounterFile, luck: History) -> None:
        self.setup = copied(setup, state=None, history=None)
        self.luck = luck_of(luck)
        self.session = Session(self.setup, luck=self.luck)
        self.terms = self.session.presenter.story
        #: The commands told so far.
        self.lines: list[str] = []
        self._state: JSONMap = self.session.rules.state_json()
        self._beats = Beats([], [], [], [], [], [], [], [], [])
        #: (who, condition) → index in `_beats.conditions` of the span still open.
        self._open: dict[tuple[str, str], int] = {}
        #: The declared attacker and the (round, active) of the turn it holds for.
        self._declared: tuple[str, tuple[int, str | None]] | None = None
        #: (round, actor) of the last log entry read: a different actor starts a turn.
        self._last: tuple[int, str | None] = (0, None)
        self._joined: dict[str, int] = {}
        round_no = number(self._state, "round")
        for name, entry in _combatants(self._state).items():
            self._arrive(0, round_no, name, entry)
        self._beats.readings.append(Reading(0, round_no, tuple(self.terms.gauges(self._state).items())))

    @classmethod
    def of_file(cls, setup: EncounterFile) -> Teller:
        """The story of a loaded file: its ``[history]`` replayed from its setup with the history's seed."""
        history = setup.history
        teller = cls(setup, history if history else History(seed=setup.encounter.seed or 0))
        teller.tell_all(history.commands if history else [])
        return teller

    def tell_all(self, lines: Sequence[str]) -> None:
        """Tell `lines` after those already told; a line that no longer replays is a one-line Refusal."""
        for line in lines:
            try:
                self.tell(line)
            except Refusal as exc:
                n = len(self.lines) + 1
                raise Refusal(f"the history no longer replays at command {n} ('{line}'): {exc}") from None

    # --- one command --------------------------------------------------------------------------
    def tell(self, line: str) -> None:
        """Apply one accepted command and record what it did."""
        st = self.session.rules.state
        logged, turn = st.logged, (st.round, st.active)
        cmd = self.session.parse(line)
        if cmd.verb in ("undo", "redo"):
            raise Refusal("a story is told from the accepted commands, not from undo or redo")
        cmd = underlying(self.session, cmd)  # a player's strike (``by``, an approved request) told as a strike
        self.session.execute(line)
        st = self.session.rules.state
        new = st.logged - logged
        entries = [e for e in st.log[-new:] if e.kind != "prompt"] if new > 0 else []
        after = self.session.rules.state_json()
        self.lines.append(line)
        self._record(len(self.lines), cmd, self._state, after, entries, turn)
        self._state = after

    def _record(
        self,
        step: int,
        cmd: Command,
        before: JSONMap,
        after: JSONMap,
        entries: list[LogEntry],
        turn: tuple[int, str | None],
    ) -> None:
        round_no = number(after, "round")
        self._turns(entries)
        attacker, outright, declared_now = self._attacker(cmd, after)
        if cmd.verb == "spend" and cmd.args:
            self._action(cmd)
        elif cmd.verb == "attack" and cmd.args:  # the attack flow: told as the attack it declares
            self._action(cmd._replace(args=(cmd.args[0], "attack", *cmd.args[1:])))
        was, now = _combatants(before), _combatants(after)
        for name, entry in now.items():
            old = was.get(name)
            if old is None:
                self._arrive(step, round_no, name, entry)
                continue
            placed = self._place(entries, name, round_no, turn[1])
            hurt = self.terms.hurt(old, entry)
            if hurt.damage or hurt.harms:
                by = None
                if outright:
                    by = attacker if attacker != name else None
                elif self._declared and (cmd.verb in RESOLVING or declared_now) and self._declared[1] == turn:
                    who = self._declared[0]
                    by = who if who in now and _text(now[who], "side") != _text(entry, "side") else None
                self._beats.hits.append(Hit(step, placed[0], placed[1], name, by, hurt.damage, hurt.harms, hurt.change))
            if hurt.healed and cmd.verb not in self.terms.resets:
                self._beats.heals.append(Heal(step, placed[0], placed[1], name, hurt.healed, hurt.change))
            self._conditions(step, name, old, entry, entries, round_no, cmd)
            if _text(old, "status") != _text(entry, "status"):
                last = [e for e in entries if _names(e.text, name)]
                where = (last[-1].round, last[-1].actor) if last else (round_no, turn[1])
                self._beats.statuses.append(
                    StatusChange(
                        step,
                        where[0],
                        where[1],
                        name,
                        _text(old, "status"),
                        _text(entry, "status"),
                        last[-1].text if last else "",
                    )
                )
            if entry.get("left") is True and old.get("left") is not True:
                self._beats.arrivals.append(Arrival(step, round_no, name, _text(entry, "side"), joined=False))
        self._beats.results += [Result(step, e.round, e.actor, e.text) for e in entries if e.kind == "result"]
        self._beats.table += [
            TableChange(step, round_no, t.gauge, t.text) for t in self.terms.table_turns(before, after)
        ]
        self._beats.readings.append(Reading(step, round_no, tuple(self.terms.gauges(after).items())))

    def _turns(self, entries: list[LogEntry]) -> None:
        for e in entries:
            key = (e.round, e.actor)
            if e.actor is not None and key != self._last:
                self._beats.turns.append(Turn(e.round, e.actor))
            self._last = key

    def _attacker(self, cmd: Command, after: JSONMap) -> tuple[str | None, bool, bool]:
        """The attacker `cmd` names, whether outright, and whether it declared an attack just now."""
        named, outright = self.terms.attacker(cmd)
        who = self.session.rules.find_name(named) if named else None
        if who is None or outright:
            return who, outright, False
        active = after.get("active")
        self._declared = (who, (number(after, "round"), active if isinstance(active, str) else None))
        return who, False, True

    def _action(self, cmd: Command) -> None:
        rules = self.session.rules
        who = rules.find_name(cmd.args[0]) or cmd.args[0]
        # Targets in full ("order Rotten Belle", not the prefix typed), so the players' story can tell
        # an action on a hidden combatant.
        words = [cmd.args[1], *(rules.find_name(w) or w for w in cmd.args[2:]), *sorted(cmd.flags)]
        what = " ".join(words)
        turns = self._beats.turns
        if turns:
            turns[-1] = replace(turns[-1], actions=(*turns[-1].actions, (who, what)))

    def _place(self, entries: list[LogEntry], name: str, round_no: int, active: str | None) -> tuple[int, str | None]:
        """The round and turn of what happened to `name`: those of the first log line naming them."""
        for e in entries:
            if _names(e.text, name):
                return e.round, e.actor
        return round_no, active

    def _arrive(self, step: int, round_no: int, name: str, entry: JSONMap) -> None:
        self._joined[name] = round_no if step else 0
        self._beats.arrivals.append(Arrival(step, round_no, name, _text(entry, "side"), joined=True))
        for key, value in _conditions(entry).items():
            self._open[(name, key)] = len(self._beats.conditions)
            self._beats.conditions.append(ConditionSpan(name, key, value, value, step, round_no))

    def _conditions(
        self,
        step: int,
        name: str,
        old: JSONMap,
        entry: JSONMap,
        entries: list[LogEntry],
        round_no: int,
        cmd: Command,
    ) -> None:
        was, now = _conditions(old), _conditions(entry)
        spans = self._beats.conditions
        for key, value in now.items():
            label = key.replace("_", " ")
            line = next((e for e in entries if _names(e.text, name) and _names(e.text, label)), None)
            if key not in was:
                self._open[(name, key)] = len(spans)
                spans.append(ConditionSpan(name, key, value, value, step, line.round if line else round_no))
            elif value != was[key] and (name, key) in self._open:
                index = self._open[(name, key)]
                peak = spans[index].peak
                if isinstance(value, int) and not isinstance(value, bool) and isinstance(peak, int) and value > peak:
                    spans[index] = replace(spans[index], peak=value)
        for key in was.keys() - now.keys():
            if (name, key) not in self._open:
                continue
            index = self._open.pop((name, key))
            # The end is said last ("Sofia Ramos's Burning ends" after the Burning's damage).
            label = key.replace("_", " ")
            line = next((e for e in reversed(entries) if _names(e.text, name) and _names(e.text, label)), None)
            line = line or next((e for e in reversed(entries) if _names(e.text, label)), None)
            spans[index] = replace(
                spans[index],
                ended_step=step,
                ended_round=line.round if line else round_no,
                ended_by=line.text if line else f"({cmd.line})",
            )

    # --- the story ----------------------------------------------------------------------------
    def story(self, player: bool = False) -> Story:
        """The story so far; `player`: the players' version (nothing GM-only, as the player view)."""
        rules = self.session.rules
        final = _combatants(self._state)
        fighters = [
            Fighter(
                name,
                _text(entry, "side"),
                _text(entry, "status"),
                joined=self._joined.get(name, 0),
                left=entry.get("left") is True,
            )
            for name, entry in final.items()
        ]
        beats = self._beats
        if player:
            exact = {name: rules.health_shown(name) for name in final}
            beats, fighters = for_players(beats, fighters, rules.hidden_names(), exact, self.terms.player_gauges)
        return compose(
            rules.encounter_name(),
            self.session.presenter.family_label(),
            (self.terms.damage_unit, self.terms.damage_one),
            self.terms.gauges_title,
            fighters,
            beats,
            len(self.lines),
            player,
        )


def follow(teller: Teller | None, setup: EncounterFile, history: History, lines: Sequence[str]) -> Teller:
    """A teller that has told `lines`: `teller` fed only the new ones when `lines` extends what it told
    from the same setup and `history`'s luck, else a new one (after an undo, or for another file)."""
    bare = copied(setup, state=None, history=None)
    told = teller.lines if teller is not None else []
    luck = luck_of(history)
    if teller is None or teller.luck != luck or teller.setup != bare or list(lines[: len(told)]) != told:
        teller = Teller(setup, luck)
        told = []
    teller.tell_all(lines[len(told) :])
    return teller
