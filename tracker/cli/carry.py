"""`tracker carry ENCOUNTER`: the party's lasting state written back into its party file."""

from __future__ import annotations


def cmd_carry(path: str) -> int:
    """`tracker carry ENCOUNTER`: the party's lasting state back into the party file (docs/reference/cli.md)."""
    from tracker.store.campaign.carry import carry

    report = carry(path)
    for line in report.lines:
        print(line)
    print(f"wrote {report.party}" if report.written else f"{report.party} already says so: nothing written")
    return 0
