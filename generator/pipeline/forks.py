"""Run one task per item, each in a process forked for that task alone.

A long-lived worker ends up as large as the most it ever held, and more: CPython gives memory
back to the system only in whole arenas, and a large catalog's objects are spread over many
of them, so after a few locales a worker keeps most of their pages. Forked afresh for each
task, a worker starts from the parent's pages (shared until written) and is gone when its
task is, so no process is ever larger than the parent at the fork plus one task.

``concurrent.futures`` cannot do this with the fork start method: its ``max_tasks_per_child``
refuses it, because the executor forks replacements from a thread that may hold locks. Here
the calling thread forks, and the parent runs no thread of its own while it waits.

A task runs with the cycle collector off. It lives for one task, and what it builds (a
catalog's messages, their lists and sets) holds no reference cycles to free: each
collection would only walk those objects, and the parent's, which it shares. Walking an
inherited object writes to its header, so that page is copied into the worker too.
"""

from __future__ import annotations

import gc
import multiprocessing as mp
import pickle
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class WorkerLost(RuntimeError):
    """A worker ended without an answer: killed by a signal, or out of memory."""


def available() -> bool:
    """True where processes can be forked (not on Windows)."""
    return "fork" in mp.get_all_start_methods()


def map_forked(task: Callable[[T], R], items: Sequence[T], count: int) -> list[R]:
    """``[task(item) for item in items]``, with at most ``count`` tasks running at once, each
    in a new process forked from this one; the results in the order of ``items``.

    ``task`` and whatever it reads are inherited by the fork, not pickled; each result is
    pickled back. An exception a task raises is raised here once the tasks already running
    have been stopped."""
    context = mp.get_context("fork")
    results: dict[int, R] = {}
    running: dict[Connection, tuple[int, BaseProcess]] = {}
    queue = list(enumerate(items))
    queue.reverse()  # popped from the end: in the order of items
    try:
        while queue or running:
            while queue and len(running) < count:
                index, item = queue.pop()
                reader, writer = context.Pipe(duplex=False)
                started = context.Process(target=_child, args=(task, item, writer), daemon=True)
                started.start()
                writer.close()  # the child holds its own copy; ours would hide its end
                running[reader] = (index, started)
            for ready in wait(list(running)):
                assert isinstance(ready, Connection)
                index, process = running.pop(ready)
                results[index] = _answer(ready, process)
    finally:
        for reader, (_, left) in running.items():
            left.kill()
            left.join()
            reader.close()
    return [results[index] for index in range(len(items))]


def _answer(reader: Connection, process: BaseProcess) -> Any:
    """What the task in ``process`` sent back on ``reader`` (its result, or its exception,
    raised here), once it has: both are closed and ended after."""
    try:
        answer = reader.recv_bytes()
    except EOFError:
        process.join()
        raise WorkerLost(
            f"a worker process ended before it answered (exit status "
            f"{process.exitcode}; a negative one is the signal that ended it)"
        ) from None
    finally:
        reader.close()
    process.join()
    done, value = pickle.loads(answer)
    if not done:
        raise value
    return value


class Started(Generic[R]):
    """A task running in a process forked for it alone (see :func:`start`): the caller does
    other work meanwhile, then asks for the :meth:`result`, or :meth:`stop` s it."""

    def __init__(self, reader: Connection, process: BaseProcess) -> None:
        self._reader = reader
        self._process = process
        self._open = True

    def ready(self) -> bool:
        """True when :meth:`result` would not wait (the task has answered, or ended)."""
        return not self._open or self._reader.poll()

    def result(self) -> R:
        """The task's result once it is done (its exception, raised here)."""
        if not self._open:
            raise RuntimeError("the result of a started task was asked for twice")
        self._open = False
        value: R = _answer(self._reader, self._process)
        return value

    def stop(self) -> None:
        """End the task, if it still runs, and let its process go (for a caller that no
        longer needs the result: one that failed on its own side)."""
        if self._open:
            self._open = False
            self._process.kill()
            self._process.join()
            self._reader.close()


def start(task: Callable[[T], R], item: T) -> Started[R]:
    """``task(item)`` in a new process forked from this one, running while the caller goes
    on; as in :func:`map_forked`, ``task`` and what it reads are inherited, and the result
    is pickled back."""
    context = mp.get_context("fork")
    reader, writer = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(task, item, writer), daemon=True)
    process.start()
    writer.close()  # the child holds its own copy; ours would hide its end
    return Started(reader, process)


#: What a task keeps to the end of its process (see :func:`spare`).
_SPARED: list[object] = []


def spare(value: object) -> None:
    """Keep ``value`` until this forked worker ends, for a task's last large objects (a
    catalog of tens of thousands of entries): the worker ends with ``os._exit``, so they go
    with its pages, where freeing them one object at a time on the way out would cost a
    few percent of its time. Only in a process :func:`map_forked` forked: anywhere else
    they would be kept for as long as the process lives."""
    _SPARED.append(value)


def _child(task: Callable[[T], R], item: T, writer: Connection) -> None:
    gc.disable()  # see the module's docstring
    try:
        answer = pickle.dumps((True, task(item)), pickle.HIGHEST_PROTOCOL)
    except BaseException as exc:  # the parent raises it (Ctrl-C included)
        try:
            answer = pickle.dumps((False, exc), pickle.HIGHEST_PROTOCOL)
            pickle.loads(answer)  # one that pickles but cannot be made again from it
        except Exception:  # an exception that does not pickle: its text does
            lost = WorkerLost(f"a worker process failed: {type(exc).__name__}: {exc}")
            answer = pickle.dumps((False, lost), pickle.HIGHEST_PROTOCOL)
    writer.send_bytes(answer)
    writer.close()
