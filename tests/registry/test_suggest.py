"""'Did you mean': a handful of names at most, numbered names read as numbers, never a list of
a whole registry."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.suggest import MAX_CANDIDATES, nearest, suggest

LEGACY = [f"LEGACY_ERROR_TEMP_{n}" for n in (3200, 3100, 2200, 1201, 1199, 1000)]


def test_a_numbered_name_gets_its_neighbours_in_number_first() -> None:
    assert nearest("LEGACY_ERROR_TEMP_1200", LEGACY) == [
        "LEGACY_ERROR_TEMP_1199",
        "LEGACY_ERROR_TEMP_1201",
        "LEGACY_ERROR_TEMP_1000",
    ]
    # Every number counts, not only the last; a name of another stem is only spelt alike.
    assert nearest("HTTP_404_V2", ["HTTP_404_V1", "HTTP_500_V2", "HTTPS_404_V2"], 2) == [
        "HTTP_404_V1",
        "HTTP_500_V2",
    ]


def test_names_spelt_alike_far_behind_the_best_are_left_out() -> None:
    assert nearest("DISK_FULLL", ["DISK_FULL", "DISK_FAILED", "NOT_RELATED"]) == ["DISK_FULL"]
    assert suggest("lyer", ["layer", "message"], "key") == "did you mean 'layer'?"


def test_a_hint_names_a_handful_at_most_and_never_a_whole_registry() -> None:
    codes = [f"CODE_{n}" for n in range(5_000)]
    assert len(nearest("CODE_2500X", codes)) <= MAX_CANDIDATES
    assert suggest("UNRELATED", codes, "code") == "no code has a similar name"
    # A small closed set is still listed when nothing is close.
    assert suggest("grpc", ["http", "jsonrpc"]) == "expected one of: http, jsonrpc"


def test_the_hint_depends_on_the_names_alone_not_their_order() -> None:
    names = [f"{stem}_{n}" for stem in ("TEMP", "TMP", "TEMPO") for n in range(0, 400, 7)]
    shuffled = random.Random(3).sample(names, len(names))
    for word in ("TEMP_100", "TMP_9", "TEMPO_X", "TEMP"):
        assert nearest(word, names) == nearest(word, shuffled)


def _every_ratio(word: str, choices: list[str]) -> list[str]:
    """What _alike must return, by scoring every choice (as it did before it learnt to stop
    early): the choices with a ratio of at least CUTOFF and within MARGIN of the best."""
    import difflib

    from generator.suggest import CUTOFF, MARGIN

    scored = sorted(
        (-difflib.SequenceMatcher(None, choice, word).ratio(), choice) for choice in choices
    )
    kept = [(-negative, choice) for negative, choice in scored if -negative >= CUTOFF]
    return [choice for ratio, choice in kept if ratio >= kept[0][0] - MARGIN]


_NAME = st.text(alphabet="AB_12X", min_size=1, max_size=12)


@given(word=_NAME, choices=st.lists(_NAME, max_size=40, unique=True))
@settings(max_examples=400, deadline=None)
def test_names_spelt_alike_are_those_every_ratio_gives(word: str, choices: list[str]) -> None:
    from generator.suggest import _alike

    assert _alike(word, choices) == _every_ratio(word, choices)
