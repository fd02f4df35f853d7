"""The Melee tab's engagement map (docs/rules/ttb-damage.md#s2-9, README "The map"): who is engaged with whom, each with
the yards it threatens, and who would make a disengaging strike if the selected character walked away."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import pinned, run, ttb, ttb_view
from tracker.families.session import Session
from tracker.present.map.draw import draw_map
from tracker.store.files import parse_text

BRAWL = Path(__file__).resolve().parents[3] / "examples" / "brawl.toml"
OPENING = ["initiative Sofia 10", "initiative Ash 8", "initiative Marguerite 5", "start", "answer Belle"]


def brawl(*lines: str) -> Session:
    return run(Session(parse_text(pinned(BRAWL.read_text(encoding="utf-8")), "brawl.toml")), *OPENING, *lines)


def walk_line(s: Session, who: str) -> str:
    view = ttb_view(s).field_map(who)
    return "".join(span.text for span in view.notes).strip()


def test_s2_9_the_engaged_are_nodes_with_their_melee_range_and_engagements_are_edges() -> None:
    s = brawl("engage Sofia 'Guild Thug'", "engage Sofia Lieutenant", "engage Ash Ghoul")
    view = ttb_view(s).field_map("Sofia Ramos")
    assert [n.key for n in view.nodes] == ["Sofia Ramos", "Ash Kettering", "Guild Lieutenant", "Ghoul", "Guild Thug"]
    notes = {n.key: n.note for n in view.nodes}
    assert notes["Guild Lieutenant"] == "2y" and notes["Sofia Ramos"] == "1y"  # melee_range = 2 in the file
    assert {frozenset(e) for e in view.edges} == {
        frozenset(("Sofia Ramos", "Guild Thug")),
        frozenset(("Sofia Ramos", "Guild Lieutenant")),
        frozenset(("Ash Kettering", "Ghoul")),
    }
    sides = {n.key: view.sides[n.mark.side] for n in view.nodes if n.mark}
    assert sides["Sofia Ramos"] == "players" and sides["Ghoul"] == "fatemaster"
    assert [n.key for n in view.nodes if n.focus] == ["Sofia Ramos"]


def test_s2_9_walking_away_draws_a_strike_from_each_enemy_able_to_attack() -> None:
    """[000:L284]: every engaging enemy may strike; the line names them (the engine offers exactly these)."""
    s = brawl("engage Sofia 'Guild Thug'", "engage Sofia Lieutenant")
    assert walk_line(s, "Sofia Ramos") == "If Sofia Ramos walks: disengaging strikes from Guild Thug, Guild Lieutenant"
    assert ttb(s).engaged_by("Sofia Ramos") == ["Guild Thug", "Guild Lieutenant"]


def test_s2_9_an_enemy_that_cannot_attack_threatens_0_yards_and_makes_no_strike() -> None:
    """A20/A21: a Paralyzed enemy is linked but engages nobody: 0y on the map, left out of the strikes."""
    s = brawl("engage Sofia 'Guild Thug'", "engage Sofia Lieutenant", "add Lieutenant paralyzed")
    view = ttb_view(s).field_map("Sofia Ramos")
    assert {n.key: n.note for n in view.nodes}["Guild Lieutenant"] == "0y"
    assert walk_line(s, "Sofia Ramos") == "If Sofia Ramos walks: disengaging strikes from Guild Thug"
    s = brawl("engage Sofia Lieutenant", "add Lieutenant paralyzed")
    expected = "If Sofia Ramos walks: no disengaging strikes (Guild Lieutenant cannot strike)"
    assert walk_line(s, "Sofia Ramos") == expected


def test_the_walk_line_for_someone_not_engaged() -> None:
    s = brawl("engage Sofia 'Guild Thug'")
    assert walk_line(s, "Ash Kettering") == "If Ash Kettering walks: no disengaging strikes (not engaged)"


def test_nobody_engaged_is_said_instead_of_a_map() -> None:
    s = brawl()
    view = ttb_view(s).field_map(None)
    assert view.nodes == () and view.notes == ()
    assert draw_map(view, 78, 10).plain() == "Nobody is engaged in melee."


def test_the_engagement_map_drawn_at_each_size_names_everyone_with_their_side() -> None:
    s = brawl(
        "engage Sofia 'Guild Thug'", "engage Sofia Lieutenant", "engage Ash Ghoul", "engage Marguerite Lieutenant"
    )
    view = ttb_view(s).field_map("Sofia Ramos")
    for width, height in [(78, 6), (41, 18), (97, 44)]:
        text = draw_map(view, width, height).plain()
        for name, marker in [
            ("Sofia Ramos", "●"),
            ("Ash Kettering", "●"),
            ("Marguerite Bell", "●"),
            ("Guild Thug", "▲"),
            ("Guild Lieutenant", "▲"),
            ("Ghoul", "▲"),
        ]:
            # The narrowest form keeps each name's shortest unique leading words ("Sofia", "Guild Thug").
            shortest = " ".join(name.split()[: 2 if name.startswith("Guild") else 1])
            assert f"{marker} {shortest}" in text, (width, name, text)
        assert "If Sofia Ramos walks: disengaging strikes from" in " ".join(text.split())
        assert "● players" in text and "▲ fatemaster" in text


def test_a_walk_away_ends_the_engagements_on_the_map() -> None:
    s = brawl("engage Sofia 'Guild Thug'", "spend Sofia walk", "answer no")
    assert ttb_view(s).field_map("Sofia Ramos").nodes == ()
