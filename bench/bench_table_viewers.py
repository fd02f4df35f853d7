"""Shared-table benchmark: the GM's accepted command → five players' programs, over the table's socket.

The GM's process is this one: a `TableServer` on its own event loop in front of a session, as `tracker run`
holds them. Each write is one accepted command: the clock starts before it is applied, then it is saved
durably (temporary file, fsync, rename) and published; the latency is until each of five players' programs
has it. Two kinds of players' programs are measured, each five at a time:

- ``decoded``: a `TableClient` per process that notes (``time.monotonic``, one clock for every process on
  the machine) when it has decoded and validated the projection;
- ``repainted``: ``tracker view FILE --player`` in a pseudo-terminal (120×40, xterm-256color), until its
  terminal receives the repaint that shows the new turn, as `bench.bench_viewer` measures.

They run as another account (``--account``, default alice) when this runs as root and that account can start
this interpreter, as players do (the encounter is the GM's, mode 0600, so they must go through the socket);
otherwise as this account, said in the output. Alternating with them in the same run, as the "before": five
file-following ``tracker view FILE`` of `bench.bench_viewer` (write → repaint, its clock starting at the
rename), so both share the machine's load.

Run: python -m bench.bench_table_viewers [--rounds N] [--writes N] [--account NAME]
(unset PYTHONDONTWRITEBYTECODE first: players' programs start from cached bytecode, as users run them)
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import os
import pwd
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Callable
from pathlib import Path

from bench.bench_viewer import COLUMNS, LINES, TIMEOUT, Viewer, machine, marker, p95
from bench.bench_viewer import run as run_file_viewers
from tracker.families.seating import Verdict
from tracker.families.session import Session
from tracker.store import files
from tracker.store.save import encounter_text, load_session
from tracker.table.server import TableServer

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = 5
#: Between two commands: a GM's commands are seconds apart; this keeps each projection its own.
GAP = 0.15

#: A player's program that only decodes: it prints each projection's revision and when it was decoded.
DECODER = """
import asyncio, sys, time
from pathlib import Path
from tracker.table.client import TableClient

def shown(projection):
    sys.stdout.write(f"{projection.revision} {time.monotonic()}\\n")
    sys.stdout.flush()

client = TableClient(Path(sys.argv[1]), mode="view", as_name=None, shown=shown, said=lambda _text: None)
asyncio.run(client.run())
"""


class Gm:
    """The GM's process as the table sees it: the session, its revision, and a durable `submit`."""

    def __init__(self, path: Path, session: Session) -> None:
        self.path = path
        self.session = session
        self.revision = 0
        self.saves: list[float] = []

    def submit(self, line: str) -> str | None:
        start = time.monotonic()
        self.session.execute(line)
        files.write_text(self.path, encounter_text(self.session))
        self.revision += 1
        self.saves.append(time.monotonic() - start)
        return None

    def table_changed(self) -> None:
        pass


class Watching:
    """Every account may watch; no one has a seat (the benchmark sends no player's command)."""

    def seats_of(self, session: Session) -> dict[str, tuple[str, ...]]:
        return {}

    def judge(self, session: Session, account: str, as_name: str | None, line: str) -> Verdict:
        return Verdict("refuse", "", "a benchmark table")

    def question_for(self, session: Session, characters: tuple[str, ...]) -> str | None:
        return None


def player_account(name: str) -> str | None:
    """`name` when players' programs can run as it here (root, the account exists and can start this
    interpreter), else None: they run as this account."""
    if os.geteuid() != 0 or shutil.which("runuser") is None:
        return None
    try:
        pwd.getpwnam(name)
    except KeyError:
        return None
    done = subprocess.run(["runuser", "-u", name, "--", sys.executable, "-c", "import tracker"], cwd=ROOT)
    return name if done.returncode == 0 else None


def player_command(account: str | None, *args: str) -> tuple[list[str], dict[str, str]]:
    """The command line and environment of a player's program (as `account` when one is given)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "TRACKER_CONFIG_DIR")}
    env |= {"PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "COLORTERM": "truecolor"}
    if account is None:
        return [sys.executable, *args], env
    env["HOME"] = pwd.getpwnam(account).pw_dir
    return ["runuser", "-u", account, "--", sys.executable, *args], env


def prepare(folder: Path) -> tuple[Path, Session]:
    """The duel, started, saved as the GM's (0600) in `folder`."""
    path = folder / "duel.toml"
    files.write_text(path, (ROOT / "examples" / "duel.toml").read_text())
    session = load_session(path, seed=7)
    session.execute("initiative Sofia 9")
    session.execute("start")
    files.write_text(path, encounter_text(session))
    return path, session


async def decoded(folder: Path, writes: int, account: str | None) -> tuple[list[float], int, list[float]]:
    """Latencies of `writes` commands until each of five decoding players has them; lost ones; save times."""
    path, session = prepare(folder)
    gm = Gm(path, session)
    server = TableServer(path, gm, Watching())
    problem = await server.open()
    assert problem is None, problem
    argv, env = player_command(account, "-c", DECODER, str(path))
    procs = [
        await asyncio.create_subprocess_exec(
            *argv, cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL
        )
        for _ in range(PLAYERS)
    ]
    try:

        async def seen(proc: asyncio.subprocess.Process, revision: int) -> float:
            assert proc.stdout is not None
            while True:
                got, stamp = (await proc.stdout.readline()).split()
                if int(got) >= revision:
                    return float(stamp)

        await asyncio.wait_for(asyncio.gather(*(seen(p, 0) for p in procs)), 60)
        await asyncio.sleep(1.0)  # let start-up work settle
        latencies: list[float] = []
        lost = 0
        for _ in range(writes):
            start = time.monotonic()
            gm.submit("next")
            server.publish()
            waits = [asyncio.wait_for(seen(p, gm.revision), TIMEOUT) for p in procs]
            for result in await asyncio.gather(*waits, return_exceptions=True):
                if isinstance(result, float):
                    latencies.append(result - start)
                else:
                    lost += 1
            await asyncio.sleep(GAP)
        return latencies, lost, gm.saves
    finally:
        for proc in procs:
            await stop(proc)
        await server.close()


async def repainted(folder: Path, writes: int, account: str | None) -> tuple[list[float], int]:
    """Latencies of `writes` commands until each of five ``tracker view --player`` terminals shows them."""
    path, session = prepare(folder)
    gm = Gm(path, session)
    server = TableServer(path, gm, Watching())
    problem = await server.open()
    assert problem is None, problem
    argv, env = player_command(account, "-m", "tracker", "view", str(path), "--player")
    loop = asyncio.get_running_loop()
    viewers: list[Viewer] = []
    waiting: dict[int, tuple[str, asyncio.Future[float]]] = {}

    def readable(v: Viewer) -> Callable[[], None]:
        def read() -> None:
            try:
                data = os.read(v.master, 1 << 16)
            except (BlockingIOError, OSError):
                return
            stamp = time.monotonic()
            v.take(data)
            want = waiting.get(id(v))
            if want is not None and not want[1].done() and v.shows(want[0]):
                want[1].set_result(stamp)

        return read

    async def shown(want: str, timeout: float) -> list[float | BaseException]:
        for v in viewers:
            v.seen = ""
            waiting[id(v)] = (want, loop.create_future())
        futures = [asyncio.wait_for(waiting[id(v)][1], timeout) for v in viewers]
        return await asyncio.gather(*futures, return_exceptions=True)

    for _ in range(PLAYERS):
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
        proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, cwd=folder, env=env, start_new_session=True
        )
        os.close(slave)
        os.set_blocking(master, False)
        viewer = Viewer(proc, master)
        viewers.append(viewer)
        loop.add_reader(master, readable(viewer))
    try:
        first = await shown(marker(session), 60)
        if not all(isinstance(x, float) for x in first):
            raise SystemExit(f"players' views did not start: {viewers[0].seen[-500:]!r}")
        await asyncio.sleep(1.0)
        latencies: list[float] = []
        lost = 0
        for _ in range(writes):
            start = time.monotonic()
            gm.submit("next")
            server.publish()
            for result in await shown(marker(gm.session), TIMEOUT):
                if isinstance(result, float):
                    latencies.append(result - start)
                else:
                    lost += 1
            await asyncio.sleep(GAP)
        return latencies, lost
    finally:
        for v in viewers:
            loop.remove_reader(v.master)
            v.proc.terminate()  # runuser passes it on; a SIGKILL would leave the player's program running
            try:
                v.proc.wait(5)
            except subprocess.TimeoutExpired:
                v.proc.kill()
                v.proc.wait()
            os.close(v.master)
        await server.close()


async def stop(proc: asyncio.subprocess.Process) -> None:
    """End a player's program: SIGTERM, which runuser passes on (a SIGKILL would leave its child running)."""
    proc.terminate()
    try:
        await asyncio.wait_for(proc.wait(), 5)
    except TimeoutError:
        proc.kill()
        await proc.wait()


def shared_folder(parent: Path, name: str) -> Path:
    """A folder players may enter (0755), as the GM's campaign folder is."""
    folder = parent / name
    folder.mkdir()
    folder.chmod(0o755)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    parser.add_argument("--writes", type=int, default=20, help="commands per round and setting (default 20)")
    parser.add_argument("--account", default="alice", help="the players' account, when running as root")
    args = parser.parse_args()
    account = player_account(args.account)
    who = f"as {account}" if account else "as this account (no other account could start this interpreter)"
    print(f"GM's command → five players' programs ({who}); {machine()}")
    results: dict[str, list[float]] = {"file": [], "decoded": [], "repainted": []}
    lost = dict.fromkeys(results, 0)
    saves: list[float] = []
    os.umask(0o022)
    top = Path(tempfile.mkdtemp(prefix="bench-table-", dir="/tmp"))
    top.chmod(0o755)
    try:
        for r in range(args.rounds):
            got, missed = run_file_viewers(ROOT, PLAYERS, shared_folder(top, f"file-{r}"), args.writes)
            results["file"] += got
            lost["file"] += missed
            times, missed, save = asyncio.run(decoded(shared_folder(top, f"decoded-{r}"), args.writes, account))
            results["decoded"] += times
            lost["decoded"] += missed
            saves += save
            times, missed = asyncio.run(repainted(shared_folder(top, f"repainted-{r}"), args.writes, account))
            results["repainted"] += times
            lost["repainted"] += missed
    finally:
        shutil.rmtree(top, ignore_errors=True)
    labels = {
        "file": "before: 5 × tracker view FILE, rename → repaint",
        "decoded": "table: 5 × TableClient, command → decoded",
        "repainted": "table: 5 × tracker view --player, command → repaint",
    }
    print(f"\n{'':54} {'median':>8} {'p95':>8} {'n':>5}   (ms; target ≤ 100)")
    for kind, label in labels.items():
        xs = results[kind]
        cells = f"{statistics.median(xs) * 1000:8.1f} {p95(xs) * 1000:8.1f}" if xs else f"{'-':>8} {'-':>8}"
        note = f"   ({lost[kind]} not seen within {TIMEOUT:.0f} s)" if lost[kind] else ""
        print(f"{label:54} {cells} {len(xs):5}{note}")
    if saves:
        print(f"the GM's apply + durable save alone: median {statistics.median(saves) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
