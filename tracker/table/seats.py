"""The seat rules as the table's server asks them (`tracker.table.server.Seating`), from the families' package."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.table.server import Verdict

if TYPE_CHECKING:
    from tracker.families.session import Session


class RulesSeating:
    """`[seats]` and what a seat may do, as `tracker.families.seating` rules them."""

    def seats_of(self, session: Session) -> dict[str, tuple[str, ...]]:
        from tracker.families.seating import seats_of

        return seats_of(session)

    def judge(self, session: Session, account: str, as_name: str | None, line: str) -> Verdict:
        from tracker.families.seating import judge

        verdict = judge(session, account, as_name, line)
        return Verdict(verdict.kind, verdict.line, verdict.reason)

    def question_for(self, session: Session, characters: tuple[str, ...]) -> str | None:
        """The seated character the pending question is about, if it is one of `characters`."""
        prompt = session.state.prompt
        return prompt.who if prompt is not None and prompt.who in characters else None
