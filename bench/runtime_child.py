"""message() of a generated package against stdlib gettext, per call, in this interpreter.

bench/run.py runs this file under each Python the package supports (bench/pythons.py), with
``-I -S``: the package needs the standard library alone, and so does this file (Python
3.10's syntax). Its one argument is a JSON object:

- ``folder`` and ``package``: where the generated package is, and its name;
- ``locale`` and ``mo``: the locale measured, and its catalog (the package's own MO file);
- ``plain``: ``code``, ``message`` (the source text) and ``params`` of a code without a count;
- ``plural``: ``code``, ``one`` and ``other`` (the source forms), ``count`` and ``params``
  (the count among them) of a code with one.

It prints a JSON object: each side's CPU time per call in seconds (``message_plain`` and
``stdlib_plain``, ``message_plural`` and ``stdlib_plural``, ``translator_plain`` and
``translator_plural`` for ``Translator.message``), ``enum_build`` (the CPU time of the first
use of ``ErrorCode``, which builds the enum of every code: once, after the rest), ``python``
(this interpreter's version) and ``notes`` (a text that differs between the two sides, which
would make the times meaningless).
"""

from __future__ import annotations

import gettext
import importlib
import json
import platform
import statistics
import sys
import time
import timeit
from collections.abc import Callable
from typing import Any


def per_call(call: Callable[[], object]) -> float:
    """The CPU time of one call: the median of 5 repetitions of as many calls as take
    0.2 s (timeit's autorange)."""
    timer = timeit.Timer(call, timer=time.process_time)
    number, _ = timer.autorange()
    return statistics.median(timer.repeat(repeat=5, number=number)) / number


def per_call_side_by_side(
    mine: Callable[[], object], theirs: Callable[[], object], rounds: int = 7
) -> tuple[float, float]:
    """Each call's CPU time, measured in turns (theirs, mine, theirs, ...) so that a change
    in the machine's speed during the run reaches both sides alike; the median of each."""
    timers = [timeit.Timer(call, timer=time.process_time) for call in (mine, theirs)]
    number = max(timer.autorange()[0] for timer in timers)
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(rounds):
        for side in (1, 0):
            times[side].append(timers[side].timeit(number) / number)
    return statistics.median(times[0]), statistics.median(times[1])


def measure(job: dict[str, Any]) -> dict[str, object]:
    sys.path.insert(0, job["folder"])
    module: Any = importlib.import_module(job["package"])
    with open(job["mo"], "rb") as stream:
        stdlib = gettext.GNUTranslations(stream)
    locale = job["locale"]
    translator = module.Translator(locale)
    # Plain names, not look-ups in the job, inside the calls timed: those would add the same
    # cost to both sides and bring their ratio closer to 1.
    plain, message, params = job["plain"]["code"], job["plain"]["message"], job["plain"]["params"]
    plural, one, other = job["plural"]["code"], job["plural"]["one"], job["plural"]["other"]
    count, counted = job["plural"]["count"], job["plural"]["params"]

    def std_plain() -> str:
        return stdlib.pgettext(plain, message).format(**params)

    def std_plural() -> str:
        return stdlib.npgettext(plural, one, other, count).format(**counted)

    def eb_plain() -> object:
        return module.message(plain, locale, **params)

    def eb_plural() -> object:
        return module.message(plural, locale, **counted)

    notes = [
        f"the {what} texts differ: {mine()!r} vs {theirs()!r}"
        for mine, theirs, what in (
            (eb_plain, std_plain, "plain"),
            (eb_plural, std_plural, "plural"),
        )
        if str(mine()) != theirs()
    ]
    found: dict[str, object] = {"python": platform.python_version(), "notes": notes}
    found["message_plain"], found["stdlib_plain"] = per_call_side_by_side(eb_plain, std_plain)
    found["translator_plain"] = per_call(lambda: translator.message(plain, **params))
    found["message_plural"], found["stdlib_plural"] = per_call_side_by_side(eb_plural, std_plural)
    found["translator_plural"] = per_call(lambda: translator.message(plural, **counted))
    start = time.process_time()
    module.ErrorCode  # noqa: B018 - built on first access (PEP 562)
    found["enum_build"] = time.process_time() - start
    return found


if __name__ == "__main__":
    print(json.dumps(measure(json.loads(sys.argv[1]))))
