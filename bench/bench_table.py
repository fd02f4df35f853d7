"""The shared table under load, measured from the outside: the GM's keypress, a player's command, the GM's memory.

One run per size (20, 100, 500 combatants, the fight of bench_engine) puts side by side, each on its own
pseudo-terminal (160×50, xterm-256color, as bench_startup):

- the bare Textual app of bench_startup (bench/bare_app.py), whose `n` rewrites one table cell;
- the GM's `tracker run` with nobody connected ("alone");
- the GM's `tracker run` of another copy of the fight ("table") with four players connected (`tracker play`
  as alice, bob, carol and dave, each seated for one of the first four characters to act, started with
  ``runuser`` so the kernel names their own accounts) and five viewers (`tracker view --player` as alice,
  bob, carol, dave and eve: each is another account than the GM's, so each is fed by the socket). Nine
  Textual processes repainting after each command is a lot for a small box: with ``--viewers clients`` the
  five viewers are five `TableClient`s in one process of eve's (each receives and validates its projection
  as a viewer's screen does, and paints nothing); with ``--viewers none`` they are left out.

It measures:

1. the GM's keypress → frame: `n` written to the GM's pty until its title names whose turn it now is, for
   the table's GM and the lone GM, and the bare app's one cell, presses taking turns (the order rotates);
   target: the table's GM ≤ 1.0× the bare app (and beside it, the lone GM's ratio);
2. a player's command → every screen: the acting player presses `n` on their own pty (their turn ends,
   `next` goes through the socket, the seat rules and the GM's submit) until the GM's pty shows the next
   actor's turn, and until each player's pty shows it ("X's turn", or "YOUR TURN: X" for the one who acts
   next); a sample is the time until the GM's and all four players' screens show it (the slowest of the
   five); the viewers' screens are timed too and reported apart; target: median ≤ 100 ms, p95 ≤ 200 ms;
3. the GM's memory: VmRSS of the table's `tracker run` (and of the lone one) after the run's commands;
   target: ≤ 80 MiB at 500 combatants;

and, in this process, where the GM's time after a command goes: `TableServer.publish` for the four players'
and five viewers' seats (their projections made and written to connections that only count the bytes),
median of 15 `next`s.

A cycle is: the four players end their turns in order (4 samples of 2), then `--presses` GM `n`s (samples of
1, interleaved with the bare app and the lone GM), then the GM undoes all of them (`u`, untimed) so that the
first player acts again. Between two timed keypresses every program is left to go quiet (its frame, and the
players' and viewers' repaints after the GM's publish): a frame is timed on an idle machine, as a GM
pressing keys seconds apart sees it.

Run as root (players and viewers run as other accounts, which must exist: alice, bob, carol, dave, eve):
    python -m bench.bench_table [--sizes 20,100,500] [--cycles 4] [--presses 5] [--viewers processes|clients|none]
"""

from __future__ import annotations

import argparse
import functools
import os
import pwd
import select
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench.bench_engine import encounter_text
from bench.bench_startup import BARE, Pty, environment
from tracker.table.address import table_path

PLAYERS = ("alice", "bob", "carol", "dave")
VIEWERS = ("alice", "bob", "carol", "dave", "eve")
MAIN = 'import sys; from tracker.cli import main; sys.exit(getattr(main, "main", main)())'
RUNUSER = "/usr/sbin/runuser"
#: How long every program must be quiet before the next keypress.
QUIET = 0.2


def tracker_argv(*args: str) -> list[str]:
    return [sys.executable, "-c", MAIN, *args]


def as_account(account: str, argv: list[str]) -> list[str]:
    """`argv` run as `account` (the kernel then names that account on the table's socket)."""
    return [RUNUSER, "-u", account, "--", *argv]


def fight(n: int) -> tuple[str, list[str]]:
    """The fight's text for n combatants with the first four to act seated for the four players, started
    (the GM's file as `tracker run` saves it), and who acts at each of the first turns from there."""
    from tracker.families.session import Session
    from tracker.store import files, save

    probe = Session(files.parse_text(encounter_text(n), "<bench>"))
    probe.execute("start")
    order = [probe.rules.state.active]
    for _ in range(3):
        probe.execute("next")
        order.append(probe.rules.state.active)
    seats = "".join(f'{account} = "{name}"\n' for account, name in zip(PLAYERS, order, strict=True))
    session = save.session_from_text(encounter_text(n) + "\n[seats]\n" + seats, "<bench>")
    session.execute("start")
    text = save.encounter_text(session)
    replay = save.session_from_text(text, "<bench>")
    names: list[str] = [str(replay.rules.state.active)]
    for _ in range(200):
        replay.execute("next")
        names.append(str(replay.rules.state.active))
    return text, names


def quiet(programs: Sequence[Pty], seconds: float = QUIET, limit: float = 30.0) -> None:
    """Drain every program's output until all of them have been quiet for `seconds`; then clear it."""
    fds = {p.fd: p for p in programs}
    deadline = time.perf_counter() + limit
    while time.perf_counter() < deadline:
        ready, _, _ = select.select(list(fds), [], [], seconds)
        if not ready:
            break
        for fd in ready:
            fds[fd].read(0)
    for p in programs:
        p.clear()


def shown(wants: dict[Pty, str], timeout: float = 30.0) -> dict[Pty, float]:
    """perf_counter time at which each program's output (since its last clear) showed its marker."""
    fds = {p.fd: p for p in wants}
    when: dict[Pty, float] = {}
    deadline = time.perf_counter() + timeout
    while len(when) < len(wants) and time.perf_counter() < deadline:
        ready, _, _ = select.select([fd for fd, p in fds.items() if p not in when], [], [], 0.5)
        for fd in ready:
            p = fds[fd]
            if p.read(0) and wants[p] in p.text():
                when[p] = time.perf_counter()
    missing = [(wants[p], p.text()[-300:]) for p in wants if p not in when]
    if missing:
        raise SystemExit(f"timed out waiting for {missing!r}")
    return when


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def player_marker(account: str, seats: dict[str, str], name: str) -> str:
    return f"YOUR TURN: {name}" if seats.get(account) == name else f"{name}'s turn"


def watch(path: str, count: int) -> None:
    """`count` viewers' connections in this one process (``--viewers clients``): says "N viewers: X's turn"
    each time all of them have received the projection of a new revision."""
    import asyncio

    from tracker.table.client import TableClient
    from tracker.table.projection import Projection

    async def follow() -> None:
        seen: dict[int, int] = {}

        def shown(i: int, projection: Projection) -> None:
            seen[i] = projection.revision
            if len(seen) == count and len(set(seen.values())) == 1:
                print(f"{count} viewers: {projection.view.active}'s turn (revision {projection.revision})", flush=True)

        def quiet_about(_: str) -> None:
            pass

        clients = [
            TableClient(Path(path), mode="view", as_name=None, shown=functools.partial(shown, i), said=quiet_about)
            for i in range(count)
        ]
        await asyncio.gather(*(client.run() for client in clients))

    asyncio.run(follow())


def publish_cost(n: int, commands: int = 15) -> tuple[float, int]:
    """Median seconds of one `TableServer.publish` to the nine seats of the pty run, and a line's bytes."""
    from tracker.store import save
    from tracker.table.seats import RulesSeating
    from tracker.table.server import Seat, TableServer

    class Host:
        def __init__(self, text: str) -> None:
            self.session = save.session_from_text(text, "<bench>")
            self.revision = 0

        def submit(self, line: str) -> str | None:
            self.session.execute(line)
            self.revision += 1
            return None

        def table_changed(self) -> None:
            pass

    class Transport:
        def is_closing(self) -> bool:
            return False

        def get_write_buffer_size(self) -> int:
            return 0

    class Counter:
        """A connection's writer that keeps only the count of bytes written to it."""

        transport = Transport()

        def __init__(self) -> None:
            self.written = 0

        def write(self, data: bytes) -> None:
            self.written += len(data)

    host = Host(fight(n)[0])
    server = TableServer(Path("bench.toml"), host, RulesSeating())
    writers = [Counter() for _ in (*PLAYERS, *VIEWERS)]
    modes = ["play"] * len(PLAYERS) + ["view"] * len(VIEWERS)
    for account, writer, mode in zip((*PLAYERS, *VIEWERS), writers, modes, strict=True):
        server.seats.append(Seat(account, writer, mode=mode))  # type: ignore[arg-type]
    times = []
    for _ in range(commands):
        host.submit("next")
        t0 = time.perf_counter()
        server.publish()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), writers[0].written // commands


def run_size(n: int, cycles: int, presses: int, viewers: str, folder: Path) -> dict[str, object]:
    """One size: the figures of the three targets."""
    text, names = fight(n)
    seats = dict(zip(PLAYERS, names[:4], strict=True))
    owner_env = environment(folder) | {"TRACKER_CACHE_DIR": str(folder / "cache")}
    table_file, alone_file = folder / f"table{n}.toml", folder / f"alone{n}.toml"
    for path in (table_file, alone_file):
        path.write_text(text, encoding="utf-8")
        path.chmod(0o600)
    bare = Pty([sys.executable, str(BARE), str(n)], owner_env)
    alone = Pty(tracker_argv("run", str(alone_file)), owner_env)
    gm = Pty(tracker_argv("run", str(table_file)), owner_env)
    everyone = [bare, alone, gm]
    players: dict[str, Pty] = {}
    watchers: list[Pty] = []
    try:
        bare.wait_for(("Bare brawl",), 60)
        alone.wait_for((f"{names[0]}'s turn",), 60)
        gm.wait_for((f"{names[0]}'s turn",), 60)
        socket = table_path(table_file)  # opened after the GM's first frame
        deadline = time.perf_counter() + 60
        while not socket.exists() and time.perf_counter() < deadline:
            time.sleep(0.05)
        for account in PLAYERS:
            players[account] = Pty(
                as_account(account, tracker_argv("play", str(table_file))), user_env(folder, account)
            )
        said = ""  # what a viewer says before "X's turn"
        if viewers == "clients":
            argv = as_account("eve", [sys.executable, "-m", "bench.bench_table", "--watch", str(table_file)])
            watchers.append(Pty(argv, user_env(folder, "eve")))
            said = f"{len(VIEWERS)} viewers: "
        elif viewers == "processes":
            for account in VIEWERS:
                argv = as_account(account, tracker_argv("view", "--player", str(table_file)))
                watchers.append(Pty(argv, user_env(folder, account)))
        everyone += [*players.values(), *watchers]
        shown(
            {p: player_marker(a, seats, names[0]) for a, p in players.items()}
            | dict.fromkeys(watchers, f"{said}{names[0]}'s turn"),
            120,
        )
        quiet(everyone, 1.0)
        gm_times: dict[str, list[float]] = {"bare": [], "alone": [], "table": []}
        alone_at = 0
        command: list[float] = []
        per_screen: dict[str, list[float]] = {"GM": [], "players": [], "viewers": []}
        for cycle in range(cycles):
            # 2: each player ends their turn from their own terminal.
            for k, account in enumerate(PLAYERS):
                nxt = names[k + 1]
                t0 = players[account].press(b"n")
                wants = {gm: f"{nxt}'s turn"} | {p: player_marker(a, seats, nxt) for a, p in players.items()}
                wants |= dict.fromkeys(watchers, f"{said}{nxt}'s turn")
                when = shown(wants)
                command.append(max(when[p] for p in (gm, *players.values())) - t0)
                per_screen["GM"].append(when[gm] - t0)
                per_screen["players"] += [when[p] - t0 for p in players.values()]
                per_screen["viewers"] += [when[p] - t0 for p in watchers]
                quiet(everyone)
            # 1: the GM's own keypresses, taking turns with the bare app and the lone GM.
            for i in range(presses):
                racers = [("bare", bare), ("alone", alone), ("table", gm)]
                shift = (cycle * presses + i) % 3
                for label, program in racers[shift:] + racers[:shift]:
                    if label == "bare":
                        want = f"tick {len(gm_times['bare']) + 1}"
                    elif label == "alone":
                        alone_at += 1
                        want = f"{names[alone_at]}'s turn"
                    else:
                        want = f"{names[4 + i + 1]}'s turn"
                    t0 = program.press(b"n")
                    gm_times[label].append(shown({program: want})[program] - t0)
                    quiet(everyone)
            # Back to the first player's turn (untimed).
            for i in range(presses + 4):
                gm.press(b"u")
                shown({gm: f"{names[4 + presses - 1 - i]}'s turn"})
                quiet(everyone)
        quiet(everyone, 1.0)
        return {
            "keypress": {label: statistics.median(values) for label, values in gm_times.items()},
            "command": command,
            "per_screen": per_screen,
            "rss": {"table": rss_kib(gm.pid), "alone": rss_kib(alone.pid)},
        }
    finally:
        for program in reversed(everyone):
            program.close()


def user_env(folder: Path, account: str) -> dict[str, str]:
    """A terminal like the owner's, with the account's own (writable) configuration and cache folders."""
    home = folder / "home" / account
    home.mkdir(parents=True, exist_ok=True)
    info = pwd.getpwnam(account)
    os.chown(home, info.pw_uid, info.pw_gid)
    return environment(home) | {"TRACKER_CACHE_DIR": str(home / "cache"), "HOME": str(home)}


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:6.0f} {p95(values) * 1000:6.0f}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_table")
    parser.add_argument("--sizes", default="20,100,500", help="combatants")
    parser.add_argument("--cycles", type=int, default=4, help="cycles per size (4 player commands each)")
    parser.add_argument("--presses", type=int, default=5, help="GM keypresses per cycle (of each racer)")
    parser.add_argument("--viewers", choices=("processes", "clients", "none"), default="processes")
    parser.add_argument("--watch", help=argparse.SUPPRESS)  # the process of ``--viewers clients``
    args = parser.parse_args(argv)
    if args.watch:
        watch(args.watch, len(VIEWERS))
        return
    if os.geteuid() != 0:
        raise SystemExit("run as root: the players and viewers are started as other accounts")
    results: dict[int, dict[str, object]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-table-") as tmp:
        folder = Path(tmp)
        folder.chmod(0o711)  # players reach the socket; no one else writes here
        for n in [int(x) for x in args.sizes.split(",") if x]:
            cost, size = publish_cost(n)
            what = f"the GM's publish to 4 players + 5 viewers {cost * 1000:.1f} ms ({size // 1024} kB a line)"
            print(f"\n{n} combatants: {what}")
            results[n] = run_size(n, args.cycles, args.presses, args.viewers, folder)
            print_size(n, results[n], args)


def print_size(n: int, r: dict[str, object], args: argparse.Namespace) -> None:
    keys = r["keypress"]
    assert isinstance(keys, dict)
    bare, alone, table = keys["bare"], keys["alone"], keys["table"]
    command = r["command"]
    per = r["per_screen"]
    rss = r["rss"]
    assert isinstance(command, list) and isinstance(per, dict) and isinstance(rss, dict)
    viewers = {
        "processes": "5 viewers (processes)",
        "clients": "5 viewers (TableClients in one process)",
        "none": "no viewers",
    }[args.viewers]
    print(f"{n} combatants, 4 players (processes) + {viewers}", flush=True)
    print(
        f"  1. GM n → frame (median of {args.cycles * args.presses}): bare {bare * 1000:.0f} ms, "
        f"GM alone {alone * 1000:.0f} ms ({alone / bare:.2f}×), GM with the table {table * 1000:.0f} ms "
        f"({table / bare:.2f}×)   target ≤ 1.0× → {'met' if table <= bare else 'missed'}"
    )
    med, high = statistics.median(command), p95(command)
    ok = med <= 0.100 and high <= 0.200
    print(
        f"  2. player n → GM + all players shown ({len(command)} commands): median {med * 1000:.0f} ms, "
        f"p95 {high * 1000:.0f} ms   target ≤ 100 / ≤ 200 → {'met' if ok else 'missed'}"
    )
    for label, values in per.items():
        if values:
            print(f"     {label:8} median p95 (ms): {ms(values)}")
    table_mib, alone_mib = rss["table"] / 1024, rss["alone"] / 1024
    print(
        f"  3. GM RSS: with the table {table_mib:.1f} MiB, alone {alone_mib:.1f} MiB   "
        f"target ≤ 80 MiB → {'met' if table_mib <= 80 else 'missed'}",
        flush=True,
    )


if __name__ == "__main__":
    main()
