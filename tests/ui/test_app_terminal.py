"""A tracker whose terminal is gone quits (a player's program left behind by a closed session)."""

from __future__ import annotations

import os

from tracker.ui.hangup import hung_up


def test_a_terminal_whose_other_end_closed_has_hung_up() -> None:
    master, slave = os.openpty()
    try:
        assert not hung_up(slave)  # the terminal is there: nothing to read, nothing wrong
        os.close(master)
        assert hung_up(slave)  # the session closed it
    finally:
        os.close(slave)


def test_a_pipe_whose_writer_closed_has_hung_up() -> None:
    read, write = os.pipe()
    try:
        assert not hung_up(read)
        os.close(write)
        assert hung_up(read)  # a served tab whose server went away
    finally:
        os.close(read)
