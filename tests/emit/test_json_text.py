"""The data files' JSON is written by errorbook's own walk of the value (render.json_pretty),
not by the standard library's encoder, which with an indent encodes in Python: the text must
be the standard library's, byte for byte, whatever the value, and where the walk does not
write a value (NaN, an object JSON has no text for, a value that holds itself) the standard
library writes or refuses it as it always did."""

from __future__ import annotations

import enum
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.emit.render import json_pretty

from ..conftest import make_project


class Colour(enum.Enum):
    RED = "red"


class Word(enum.StrEnum):
    LAYER = "layer"


class Number(enum.IntEnum):
    ONE = 1


def standard(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
    | st.sampled_from([Word.LAYER, Number.ONE])
)
keys = st.text() | st.integers() | st.booleans() | st.none() | st.floats() | st.just(Word.LAYER)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(keys, inner, max_size=4)
    ),
    max_leaves=25,
)


@settings(max_examples=500, deadline=None)
@given(values)
def test_the_text_is_the_standard_librarys(value: object) -> None:
    assert json_pretty(value) == standard(value)


@pytest.mark.parametrize(
    "value",
    [
        {"a": [], "b": {}, "c": [[]], "d": [{}], "e": ""},
        {"x": float("nan"), "y": [math.inf, -math.inf]},
        ['\u2028\u2029\x00\x1f"\\/', "é…日本", "\ud800"],
        {1: "one", 2.5: "two and a half", False: "no", None: "nothing"},
        {True: "yes", 0.0: "zero"},
        (1, (2, (3,))),
    ],
)
def test_edge_values(value: object) -> None:
    assert json_pretty(value) == standard(value)


@pytest.mark.parametrize("value", [{"a": Colour.RED}, [object()], {(1, 2): "tuple key"}])
def test_what_json_refuses_it_refuses_alike(value: object) -> None:
    with pytest.raises(TypeError) as ours:
        json_pretty(value)
    with pytest.raises(TypeError) as theirs:
        standard(value)
    assert str(ours.value) == str(theirs.value)


def test_a_value_that_holds_itself_is_refused_as_json_refuses_it() -> None:
    looped: list[object] = []
    looped.append(looped)
    with pytest.raises(ValueError, match="Circular reference"):
        json_pretty(looped)


def test_the_registrys_data_files_are_the_standard_librarys_text(tmp_path) -> None:
    """The files the JSON emitter makes from a whole registry, read back and written by
    the standard library, are the same text."""
    from generator.config import load
    from generator.emit import jsondata
    from generator.emit.render import environment
    from generator.pipeline.build import registry_for

    root = make_project(tmp_path)
    registry = registry_for(load(root / "pyproject.toml"))
    files = jsondata.emit(registry, environment(None), "pkg")
    assert files
    for path, data in files.items():
        text = data.decode("utf-8") if isinstance(data, bytes) else ""
        body = text[text.index("{") :] if "{" in text else text
        assert body.rstrip("\n") == standard(json.loads(body)), path
