"""The table's socket end to end, in one event loop: a GM process without a screen, and its players."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import stat
from pathlib import Path

import pytest

from tests.table.fakes import Watcher, copy_example, me, on_loop, player_and_viewer, seated_table, table
from tracker.table import wire
from tracker.table.address import table_path


@on_loop
async def test_a_viewer_is_sent_the_player_view_and_each_change_after_it(tmp_path: Path) -> None:
    path = copy_example(tmp_path, "brawl.toml")
    async with table(path, {}) as (host, server):
        watcher = await Watcher(path).start()
        first = await watcher.next()
        assert first.view.round == 0 and first.seated == ()
        host.submit("start")
        server.publish()
        second = await watcher.next()
        assert second.view.round == 1 and second.revision == 1
        names = [row.name for row in second.view.rows]
        assert "Rotten Belle" not in names  # gm_only
        assert server.connected() == [me()]
        await watcher.stop()


@on_loop
async def test_the_socket_is_beside_the_file_and_goes_with_the_gm(tmp_path: Path) -> None:
    path = copy_example(tmp_path, "brawl.toml")
    sock = table_path(path)
    async with table(path, {}):
        info = os.lstat(sock)
        assert stat.S_ISSOCK(info.st_mode) and stat.S_IMODE(info.st_mode) == 0o666
    assert not sock.exists()


@on_loop
async def test_a_viewer_waits_for_the_gm_and_connects_when_the_fight_opens(tmp_path: Path) -> None:
    path = copy_example(tmp_path, "brawl.toml")
    watcher = await Watcher(path).start()
    await asyncio.sleep(0.1)
    assert watcher.said and watcher.said[-1] == f"waiting for the GM to open {path}"
    async with table(path, {}):
        projection = await watcher.next()
        assert projection.view.name == "Ambush at the Docks"
    await asyncio.sleep(0.2)
    assert "the GM closed the fight" in watcher.said[-1]
    async with table(path, {}):  # the GM opens it again: the viewer is back without being told
        await watcher.next()
    await watcher.stop()


@on_loop
async def test_play_without_a_seat_is_refused(tmp_path: Path) -> None:
    from tracker.table.client import Refused

    path = copy_example(tmp_path, "brawl.toml")
    async with table(path, {}):
        watcher = Watcher(path, mode="play")
        with pytest.raises(Refused, match="has no seat"):
            await asyncio.wait_for(watcher.client.run(), 3)


@on_loop
async def test_play_as_a_name_not_seated_is_refused(tmp_path: Path) -> None:
    from tracker.table.client import Refused

    path = copy_example(tmp_path, "brawl.toml")
    async with table(path, {me(): ("Sofia Ramos",)}):
        watcher = Watcher(path, mode="play", as_name="Ash")
        with pytest.raises(Refused, match="not seated"):
            await asyncio.wait_for(watcher.client.run(), 3)


@on_loop
async def test_a_seat_sees_its_own_hand_and_no_other(tmp_path: Path) -> None:
    path = copy_example(tmp_path, "brawl.toml")
    async with table(path, {me(): ("Sofia Ramos",)}) as (host, _server):
        host.submit("start")
        watcher = await Watcher(path, mode="play").start()
        projection = await watcher.next()
        assert projection.seated == ("Sofia Ramos",)
        st = host.session.rules.state
        mine = " ".join(span.text for span in projection.own[0].sheet)
        assert "Control Hand" in mine
        line = wire.message("projection", None)  # any projection line, as sent
        sent = json.dumps(projection.__dict__, default=str)
        for other in ("Ash Kettering", "Marguerite Bell"):
            from tracker.families.ttb.fate.cards import parse_card

            for card in st.fighters[other].hand:  # type: ignore[attr-defined]
                assert parse_card(card).short() not in mine
        assert line and sent
        await watcher.stop()


@on_loop
async def test_commands_are_judged_applied_and_replied(tmp_path: Path) -> None:
    path = copy_example(tmp_path, "duel.toml")
    async with table(path, {me(): ("Sofia Ramos",)}) as (host, server):
        host.submit("start")
        assert host.session.state.active == "Sofia Ramos"
        watcher = await Watcher(path, mode="play").start()
        projection = await watcher.next()
        assert projection.acting == "Sofia Ramos"
        assert await watcher.client.send("damage Guild 2") == {
            "id": 1,
            "requested": "sent to the GM, who approves or denies it",
        }
        assert await watcher.client.send("next") == {"id": 2, "ok": True}
        assert host.lines[-1] == "next" and host.session.state.active != "Sofia Ramos"
        server.publish()
        assert (await watcher.next()).acting is None
        reply = await watcher.client.send("next")
        assert reply["refused"] == "it is not your turn"
        await watcher.stop()


@on_loop
async def test_a_command_sent_on_a_turn_that_has_ended_is_refused(tmp_path: Path) -> None:
    path = copy_example(tmp_path, "duel.toml")
    async with table(path, {me(): ("Sofia Ramos",)}) as (host, _server):
        host.submit("start")
        watcher = await Watcher(path, mode="play").start()
        assert (await watcher.next()).acting == "Sofia Ramos"
        host.submit("next")  # the GM moves on before the player's command arrives (not yet published)
        reply = await watcher.client.send("next")
        assert reply["refused"] == "the turn it was sent on has ended"
        assert host.lines == ["start", "next"]  # nothing applied twice
        await watcher.stop()


@on_loop
async def test_a_line_too_long_closes_only_that_connection(tmp_path: Path) -> None:
    path = copy_example(tmp_path, "brawl.toml")
    async with table(path, {}) as (host, server):
        good = await Watcher(path).start()
        await good.next()
        reader, writer = await asyncio.open_unix_connection(str(table_path(path)))
        writer.write(b'{"hello": {"mode": "view"}}\n')
        await reader.readline()
        writer.write(b"x" * (1024 * 1024) + b"\n")
        try:
            rest = await asyncio.wait_for(reader.read(), 3)
        except ConnectionResetError:  # closed with the line still unread: the goodbye may be lost with it
            rest = b"reset"
        assert b"longer than" in rest or rest == b"reset"
        assert len(server.seats) == 1
        host.submit("start")
        server.publish()
        assert (await good.next()).view.round == 1
        await good.stop()


@on_loop
async def test_a_question_for_a_seat_never_offers_or_names_a_gm_only_combatant(tmp_path: Path) -> None:
    """A seat's attack asks at whom; the GM-only Rotten Belle is the GM's to pick, never a player's option."""
    path = copy_example(tmp_path, "brawl.toml")
    async with table(path, {me(): ("Sofia Ramos",)}) as (host, _server):
        host.submit("start")
        assert host.submit("answer Dockside") is None  # the initiative tie between two Fatemaster characters
        while host.session.state.active != "Sofia Ramos":
            assert host.submit("next") is None
        assert host.submit("attack Sofia strike") is None
        prompt = host.session.state.prompt
        assert prompt is not None and any("Rotten Belle" in o for o in prompt.options)  # the GM sees her
        watcher = await Watcher(path, mode="play").start()
        projection = await watcher.next()
        assert projection.question is not None and projection.question.options
        assert not any(
            "Rotten Belle" in o or "Rotten Belle" in a
            for o, a in zip(projection.question.options, projection.question.answers, strict=True)
        )
        await watcher.stop()


@on_loop
async def test_a_request_waits_for_the_gm_and_the_seat_is_told_the_decision(tmp_path: Path) -> None:
    """docs/guide/seating.md: anything but the seat's own actions is a request; approve runs it, deny drops it, and
    the player's screen says which."""

    async with seated_table(tmp_path, "duel.toml", "Sofia Ramos") as (host, server):
        path = host.path
        host.submit("start")
        watcher = await Watcher(path, mode="play").start()
        await watcher.next()
        assert "requested" in await watcher.client.send("damage Guild 2")
        assert host.lines[-1] == f"request {me()} 'Sofia Ramos' damage Guild 2"
        server.publish()
        assert (await watcher.next()).requests == ("damage Guild 2",)
        assert host.submit("approve") is None
        server.publish()
        shown = await watcher.next()
        assert shown.requests == () and shown.decided == (f"approved {me()}'s request: damage Guild 2",)
        assert "requested" in await watcher.client.send("heal Sofia 1")
        assert host.submit("deny") is None
        server.publish()
        shown = await watcher.next()
        assert shown.decided[-1] == f"denied {me()}'s request: heal Sofia 1"
        reply = await watcher.client.send("spend Guild walk")  # another's character: refused, never requested
        assert "not seated for" in reply["refused"]
        await watcher.stop()


@on_loop
async def test_a_socket_a_killed_gm_left_is_waited_past_until_the_gm_opens_again(tmp_path: Path) -> None:
    """A killed GM leaves its socket file; a viewer keeps trying (not once: every moment) and connects
    when the GM's next `tracker run` replaces it."""
    import socket

    path = copy_example(tmp_path, "duel.toml")
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(str(table_path(path)))
    stale.close()  # the file stays, nobody listens: connecting is refused
    watcher = await Watcher(path).start()
    await asyncio.sleep(1.0)  # several tries, each refused, each waited past
    assert not watcher.shown
    async with table(path, {}):
        assert (await watcher.next()).view.name == "Duel on the Burning Pier"
    await watcher.stop()


@on_loop
async def test_an_accounts_play_seat_and_its_view_are_each_sent_their_own(tmp_path: Path) -> None:
    path = copy_example(tmp_path, "brawl.toml")
    async with table(path, {me(): ("Sofia Ramos",)}) as (host, server):
        host.submit("start")
        player, viewer = await player_and_viewer(path)
        host.submit("next")
        server.publish()
        seat, view = await player.next(), await viewer.next()
        assert seat.seated == ("Sofia Ramos",) and seat.own
        assert view.seated == () and view.own == ()
        await player.stop()
        await viewer.stop()


@on_loop
async def test_a_viewer_in_a_folder_it_may_not_list_still_connects_when_the_fight_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from collections.abc import AsyncIterator

    from tracker.store import watch

    async def refused(path: Path) -> AsyncIterator[None]:  # as inotify and watchfiles in a chmod 711 folder
        raise PermissionError(13, "Permission denied")
        yield

    monkeypatch.setattr(watch, "changes", refused)
    path = copy_example(tmp_path, "brawl.toml")
    watcher = await Watcher(path).start()
    await asyncio.sleep(0.1)
    async with table(path, {}):
        projection = await watcher.next()
        assert projection.view.name == "Ambush at the Docks"
    await watcher.stop()


@on_loop
async def test_a_command_sent_on_a_screen_of_the_gms_last_run_is_refused(tmp_path: Path) -> None:
    """The GM restarted between the projection a command was sent on and its arrival: the revision numbers
    start again, so the number alone could name another state; the run's name tells them apart."""
    path = copy_example(tmp_path, "duel.toml")
    async with table(path, {me(): ("Sofia Ramos",)}) as (host, _server):
        host.submit("start")
        watcher = await Watcher(path, mode="play").start()
        old = await watcher.next()
    async with table(path, {me(): ("Sofia Ramos",)}) as (host, _server):  # the fight as saved: started
        new = await watcher.next()
        assert new.table != old.table and new.acting == "Sofia Ramos"
        # As if the command left before the new run's screen came, on the same revision number as now.
        watcher.client.projection = dataclasses.replace(new, table=old.table)
        reply = await watcher.client.send("next")
        assert "restarted" in reply["refused"] and host.lines == []
        await watcher.stop()


@on_loop
async def test_a_players_command_is_sent_to_every_connection_at_once_and_only_once(tmp_path: Path) -> None:
    path = copy_example(tmp_path, "duel.toml")
    async with table(path, {me(): ("Sofia Ramos",)}) as (host, server):
        host.submit("start")
        player, viewer = await player_and_viewer(path)
        assert await player.client.send("next") == {"id": 1, "ok": True}
        seen = await viewer.next()  # no publish of the GM's: the command's own
        assert seen.revision == host.revision and seen.view.active != "Sofia Ramos"
        server.publish()  # the GM's, after its frame: this revision went out already
        await asyncio.sleep(0.1)
        assert len(viewer.shown) == 2 and len(player.shown) == 2
        await player.stop()
        await viewer.stop()
