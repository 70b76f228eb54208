"""The generated package builds what grows with the registry on first use, not at import.

Importing it leaves ErrorCode unbuilt and the codes' records unread; every public name then
works as it always did: ErrorCode's members, iteration, look-up by value, ``in``, pickling,
CODES and LIMITS, message() in several languages and plural forms.
"""

from __future__ import annotations

import gettext
import os
import subprocess
import sys
import textwrap

import pytest

import surface_errors as se

from ..conftest import ROOT

#: Run in a fresh interpreter: what importing the package leaves unbuilt, then every public
#: name at work. Each check is an assert, so the child's exit status tells.
CHILD = """
import pickle
import sys

before = set(sys.modules)
import surface_errors as se
from surface_errors import codes
imported = set(sys.modules) - before

unbuilt = ("surface_errors._error_code", "surface_errors._records")
assert not [name for name in unbuilt if name in sys.modules], sorted(sys.modules)
# Nor what a first message does not need: the envelopes, the wires, the dataclasses (nor the
# standard library's dataclasses and typing, which take longest to import).
unneeded = (
    "surface_errors.envelope",
    "surface_errors.shapes",
    "surface_errors.wire",
    "surface_errors._info",
)
assert not [name for name in unneeded if name in sys.modules], sorted(sys.modules)
assert not imported & {"typing", "dataclasses"}, sorted(imported)
assert not [name for name in ("CodeInfo", "LayerInfo") if name in vars(se) or name in vars(codes)]
assert "ErrorCode" not in vars(se) and "ErrorCode" not in vars(codes)
assert codes._rows == {} and codes._CODES._built == {}
assert codes.LIMITS._built is None

# A message reads the records, and of them only its own code's: it builds neither ErrorCode
# nor a CodeInfo.
assert se.message("PERMISSION_DENIED", "de", action="pay") == "Die Aktion pay wurde nicht erlaubt."
assert se.title("PERMISSION_DENIED") == "Permission denied"
assert list(codes._texts) == ["PERMISSION_DENIED"] and codes._CODES._built == {}
assert "surface_errors._records" in sys.modules
assert "surface_errors._error_code" not in sys.modules and "ErrorCode" not in vars(codes)
assert not [name for name in unneeded if name in sys.modules], sorted(sys.modules)
assert "dataclasses" not in set(sys.modules) - before, sorted(sys.modules)
try:
    se.message("NOT_A_CODE")
except ValueError as error:
    assert str(error) == "'NOT_A_CODE' is not a code of this registry", error
else:
    raise AssertionError("message('NOT_A_CODE') did not raise")

ErrorCode = se.ErrorCode
assert ErrorCode is codes.ErrorCode is vars(se)["ErrorCode"] is vars(codes)["ErrorCode"]
member = ErrorCode.LLM_TIMEOUT
assert ErrorCode("LLM_TIMEOUT") is member and ErrorCode["LLM_TIMEOUT"] is member
assert member.value == str(member) == f"{member}" == "LLM_TIMEOUT"
assert repr(member) == "<ErrorCode.LLM_TIMEOUT: 'LLM_TIMEOUT'>"
assert ErrorCode.__module__ == "surface_errors.codes"
assert member in ErrorCode and "LLM_TIMEOUT" in ErrorCode.__members__
assert len(list(ErrorCode)) == len(se.CODES) == 21
assert pickle.loads(pickle.dumps(member)) is member
info = se.CODES[member]
assert se.CODES["LLM_TIMEOUT"] is info and info.code is member
assert pickle.loads(pickle.dumps(info)) == info
# The enums and dataclasses that codes.py exports pickle as codes.py's, as when it defined them.
for value in (info, se.Layer.EXECUTION, se.LAYERS[se.Layer.EXECUTION], codes.SHAPES[info.shape]):
    assert type(value).__module__ == "surface_errors.codes", value
    assert b"_info" not in pickle.dumps(value) and b"_kinds" not in pickle.dumps(value)
    assert pickle.loads(pickle.dumps(value)) == value
assert se.CodeInfo is codes.CodeInfo is vars(codes)["CodeInfo"] and codes.ShapeInfo
assert repr(se.LAYERS).startswith("mappingproxy({<Layer.")
assert list(se.CODES) == list(ErrorCode)
assert [i.code for i in se.CODES.values()] == list(ErrorCode)
assert member in se.CODES and "LLM_TIMEOUT" in se.CODES
assert "NOT_A_CODE" not in se.CODES and 1 not in se.CODES and None not in se.CODES
assert se.CODES.get("NOT_A_CODE") is None
try:
    se.CODES["NOT_A_CODE"]
except KeyError:
    pass
else:
    raise AssertionError("CODES['NOT_A_CODE'] did not raise")
try:
    ErrorCode("NOT_A_CODE")
except ValueError:
    pass
else:
    raise AssertionError("ErrorCode('NOT_A_CODE') did not raise")
assert all(type(code) is ErrorCode for code in info.related)
limit = se.LIMITS["llm_timeout"]
assert limit.codes == (member,) and limit.default == 60 and "llm_timeout" in se.LIMITS

# Plural forms, in languages with two and with more forms.
for n, text in ((1, "1 Versuch"), (2, "2 Versuche")):
    assert text in se.message("LLM_RETRIES_EXHAUSTED", "de", attempts=n), n
polish = se.Translator("pl")
for n in (1, 2, 5, 22):
    expected = polish.template("LLM_RETRIES_EXHAUSTED", n).format(attempts=n)
    assert se.message("LLM_RETRIES_EXHAUSTED", "pl", attempts=n) == expected, n
assert polish.template("LLM_RETRIES_EXHAUSTED", 1) != polish.template("LLM_RETRIES_EXHAUSTED", 5)
assert se.message(member, "fr", seconds=5) == se.Translator("fr").message("LLM_TIMEOUT", seconds=5)
# The envelopes' and the wires' names, and their modules, on first access.
assert se.envelope.failure is se.failure and "failure" in vars(se)
from surface_errors import wire
assert se.to_problem is wire.to_problem and se.action_failure is se.shapes.action_failure
built = se.failure("LLM_TIMEOUT", seconds=5)
assert se.classify(built).code is member, built
assert se.PROBLEM_JSON == "application/problem+json"
namespace = {}
exec("from surface_errors import *", namespace)
assert namespace["ErrorCode"] is ErrorCode and namespace["CODES"] is se.CODES
print("ok")
"""


def _in_a_fresh_interpreter(child: str) -> None:
    """Run ``child`` in a new Python with the repository on its path; its asserts decide."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(child)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stdout) == (0, "ok\n"), result.stderr


def test_import_builds_nothing_that_grows_with_the_registry_and_every_name_works() -> None:
    _in_a_fresh_interpreter(CHILD)


def test_codes_is_a_read_only_mapping_of_every_code() -> None:
    assert len(se.CODES) == len(se.ErrorCode)
    assert dict(se.CODES) == {code: se.CODES[code] for code in se.ErrorCode}
    assert repr(se.CODES) == "<CODES: 21 codes>"
    with pytest.raises(TypeError):
        se.CODES["LLM_TIMEOUT"] = se.CODES["LLM_TIMEOUT"]  # type: ignore[index]
    with pytest.raises(AttributeError, match="has no attribute 'NOT_A_NAME'"):
        _ = se.codes.NOT_A_NAME  # type: ignore[attr-defined]
    with pytest.raises(AttributeError, match="has no attribute 'NOT_A_NAME'"):
        _ = se.NOT_A_NAME  # type: ignore[attr-defined]


class Omitting(gettext.NullTranslations):
    """A catalog whose German for PERMISSION_DENIED leaves out its placeholder, as a
    translation may."""

    def pgettext(self, context: str, message: str) -> str:
        return "Nicht erlaubt." if context == "PERMISSION_DENIED" else message


def test_a_kept_message_that_leaves_out_a_placeholder_still_checks_the_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fast path answers from a kept function that must read every placeholder: one
    that leaves ``action`` out of its text still refuses a call with another name."""
    monkeypatch.setitem(se.i18n._catalogs, "de", Omitting())
    monkeypatch.setattr(se.i18n, "_translators", {})
    monkeypatch.setattr(se.i18n, "_fast", {})
    translator = se.Translator("de")
    for _ in range(3):  # cold, then from what the first call kept
        assert translator.message("PERMISSION_DENIED", action="pay") == "Nicht erlaubt."
        assert se.message("PERMISSION_DENIED", "de", action="pay") == "Nicht erlaubt."
        with pytest.raises(TypeError, match="missing placeholder 'action'"):
            translator.message("PERMISSION_DENIED", actor="pay")
        with pytest.raises(TypeError, match="missing placeholder 'action'"):
            se.message("PERMISSION_DENIED", "de", actor="pay")
    assert "PERMISSION_DENIED" in se.i18n._fast["de"]


def test_a_count_written_into_a_kept_message_is_grouped_and_isolated_as_a_value() -> None:
    """A plural message is kept per count with the count written into its text: the same
    text as a value filled in, grouped in German, isolated in Arabic, for a bool refused."""
    for locale, count in (("de", 5), ("de", 12345), ("ar", 12345), ("pl", -1001)):
        translator = se.Translator(locale)
        first = translator.message("LLM_RETRIES_EXHAUSTED", attempts=count)
        template = translator.template("LLM_RETRIES_EXHAUSTED", count)
        value: object = count
        separator = se.codes.DIGIT_GROUPS.get(locale)
        if separator and abs(count) >= 1000:
            value = f"{count:,}".replace(",", separator)
        if locale in se.codes.RIGHT_TO_LEFT:
            value = f"\u2068{value}\u2069"
        assert first == template.format(attempts=value), (locale, count)
        assert count in translator._counts["LLM_RETRIES_EXHAUSTED"]
        assert translator.message("LLM_RETRIES_EXHAUSTED", attempts=count) == first
    with pytest.raises(TypeError, match="must be an int, not bool"):
        se.Translator("de").message("LLM_RETRIES_EXHAUSTED", attempts=True)


#: dir() of a fresh import: every public name, before any was served, and none served by it.
DIR_CHILD = """
import sys

import surface_errors as se
from surface_errors import codes

names = dir(se)
assert set(se.__all__) <= set(names), sorted(set(se.__all__) - set(names))
assert names == sorted(names)
assert {"ErrorCode", "CodeInfo", "LayerInfo", "LimitInfo", "CODES"} <= set(dir(codes))
served = ("surface_errors.wire", "surface_errors.envelope", "surface_errors._error_code")
assert not [name for name in served if name in sys.modules], sorted(sys.modules)
assert "ErrorCode" not in vars(se) and "ErrorCode" not in vars(codes)
print("ok")
"""


def test_dir_lists_the_names_served_on_first_use() -> None:
    """dir() (and so a REPL's completion and help()) shows every public name of a fresh
    import, the ones a module __getattr__ serves included, without importing them."""
    _in_a_fresh_interpreter(DIR_CHILD)
