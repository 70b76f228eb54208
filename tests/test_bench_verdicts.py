"""The benchmark's verdict on the full generation against the GNU chain."""
# ruff: noqa: RUF001, RUF002  (the report writes ratios with the multiplication sign)

from __future__ import annotations

import importlib
import sys
from typing import Any

import pytest

from .conftest import ROOT

# bench/run.py is a script that imports its neighbour synth.py as a top-level module.
sys.path.insert(0, str(ROOT / "bench"))
run: Any = importlib.import_module("run")
synth: Any = importlib.import_module("synth")


def _result(full: list[float], gnu: list[float], pairs: list[tuple[float, float]]) -> Any:
    result = run.SizeResult(synth.Size(1000, 10))
    result.full.times, result.gnu.times, result.pairs = full, gnu, pairs
    return result


def _speed(result: Any) -> Any:
    return next(t for t in run.speed_targets(result) if "msgmerge + msgfmt" in t.text)


def test_the_full_generation_is_judged_on_the_side_by_side_pairs() -> None:
    """Steps measured apart give 0.55×; the pairs, each on one host state, 0.48×: the pairs
    decide, and both figures are shown."""
    pairs = [(2.4, 5.0), (2.0, 4.2), (2.5, 5.1), (2.3, 4.7)]
    target = _speed(_result([2.2, 2.2, 2.2], [4.0, 4.0, 4.0], pairs))
    assert target.met is True
    assert target.measured.startswith("side by side in turns, 0.485× (median of 4 pairs: ")
    assert "(0.55×)" in target.measured
    slower = _result([2.2], [4.0], [(2.6, 5.0), (2.2, 4.2), (2.7, 5.1), (2.5, 4.7)])
    assert _speed(slower).met is False


@pytest.mark.parametrize(("full", "met"), [(1.9, True), (2.1, False)])
def test_without_pairs_the_medians_of_the_steps_decide(full: float, met: bool) -> None:
    assert _speed(_result([full], [4.0], [])).met is met


def test_a_median_just_above_the_target_does_not_show_as_the_target() -> None:
    """Two places would round 0.504 to 0.50 beside a verdict of not met."""
    pairs = [(2.52, 5.0), (2.52, 5.0), (2.52, 5.0), (2.52, 5.0)]
    target = _speed(_result([2.52], [5.0], pairs))
    assert target.met is False
    assert "0.504×" in target.measured
    assert "0.50×" not in target.measured.split(";")[0]
