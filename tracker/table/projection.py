"""What one connection to the table receives: its projection of the fight, and nothing else.

As boardgame.io's ``playerView``: the GM's process holds the whole state and hands each player a view
filtered for them. Here the projection is made of the screen's own values, never of the state: the player
view every account may see (`FamilyPresenter.player_view`, which hides the GM-only), the players' story
when asked for, and for an account with a seat, what only that seat may see of its own characters (their
sheets with a TTB Control Hand, the question waiting on one of them, the map and odds on their turn).
Other hands, the deck, the seed, `gm_only` combatants and the GM's log are never in it: they are not
fields of it, and names the player view hides are filtered out of the map and the odds.

The projection is a record, so the receiving end validates what it is handed with pydantic (`decode`)
before a widget sees it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

from tracker.engine.errors import Refusal
from tracker.engine.records.record import Record, validate
from tracker.present.map.graph import MapView
from tracker.present.story.events import Story
from tracker.present.view import ActionChoice, Block, OddsView, PlayerView
from tracker.present.words import mentions, said_as_someone
from tracker.table.wire import dumps, message

if TYPE_CHECKING:
    from tracker.families.session import Session


@dataclass(kw_only=True)
class Own(Record):
    """One of the seat's characters as only its player sees it."""

    name: str
    #: The family's private block (`FamilyPresenter.own_sheet`): the turn panel, a Control Hand.
    sheet: Block = ()


@dataclass(kw_only=True)
class Question(Record):
    """The question the rules wait on, when it is about one of the seat's characters."""

    question: str
    #: As the screen writes each answer, and the command line each stands for.
    options: tuple[str, ...] = ()
    answers: tuple[str, ...] = ()
    hint: str = ""
    #: The character it is about.
    about: str | None = None


@dataclass(kw_only=True)
class Projection(Record):
    """Everything one connection is sent after each accepted command."""

    #: The GM process's count of accepted commands: a command sent names the one it was sent on.
    revision: int
    #: Which run of the GM's process counted it (random per `tracker run`): a revision of an earlier run,
    #: before the GM restarted, names another state even when its number comes round again.
    table: str = ""
    #: The account the kernel says this connection comes from.
    account: str
    #: The characters seated for it (empty: it only watches).
    seated: tuple[str, ...] = ()
    view: PlayerView
    #: Which of the seated characters acts now, if one does.
    acting: str | None = None
    question: Question | None = None
    #: Who the question waits for when it is not this seat's ("the GM", or a character's name).
    waiting_on: str | None = None
    own: tuple[Own, ...] = ()
    #: What the acting character may do (the `s` list): legal first, each illegal one with why.
    actions: tuple[ActionChoice, ...] = ()
    #: The field (2d20 zones, TTB engagements) with nothing hidden on it; shown to seated players.
    map: MapView | None = None
    odds: OddsView | None = None
    #: The players' story, for connections that asked for it (its full-screen view is open).
    story: Story | None = None
    #: This account's requests waiting for the GM ("damage 'Guild Thug' 2"), oldest first.
    requests: tuple[str, ...] = ()
    #: What the GM last decided on this account's requests, as the log says it ("approved alice's request:
    #: …"), latest last: the player's screen tells each new one.
    decided: tuple[str, ...] = ()


def project(
    session: Session,
    account: str,
    seated: tuple[str, ...],
    revision: int,
    question_for: str | None,
    story: Story | None = None,
    table: str = "",
    view: PlayerView | None = None,
) -> Projection:
    """`account`'s projection of `session`. `question_for`: the seated character the pending question is
    about, when it is one of `seated` (the seat rules decide whose a question is). `view`: the player view
    of `session` when the caller made it once for every seat (it is the same for all of them)."""
    presenter = session.presenter
    rules = session.rules
    if view is None:
        view = presenter.player_view()
    hidden = rules.hidden_names()
    st = rules.state
    mine = tuple(name for name in seated if name in rules.combatant_names() and name not in hidden)
    acting = st.active if st.active in mine else None
    question = None
    waiting_on = None
    prompt = presenter.prompt_view()
    if prompt is not None and question_for in mine:
        # An answer naming someone GM-only (a hidden enemy as a target) is the GM's to give, not offered here.
        offered = [(o, a) for o, a in zip(prompt.options, prompt.answers, strict=True) if not mentions(o + a, hidden)]
        offered = _draws_first(session, offered)
        question = Question(
            question=masked(prompt.question, hidden),
            options=tuple(o for o, _ in offered),
            answers=tuple(a for _, a in offered),
            hint=masked(prompt.hint, hidden),
            about=question_for,
        )
    elif st.prompt is not None:
        about = st.prompt.who
        waiting_on = about if about and about not in hidden else "the GM"
    # The one acting (or asked) first: their sheet is the one the player needs now.
    first = acting or question_for
    ordered = sorted(mine, key=lambda name: name != first)
    own = tuple(Own(name=name, sheet=_blockmasked(presenter.own_sheet(name), hidden)) for name in ordered)
    field = odds = None
    if mine:
        focus = acting or question_for or mine[0]
        field = _without(presenter.field_map(focus), hidden)
        if acting is not None or question is not None:
            # From what this seat knows: its own hands, never another's (docs/guide/seating.md).
            odds = _odds_without(presenter.odds(focus, frozenset(mine)), hidden)
    waiting = tuple(r.command for r in st.requests if r.seat == account)
    said = (f"approved {account}'s request: ", f"denied {account}'s request: ")
    decided = tuple(e.text for e in st.log if e.text.startswith(said))[-5:]
    return Projection(
        revision=revision,
        table=table,
        account=account,
        seated=mine,
        view=view,
        acting=acting,
        question=question,
        waiting_on=waiting_on,
        own=own,
        actions=tuple(
            choice._replace(reason=masked(choice.reason, hidden) if choice.reason else choice.reason)
            for choice in (rules.actions_for(acting) if acting is not None else ())
        ),
        map=field,
        odds=odds,
        story=story,
        requests=waiting,
        decided=decided,
    )


def _draws_first(session: Session, offered: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A seat's answers with those it applies itself first (the tracker's draw, a choice), then the results
    typed from the table, which go to the GM as requests (docs/guide/seating.md) and say so: key 1 is the draw."""
    rules = session.rules
    if rules.seats_enter_results():
        return offered
    own: list[tuple[str, str]] = []
    asked: list[tuple[str, str]] = []
    for option, answer in offered:
        try:
            typed = rules.typed_result(session.parse(answer))
        except Refusal:
            typed = False
        if typed:
            asked.append((f"{option} (asks the GM)", answer))
        else:
            own.append((option, answer))
    return own + asked


def masked(text: str, hidden: set[str]) -> str:
    """`text` with every name in `hidden` said as "someone" (`tracker.present.words.said_as_someone`)."""
    return said_as_someone(text, hidden)


def _blockmasked(block: Block, hidden: set[str]) -> Block:
    """`block` with every GM-only name said as "someone" ("Engaged by someone: no shooting")."""
    if not hidden:
        return block
    return tuple(span._replace(text=masked(span.text, hidden)) for span in block)


def _without(field: MapView | None, hidden: set[str]) -> MapView | None:
    """`field` with nobody in `hidden` on it: their marks, their nodes, the edges to them, notes naming them."""
    if field is None or not hidden:
        return field
    nodes = tuple(
        replace(node, marks=tuple(m for m in node.marks if m.name not in hidden))
        for node in field.nodes
        if node.mark is None or node.mark.name not in hidden
    )
    keys = {node.key for node in nodes}
    edges = tuple((a, b) for a, b in field.edges if a in keys and b in keys)
    notes = tuple(span for span in field.notes if not mentions(span.text, hidden))
    focus = field.focus if field.focus not in hidden else None
    return replace(field, nodes=nodes, edges=edges, notes=notes, focus=focus)


def _odds_without(odds: OddsView | None, hidden: set[str]) -> OddsView | None:
    """`odds` without a row or a note that names anyone in `hidden` (a roll against a GM-only enemy)."""
    if odds is None or not hidden:
        return odds
    rows = tuple(row for row in odds.rows if not mentions(row.label, hidden))
    notes = tuple(span for span in odds.notes if not mentions(span.text, hidden))
    return odds._replace(rows=rows, notes=notes)


def encode(projection: Projection, view: bytes | None = None) -> bytes:
    """The projection as its line on the wire (`tracker.table.wire`). `view`: its player view as
    `encode_view` wrote it, when the caller made that once for every seat (at 500 combatants the view is
    nearly all of a line's ~90 kB)."""
    if view is None:
        return message("projection", projection)
    rest = dumps({f.name: getattr(projection, f.name) for f in fields(projection) if f.name != "view"})
    return b'{"projection":{"view":' + view + b"," + rest[1:] + b"}\n"


def encode_view(view: PlayerView) -> bytes:
    """A player view as JSON, as `encode` writes it inside each projection."""
    return dumps(view)


def decode(data: Any) -> Projection:
    """A projection as the GM's process sent it, validated (`Invalid` when it is not one)."""
    return validate(Projection, data, memo=False)
