from __future__ import annotations

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from yaml.resolver import Resolver

from generator.diagnostics import InvalidInput, Mark
from generator.registry.loader import (
    _TAGS,
    Mapping,
    Scalar,
    Sequence,
    _plain_tag,
    decode,
    load_text,
)


def problems(text: str) -> list[str]:
    with pytest.raises(InvalidInput) as info:
        load_text(text, "r.yaml")
    return [d.render() for d in info.value.diagnostics.sorted()]


def test_every_node_keeps_its_line_and_column() -> None:
    root = load_text("a:\n  b: [x, 'y']\n  c:\n    - 3\n", "r.yaml")
    assert isinstance(root, Mapping)
    ((key_a, inner),) = root.pairs
    assert key_a.mark == Mark("r.yaml", 1, 1)
    assert isinstance(inner, Mapping)
    (key_b, seq), (_, items) = inner.pairs
    assert key_b.mark == Mark("r.yaml", 2, 3)
    assert isinstance(seq, Sequence)
    assert [(n.mark.line, n.mark.column) for n in seq.items] == [(2, 7), (2, 10)]
    assert isinstance(items, Sequence)
    assert items.items[0].mark == Mark("r.yaml", 4, 7)


def test_duplicate_keys_are_kept_for_the_validator() -> None:
    root = load_text("a: 1\na: 2\n", "r.yaml")
    assert isinstance(root, Mapping)
    assert [(k.value, k.mark.line) for k, _ in root.pairs] == [("a", 1), ("a", 2)]


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("yes", "bool"),
        ("'yes'", "str"),
        ("1.0", "float"),
        ("1.0.0", "str"),
        ("-32000", "int"),
        ("~", "null"),
        ("!!str 12", "str"),
        ("'12'", "str"),
    ],
)
def test_scalars_keep_their_resolved_type(text: str, tag: str) -> None:
    root = load_text(f"v: {text}\n", "r.yaml")
    assert isinstance(root, Mapping)
    value = root.pairs[0][1]
    assert isinstance(value, Scalar)
    assert value.tag == tag


def test_block_scalars_are_marked() -> None:
    root = load_text("a: >-\n  folded\nb: |\n  kept\n", "r.yaml")
    assert isinstance(root, Mapping)
    blocks = [value.block for _, value in root.pairs if isinstance(value, Scalar)]
    assert blocks == [True, True]


def test_aliases_are_refused_where_they_stand() -> None:
    assert problems("a: &x [1]\n") == [
        "r.yaml:1:4: error: anchor '&x' is not supported "
        "(remove the anchor and write each value out in full)"
    ]


def test_alias_bomb_is_refused_before_expansion() -> None:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    found = problems("\n".join(lines) + "\n")
    assert len(found) == 1
    assert "anchor '&a0' is not supported" in found[0]


def test_non_utf8_bytes_are_located() -> None:
    with pytest.raises(InvalidInput) as info:
        decode("a: ok\nb: caf\xe9 \xff\n".encode("latin-1"), "r.yaml")
    assert info.value.diagnostics.render() == (
        "r.yaml:2:7: error: the file is not valid UTF-8 (byte 0xe9) "
        "(save the file with UTF-8 encoding)\n"
    )


def test_a_byte_order_mark_is_accepted() -> None:
    assert decode(b"\xef\xbb\xbfa: 1\n", "r.yaml") == "a: 1\n"


def test_empty_and_comment_only_files_are_refused() -> None:
    for text in ("", "# only a comment\n", "\n\n"):
        assert problems(text)[0].startswith("r.yaml:1:1: error: the registry is empty")


def test_two_documents_are_refused() -> None:
    assert problems("a: 1\n---\nb: 2\n")[0].startswith(
        "r.yaml:2:1: error: the file holds more than one YAML document"
    )


def test_an_unclosed_bracket_is_reported_where_it_opens() -> None:
    found = problems("a: [1, 2\nb: 3\n")
    assert len(found) == 1
    assert found[0].startswith("r.yaml:1:4: error: invalid YAML:")
    assert found[0].endswith("(close this '[' with ']')")


def test_tab_indentation_gets_its_own_hint() -> None:
    found = problems("a:\n\tb: 1\n")
    assert found[0].startswith("r.yaml:2:1: error: invalid YAML:")
    assert found[0].endswith("(indent with spaces, not tabs)")


def test_deep_nesting_is_refused() -> None:
    text = "a: " + "[" * 40 + "]" * 40 + "\n"
    assert "nests deeper than 32 levels" in problems(text)[0]


def test_python_tags_are_refused() -> None:
    found = problems("a: !!python/object:os.system x\n")
    assert "the tag 'tag:yaml.org,2002:python/object:os.system' is not supported" in found[0]


_PLAIN = st.text(
    alphabet=st.sampled_from(list("yYnNoOtTfFeE~-+._:<=0123456789xXabcINFinf \t")), max_size=8
)


@settings(max_examples=400, deadline=None)
@given(_PLAIN)
def test_a_plain_scalar_gets_the_type_yaml_resolves(value: str) -> None:
    """The loader skips PyYAML's resolver for a plain scalar no implicit pattern can match:
    any value, from characters that start numbers, booleans and nulls, gets the type the
    resolver itself gives."""
    expected = _TAGS.get(
        Resolver().resolve(yaml.ScalarNode, value, (True, False)),  # type: ignore[no-untyped-call]
        "str",
    )
    assert _plain_tag(value) == expected


def test_a_mapping_key_that_is_a_collection_is_refused_where_it_stands() -> None:
    assert problems("a: 1\n? [a, b]\n: 1\nc: 2\n") == [
        "r.yaml:2:3: error: a mapping key must be plain text "
        "(write the key as a single word such as 'code')"
    ]


def test_a_quote_left_open_is_reported_where_it_opens() -> None:
    """The next quote in the file closes it, lines further down, and YAML fails there: the
    report points back at the quote that was left open (it said 'did not find expected key'
    at the later line)."""
    text = 'a:\n  b: "open\n  c: plain\n  d: "closed"\n'
    assert problems(text) == [
        "r.yaml:2:6: error: invalid YAML: the quoted value that starts here runs on to line 4, "
        'where the next " closes it (close the quote on this line; write \\" for a quote '
        "inside the value)"
    ]
    # a value that spans lines on purpose, before an unrelated mistake, is left alone
    spanning = 'a:\n  b: "two\n    lines"\n  c: [unclosed\n'
    assert "runs on to" not in problems(spanning)[0]
