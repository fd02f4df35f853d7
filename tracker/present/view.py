"""The typed view of an encounter that a rule family builds for the screens.

The family turns its live state into these plain, frozen values once per accepted command; each panel
is bound to its own slice and only draws it. Nothing here knows Textual or Rich: text comes as spans
with a small set of emphases that the screen maps to its theme, so the rules core stays UI-free and a
family never has to know how a panel looks.

The values are NamedTuples rather than frozen dataclasses for the start-up: a frozen dataclass
compiles its six methods from generated source each time its module is imported (about 4 M instructions,
55 M for this module, on every start), a NamedTuple one small function. Compare them with `==` only
between values of the same kind (a NamedTuple also equals a plain tuple of the same fields).
"""

from __future__ import annotations

from typing import Literal, NamedTuple

# A condition note is the engine's (the kernel answers it); the screens read it here with the rest of the view.
from tracker.engine.catalogue import ConditionNote as ConditionNote
from tracker.engine.log import LogEntry
from tracker.engine.records.record import Record, fingerprint

#: How a span is emphasised; the screen maps each to a style of its theme.
Emphasis = Literal["", "bold", "dim", "italic", "key"]


class Span(NamedTuple):
    """A run of text with one emphasis; ``\\n`` inside the text breaks the line."""

    text: str
    emphasis: Emphasis = ""


#: A block of text for a panel body: spans in reading order.
Block = tuple[Span, ...]


class BlockWriter:
    """Builds a Block the way one writes a paragraph: `add` spans, `line` whole lines."""

    def __init__(self) -> None:
        self._spans: list[Span] = []

    def add(self, text: str, emphasis: Emphasis = "") -> BlockWriter:
        if text:
            self._spans.append(Span(text, emphasis))
        return self

    def line(self, text: str = "", emphasis: Emphasis = "") -> BlockWriter:
        return self.add(text + "\n", emphasis)

    def block(self) -> Block:
        return tuple(self._spans)


class ConditionTag(NamedTuple):
    """One condition in the order table: written out when there is room, else its short form,
    which the table's legend explains ("Brn2" → "Brn burning")."""

    full: str
    short: str
    #: The short form's stem and what it stands for, for the legend ("Brn", "burning").
    stem: str
    meaning: str


class OrderRow(NamedTuple):
    """One combatant's row in the order table; `cells` follow `OrderView.columns` but for the last
    column, Conditions, which the table writes from `conditions` to fit its width."""

    name: str
    cells: tuple[str, ...]
    #: Out of the fight for now (dead, unconscious, defeated): drawn muted.
    down: bool = False
    conditions: tuple[ConditionTag, ...] = ()


class RowKeeper:
    """The order rows a family built for the last view, handed back when a row is built again unchanged.

    The family builds the order after every command, and a `next` changes two rows of hundreds.
    Handing back the very row the screen already has lets it see at a glance (`is`) which rows changed.
    A family first asks `unchanged` with the combatant's record and what else its row shows (`key`): when
    neither changed since the row was built, the row is handed back without building its cells again.
    Kept by each live engine (a new engine, as undo builds, starts empty).
    """

    def __init__(self) -> None:
        self._rows: dict[str, OrderRow] = {}
        self._keys: dict[str, tuple[object, ...]] = {}

    @staticmethod
    def key(fighter: Record, *shown: object) -> tuple[object, ...] | None:
        """What a row is built from: the combatant's record (`record.fingerprint`) and the rest it shows
        (whose turn it is, ties, effects on it …), each compared with ``==``; None: build it again."""
        mark = fingerprint(fighter)
        return None if mark is None else (mark, *shown)

    def unchanged(self, name: str, key: tuple[object, ...] | None) -> OrderRow | None:
        """The row kept for `name` when it was built from the same `key`, else None."""
        if key is not None and self._keys.get(name) == key:
            return self._rows[name]
        return None

    def row(
        self,
        name: str,
        cells: tuple[str, ...],
        down: bool,
        conditions: tuple[ConditionTag, ...],
        key: tuple[object, ...] | None = None,
    ) -> OrderRow:
        """The row with these contents: the kept one when it has them, remembered with `key` (`unchanged`)."""
        if key is None:
            self._keys.pop(name, None)
        else:
            self._keys[name] = key
        kept = self._rows.get(name)
        if kept is not None and kept.cells == cells and kept.down == down and kept.conditions == conditions:
            return kept
        row = self._rows[name] = OrderRow(name, cells, down, conditions)
        return row


class OrderView(NamedTuple):
    """The initiative order: columns, rows in acting order, who acts, and the round line above it."""

    columns: tuple[str, ...]
    rows: tuple[OrderRow, ...]
    active: str | None
    round_line: str
    #: Abbreviations the columns use besides conditions ("V Vigour · R Resolve"), shown under the table.
    legend: str = ""
    #: Columns that may give up characters (with an ellipsis) when the width is short: names and
    #: places, never numbers. The first gives way first.
    shrinkable: tuple[int, ...] = (1,)


class HeaderView(NamedTuple):
    """The title line's parts, most important first where the screen must shorten it."""

    encounter: str
    family: str
    #: "Round 2" or "not started".
    where: str
    #: The pools the table watches ("Momentum 2 · Threat 5"); empty for families without pools.
    pools: str = ""
    #: Whose turn it is, or None.
    active: str | None = None


class PromptView(NamedTuple):
    """The question the rules wait on, each option with the command that answers it."""

    question: str
    options: tuple[str, ...]
    #: The command line each option stands for (same order as `options`).
    answers: tuple[str, ...]
    #: A hint for answers that are typed rather than picked ("or type a card: answer 9R").
    hint: str = ""


class ActionChoice(NamedTuple):
    """One action the selected combatant could take, with why it may not (None: legal now)."""

    key: str
    label: str
    cost: str
    reason: str | None
    #: The command line this action starts ("spend Sofia walk").
    line: str
    #: The action needs more words (a target, an amount): the command line opens prefilled.
    needs_more: bool = False


class EncounterView(NamedTuple):
    """Everything the GM screen shows, for one revision and one selected combatant."""

    revision: int
    header: HeaderView
    order: OrderView
    #: Whom the Turn, Conditions and field panels speak about (the selection, else the active one).
    focus: str | None
    turn: Block
    conditions: tuple[ConditionNote, ...]
    # The field tab's text and the Fate Deck / Pools text are not here: the screen asks the family for them
    # (`FamilyPresenter.field`, `FamilyPresenter.resources`) while their tab shows.
    prompt: PromptView | None
    #: The log entries the state keeps, and how many were ever written (panels append only new ones).
    log: tuple[LogEntry, ...] = ()
    logged: int = 0
    #: The phase's words: "setup", "turn", "ended", … (keys and the palette follow it).
    phase: str = "setup"
    #: The players' requests waiting for the GM, oldest first, as the screen lists them
    #: ("#3 alice (Sofia Ramos): damage 'Guild Thug' 2").
    requests: tuple[str, ...] = ()


class PlayerRow(NamedTuple):
    """A combatant as players may see it: nothing GM-only, health as the encounter allows."""

    name: str
    status: str
    health: str
    conditions: tuple[tuple[str, int | bool | str], ...]
    active: bool
    acted: bool
    zone: str | None = None
    #: The same conditions as the order table writes them (full, or short with a legend).
    tags: tuple[ConditionTag, ...] = ()


class PlayerView(NamedTuple):
    """The player screen's whole content; every string in it is safe to show to the table."""

    name: str
    round: int
    active: str | None
    rows: tuple[PlayerRow, ...]
    prompt: str | None
    #: "Round 2", or "not started" before the fight.
    where: str = ""
    #: The players' own pools ("Momentum 2"); the GM's pool is never here.
    pools: str = ""
    #: What the table knows of the scene beyond the order, a line each (`FamilyPresenter.player_notes`).
    notes: tuple[str, ...] = ()
    #: The fight's odds from what the players know ("the party wins 71 % · …"), when the GM's setting
    #: ``fight_odds_for_players`` lets them see it; "" otherwise.
    fight_odds: str = ""


# --- odds -------------------------------------------------------------------------------------------


class OddsRow(NamedTuple):
    """One row of an odds table: what is flipped or rolled (or at whom), and a cell per column."""

    label: str
    cells: tuple[str, ...]


class OddsView(NamedTuple):
    """Chances the family computed for the GM (the Fate Deck's next flip, a roll against each target).

    The panel and ``tracker odds`` lay the same table out (`odds_lines`): as given when it fits the
    width, else on its side when the family allows it (`transposable`): thirteen thresholds across
    suit an 80-column screen, thirteen rows a 44-column side panel.
    """

    title: str
    #: The top-left cell: what the columns count ("≥" for at-least thresholds).
    corner: str
    columns: tuple[str, ...]
    rows: tuple[OddsRow, ...]
    #: Lines under the table (what a bought die costs, the legend).
    notes: Block = ()
    transposable: bool = False
    #: Lines between the title and the table: the question at hand (the pending duel's chances), where
    #: a short panel still shows them.
    headline: Block = ()


def _grid(corner: str, columns: tuple[str, ...], rows: list[tuple[str, tuple[str, ...]]], label_max: int) -> list[str]:
    """Rows of text: the label column left-aligned (cut to `label_max` with an ellipsis), every other
    column right-aligned to its widest cell."""
    labels = [x if len(x) <= label_max else x[: max(1, label_max - 1)] + "…" for x in (corner, *(r for r, _ in rows))]
    label_width = max(len(x) for x in labels)
    widths = [max(len(columns[i]), *(len(cells[i]) for _, cells in rows)) for i in range(len(columns))]
    out = []
    for label, (_, cells) in zip(labels, [(corner, columns), *rows], strict=True):
        line = label.ljust(label_width) + "".join(" " + c.rjust(w) for c, w in zip(cells, widths, strict=True))
        out.append(line.rstrip())
    return out


def _fit(corner: str, columns: tuple[str, ...], rows: list[tuple[str, tuple[str, ...]]], width: int) -> list[str]:
    """The grid at full label width, or with labels cut (to 8 at the least) until it fits `width`."""
    longest = max(len(x) for x in (corner, *(r for r, _ in rows)))
    grid = _grid(corner, columns, rows, longest)
    over = max(len(x) for x in grid) - width
    if over > 0:
        grid = _grid(corner, columns, rows, max(MIN_LABEL, longest - over))
    return grid


#: The narrowest a table's label column gets when the room is short (then the panel clips).
MIN_LABEL = 8


def odds_block(odds: OddsView, width: int, lead: Block = ()) -> Block:
    """The odds as a text block for `width` columns: the title, the header row (bold), the rows, the notes;
    `lead` (what the panel shows first of its own text) between the title's lines and the table.

    The table is laid out as given when it fits; otherwise, if transposable, with rows and columns
    swapped when that is narrower; a table wider than the room either way is left to the panel's
    clipping, never wrapped into a jumble.
    """
    rows = [(r.label, r.cells) for r in odds.rows]
    grid = _fit(odds.corner, odds.columns, rows, width) if rows else []
    if odds.transposable and grid and max(len(x) for x in grid) > width:
        flipped_columns = tuple(label for label, _ in rows)
        flipped_rows = [(col, tuple(cells[i] for _, cells in rows)) for i, col in enumerate(odds.columns)]
        flipped = _fit(odds.corner, flipped_columns, flipped_rows, width)
        if max(len(x) for x in flipped) < max(len(x) for x in grid):
            grid = flipped
    out = BlockWriter().line(odds.title, "bold")
    head = out.block() + odds.headline
    out = BlockWriter()
    for n, line in enumerate(grid):
        out.line(line, "bold" if n == 0 else "")
    return head + lead + out.block() + odds.notes


def split_lead(block: Block) -> tuple[Block, Block]:
    """`block`'s first paragraph, through the blank line that ends it, and the rest; ((), block) when no
    blank line ends one."""
    last = ""  # the character before this span
    for n, span in enumerate(block):
        text = last + span.text
        end = text.find("\n\n")
        if end >= 0:
            cut = end + 2 - len(last)  # just past the blank line, inside this span
            head, tail = span.text[:cut], span.text[cut:]
            lead = (*block[:n], Span(head, span.emphasis))
            rest = ((Span(tail, span.emphasis),) if tail else ()) + block[n + 1 :]
            return lead, rest
        last = text[-1:] if text else last
    return (), block
