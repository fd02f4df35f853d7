"""The seat rules as the table's server asks them (`tracker.table.server.Seating`), from the families' package."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tracker.families.seating import Verdict
    from tracker.families.session import Session


class RulesSeating:
    """`[seats]` and what a seat may do, as `tracker.families.seating` rules them."""

    def seats_of(self, session: Session) -> dict[str, tuple[str, ...]]:
        from tracker.families.seating import seats_of

        return seats_of(session)

    def judge(self, session: Session, account: str, as_name: str | None, line: str) -> Verdict:
        from tracker.families.seating import judge

        return judge(session, account, as_name, line)

    def question_for(self, session: Session, characters: tuple[str, ...]) -> str | None:
        """The seated character the pending question waits for, if it is one of `characters` (the family
        says whose a question is: a 2d20 hand-over is the last actor's, the first-actor question the GM's)."""
        if session.state.prompt is None:
            return None
        subject = session.rules.prompt_subject()
        return subject if subject in characters else None
