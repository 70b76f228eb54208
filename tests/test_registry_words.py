"""The tool holds none of its first registry's words.

errorbook is for any registry; Surface's codes, vocabulary and prose belong in Surface's
codes.yaml and its site pages. This test reads Surface's registry and looks for its words in
everything the tool ships: generator/ and templates/ (the site's own translations included).
"""

from __future__ import annotations

import re

import yaml

from .conftest import ROOT

SHIPPED = [
    path
    for folder in ("generator", "templates")
    for path in sorted((ROOT / folder).rglob("*"))
    if path.is_file() and "__pycache__" not in path.parts
]

#: Vocabulary ids that are also plain English or Python words the tool uses in their own
#: sense ("client", "page", "protocol", "action"); the test looks for the rest.
COMMON = {
    "client",
    "page",
    "protocol",
    "action",
    "configuration",
    "execution",
    "python",
    "http",
    "mcp",  # a wire the tool itself projects onto (to_mcp), not a word of Surface's
    # google.rpc.Code's name for gRPC status 7 (generator/registry/grpc.py), a wire the tool
    # projects onto, which Surface happens to have chosen for a code of its own too.
    "PERMISSION_DENIED",
}


def _registry() -> dict[str, object]:
    data = yaml.safe_load((ROOT / "codes.yaml").read_text("utf-8"))
    assert isinstance(data, dict)
    return data


def _prose(value: object) -> list[str]:
    """Every string inside ``value``."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _prose(item)]
    if isinstance(value, list):
        return [text for item in value for text in _prose(item)]
    return []


def words() -> list[str]:
    data = _registry()
    found = ["Surface"]
    for section in ("codes", "layers", "actors", "shapes", "recovery_kinds", "limits", "adapters"):
        entries = data.get(section) or {}
        assert isinstance(entries, dict)
        found += [name for name in entries if name not in COMMON]
    # Sentences of its prose, long enough to be its own (a short one may be anyone's).
    for text in _prose({k: v for k, v in data.items() if k != "registry"}):
        for sentence in re.split(r"(?<=[.;:])\s+", " ".join(text.split())):
            if len(sentence.split()) >= 6:
                found.append(sentence)
    return found


def test_the_search_finds_surface_words_where_they_are() -> None:
    """The words are real: each code name and kind id is in Surface's own codes.yaml."""
    text = (ROOT / "codes.yaml").read_text("utf-8")
    listed = words()
    assert "LLM_RETRIES_EXHAUSTED" in listed and "retry_later" in listed
    assert "Retry under the bounded retry policy, and note the request id." in listed
    assert all(word in " ".join(text.split()) for word in listed if " " not in word)


def test_generator_and_templates_contain_no_word_of_surface() -> None:
    patterns = [
        (word, re.compile(re.escape(word) if " " in word else rf"\b{re.escape(word)}\b", re.I))
        for word in words()
    ]
    hits = []
    for path in SHIPPED:
        try:
            text = " ".join(path.read_text("utf-8").split())
        except UnicodeDecodeError:
            continue
        hits += [f"{path.relative_to(ROOT)}: {word}" for word, rx in patterns if rx.search(text)]
    assert hits == []
