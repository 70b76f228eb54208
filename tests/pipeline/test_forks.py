"""Workers forked per task: results in order, failures told, nothing carried over."""

from __future__ import annotations

import gc
import os
import signal

import pytest

from generator.pipeline import forks

pytestmark = pytest.mark.skipif(not forks.available(), reason="needs the fork start method")

HELD: list[bytes] = []  # what a task leaves behind in its process


def _pid_and_leftovers(item: int) -> tuple[int, int, int]:
    """The task's own process, what earlier tasks left in it, and its item."""
    found = len(HELD)
    HELD.append(b"x" * 1_000_000)  # a task that keeps what it read, as a catalog's pages are
    return os.getpid(), found, item


def test_each_task_runs_in_a_process_of_its_own() -> None:
    answers = forks.map_forked(_pid_and_leftovers, list(range(7)), 2)
    assert [item for _, _, item in answers] == list(range(7))  # in the order of the items
    pids = {pid for pid, _, _ in answers}
    assert len(pids) == 7 and os.getpid() not in pids
    # Nothing an earlier task held is in the next one's process: it starts as the parent is.
    assert [found for _, found, _ in answers] == [0] * 7
    assert HELD == []


def _collector_on(_: int) -> bool:
    return gc.isenabled()


def test_a_task_runs_without_the_cycle_collector_and_the_parent_keeps_it() -> None:
    assert gc.isenabled()
    assert forks.map_forked(_collector_on, [1, 2], 2) == [False, False]
    assert gc.isenabled()


def _fails_on_three(item: int) -> int:
    if item == 3:
        raise ValueError(f"item {item} is bad")
    return item * 2


def test_a_task_s_exception_is_raised_in_the_parent() -> None:
    assert forks.map_forked(_fails_on_three, [0, 1, 2], 2) == [0, 2, 4]
    with pytest.raises(ValueError, match="item 3 is bad"):
        forks.map_forked(_fails_on_three, [0, 1, 2, 3, 4, 5], 2)


class Unpicklable(Exception):
    def __reduce__(self) -> str | tuple[object, ...]:
        raise TypeError("cannot pickle this")


def _raises_unpicklable(item: int) -> int:
    raise Unpicklable(f"odd failure {item}")


class TwoArguments(Exception):
    def __init__(self, what: str, where: int) -> None:
        super().__init__(f"{what} at {where}")  # pickles, but TwoArguments(text) fails


def _raises_one_way(item: int) -> int:
    raise TwoArguments("one-way failure", item)


def test_an_exception_that_does_not_pickle_is_told_by_its_text() -> None:
    with pytest.raises(forks.WorkerLost, match="Unpicklable: odd failure 0"):
        forks.map_forked(_raises_unpicklable, [0], 1)
    with pytest.raises(forks.WorkerLost, match="TwoArguments: one-way failure at 4"):
        forks.map_forked(_raises_one_way, [4], 1)


def _killed(item: int) -> int:
    if item == 1:
        os.kill(os.getpid(), signal.SIGKILL)  # as the kernel's out-of-memory killer does
    return item


def test_a_worker_killed_without_answering_is_an_error_not_a_hang() -> None:
    with pytest.raises(forks.WorkerLost, match=r"exit status -9"):
        forks.map_forked(_killed, [0, 1, 2, 3], 2)
    assert forks.map_forked(_killed, [0, 2], 2) == [0, 2]  # the pool itself is unharmed


def test_no_items_no_processes() -> None:
    assert forks.map_forked(_pid_and_leftovers, [], 2) == []


def _sleeps(seconds: float) -> int:
    import time

    time.sleep(seconds)
    return os.getpid()


def test_a_started_task_runs_while_the_caller_goes_on() -> None:
    started = forks.start(_pid_and_leftovers, 5)
    HELD.append(b"the caller's")  # the caller's own work, after the fork: not the task's
    try:
        pid, found, item = started.result()
    finally:
        HELD.clear()
    assert (found, item) == (0, 5) and pid != os.getpid()
    with pytest.raises(RuntimeError, match="twice"):
        started.result()
    with pytest.raises(ValueError, match="item 3 is bad"):
        forks.start(_fails_on_three, 3).result()
    with pytest.raises(forks.WorkerLost, match=r"exit status -9"):
        forks.start(_killed, 1).result()


def test_a_started_task_the_caller_no_longer_needs_is_stopped() -> None:
    import time

    started = forks.start(_sleeps, 60.0)
    begun = time.monotonic()
    started.stop()
    started.stop()  # a second stop is nothing
    assert time.monotonic() - begun < 30  # killed, not waited for
    assert not started._process.is_alive()
    with pytest.raises(RuntimeError, match="twice"):
        started.result()
