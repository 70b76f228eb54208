"""``errorbook explain CODE``: what a code means and how to recover, from the registry."""

from __future__ import annotations

import argparse
import difflib
import json
import sys
import textwrap
import unicodedata
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ..config import Config
from ..errors import UsageError
from ..registry import grpc, placeholders
from ..registry.model import RetryPolicy
from ..suggest import some_of
from . import options

if TYPE_CHECKING:
    from ..registry.model import Code, Limit, Registry, Retry

#: How each envelope form looks, by the form's name.
ENVELOPES = {
    "error": '{"ok": false, "error": {"code": ...}}',
    "result": '{"ok": true, "result": {"error": {"code": ...}}}',
}


HELP = "explain one error code"
DESCRIPTION = (
    "Print a code's title, layer, meaning, recovery, retry policy and limits, as the "
    "registry declares them."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "code",
        metavar="CODE",
        help="the code's name, in any case; or a value that one code carries: a declared "
        "field's (a SQLSTATE, say) or its JSON-RPC code",
    )
    parser.add_argument(
        "--locale",
        metavar="TAG",
        help="the language to explain in (de, ja, pt-BR...), negotiated against the "
        "registry's locales; default: the environment's (LANGUAGE, LC_ALL, LC_MESSAGES, "
        "LANG). A field without a usable translation is shown in the source language, "
        "marked as such",
    )
    options.output_format(parser)


class Words:
    """The registry's text in one locale: each translatable field looked up in the
    translators' catalogs (only translations ``errorbook check`` accepts), else the source
    text, with a note of which fields fell back."""

    def __init__(
        self,
        locale: str,
        source: str,
        messages: Mapping[str, str] | None = None,
        docs: Mapping[str, str] | None = None,
        chrome: Mapping[str, str] | None = None,
    ) -> None:
        self.locale = locale
        self.source = source
        self._messages = messages or {}
        self._docs = docs or {}
        self._chrome = chrome or {}
        self.untranslated: list[str] = []
        # The site publishes a target language whose reference prose has any translation
        # (emit.site.pages.published), so its pages, not the source language's, are linked.
        self.published = locale != source and bool(self._docs)

    def doc(self, key: str, text: str, field: str | None = None) -> str:
        """Reference prose under msgctxt ``key`` of the docs catalog."""
        return self._pick(self._docs.get(key), text, field or key)

    def message(self, key: str, text: str, field: str) -> str:
        """UI copy under msgctxt ``key`` of the messages catalog (plural forms joined)."""
        found = self._messages.get(key)
        return self._pick(found.split("\x00")[0] if found else None, text, field)

    def forms(self, key: str, forms: tuple[str, ...], field: str) -> tuple[str, ...]:
        found = self._messages.get(key)
        if self.locale == self.source or not found:
            if self.locale != self.source and any(forms):
                self.untranslated.append(field)
            return forms
        return tuple(found.split("\x00"))

    def label(self, text: str) -> str:
        """errorbook's own words (a heading) in the locale, from the site's catalogs."""
        return self._chrome.get(text) or text

    def says(self, msgid: str, **values: object) -> str:
        """The site's sentence ``msgid`` (templates/site/i18n) in the locale, filled in with
        ``values``, so that explain reads as the code's page does; the English sentence
        where the site has no usable translation of it."""
        found = self._chrome.get(msgid)
        if found:
            try:
                return found % values
            except (KeyError, ValueError, TypeError):  # a translation the checks refuse
                pass
        return msgid % values

    @property
    def indent(self) -> str:
        """Where the values after the headings start: column 11, or one column after the
        widest heading of the locale (German "Ergebnisform:"), so that they line up."""
        if self.locale == self.source:
            return " " * 10  # the source language's headings ("Wire:" for the transports)
        widest = max(_width(f"{self.label(text)}:") for text in HEADINGS)
        return " " * max(10, widest + 1)

    def head(self, text: str) -> str:
        """A field's heading in the locale (:meth:`label`) and a colon, padded to
        :attr:`indent`: a wide character (Japanese) takes two columns of a terminal."""
        shown = f"{self.label(text)}:"
        return shown + " " * max(1, len(self.indent) - _width(shown))

    def _pick(self, found: str | None, text: str, field: str) -> str:
        if self.locale == self.source or not text:
            return text
        if found:
            return found
        if field not in self.untranslated:
            self.untranslated.append(field)
        return text

    def retry(self, retry: Retry) -> str:
        """A retry policy in a sentence: in another language the site's own sentence for it
        (templates/site/i18n), else the registry's English one, marked."""
        if self.locale != self.source:
            if retry.policy is RetryPolicy.NEVER:
                found = self._chrome.get("Never send the same request again.")
            elif retry.policy is RetryPolicy.AFTER_FIX:
                found = self._chrome.get("Send the request again only after the cause is fixed.")
            else:
                template = self._chrome.get(
                    "Retry automatically, at most as often as the limit %(limit)s allows."
                )
                found = template % {"limit": retry.limit} if template else None
            if found:
                return found
            self.untranslated.append("retry")
        return retry.describe()

    def quantity(self, limit: Limit) -> Callable[[int], str]:
        """A limit's values as the site writes them in the locale (digit grouping, CLDR's
        unit names or the translated unit, by plural form); a unit with neither is the
        registry's, marked (``unit``)."""
        from ..catalogs.locales import cldr_unit
        from ..emit.site.pages import limit_unit_forms, quantity

        forms = limit_unit_forms(limit, self._docs)
        untranslated = cldr_unit(limit.unit) is None and f"limit.{limit.id}.unit" not in self._docs
        if untranslated and "unit" not in self.untranslated:
            self.untranslated.append("unit")
        return lambda value: quantity(value, limit.unit, self.locale, forms)

    def mark(self, field: str) -> str:
        """What follows a field shown in the source language: `` [en]``."""
        return f" [{self.source}]" if field in self.untranslated else ""


#: The headings explain writes its values after, in the words of the site's catalogs.
HEADINGS = ("Title", "Layer", "Shape", "Since", "Retry", "Transports")


def _width(text: str) -> int:
    """The terminal columns ``text`` takes: two for a wide character (CJK)."""
    return sum(map(_columns, text))


#: The site's sentence for a retired code (templates/site/i18n).
_RETIRED = (
    "This code is no longer emitted. It stays in the registry so that old envelopes can "
    "still be read and its name is never used for anything else."
)

#: What explain shows exactly as codes.json has it, in explain's order after "limits".
SHARED_TAIL = (
    "related",
    "http_status",
    "jsonrpc_code",
    "grpc_status",
    "since",
    "status",
    "deprecated",
    "retired",
    "docs_url",
)


def facts(registry: Registry, code: Code, words: Words | None = None) -> dict[str, object]:
    """Everything ``explain`` shows, as plain data (the JSON output), in the language of
    ``words`` (the source language without it).

    Values that codes.json also holds are taken from :meth:`Registry.record`, so the two can
    never disagree; the rest are views of explain's own (the layer spelled out, the message
    by form, placeholders by name, each limit with its range). In another language the
    translatable text is the translators', and ``untranslated`` lists the fields shown in
    the source language."""
    if words is None:
        words = Words(registry.meta.source_locale, registry.meta.source_locale)
    record = registry.record(code)
    layer = registry.layer(code.layer)
    form = registry.envelope(code)
    name = code.name
    title = record["title"]
    forms = words.forms(name, code.message.forms, "message") if code.message.text else ()
    recovery = record["recovery"]
    if isinstance(recovery, dict) and code.recovery is not None:
        kind = code.recovery.kind
        recovery = {
            **recovery,
            "summary": words.doc(f"recovery.{kind}", str(recovery["summary"]), "recovery")
            if kind and recovery["summary"]
            else recovery["summary"],
            "steps": [
                words.doc(f"{name}.recovery.{n}", step, "recovery")
                for n, step in enumerate(code.recovery.steps, 1)
            ],
            "avoid": [
                words.doc(f"{name}.avoid.{n}", item, "recovery")
                for n, item in enumerate(code.recovery.avoid, 1)
            ],
        }
    found: dict[str, object] = {
        "code": record["code"],
        "locale": words.locale,
        "title": words.message(f"{name}.title", str(title), "title") if title else title,
        "layer": {
            "id": layer.id,
            "title": words.doc(f"layer.{layer.id}.title", layer.title, "layer"),
            "proves": words.doc(f"layer.{layer.id}.proves", layer.proves, "layer"),
            "actor": layer.actor,
        },
        "shape": code.shape,
        "envelope": ENVELOPES[form.value] if form else None,
        "shape_reason": words.doc(f"{name}.shape_reason", code.shape_reason, "shape_reason")
        or None,
        "message": {
            "one": forms[0],
            "other": forms[-1],
            "count": code.message.count,
            **({"forms": list(forms)} if len(forms) > 2 else {}),
        }
        if code.message.is_plural
        else (forms[0] if forms else code.message.text),
        "placeholders": {
            p.name: {
                "description": words.doc(
                    f"{name}.placeholder.{p.name}", p.description, "placeholders"
                )
                or None,
                "example": p.example,
                "type": p.type,
            }
            for p in code.placeholders
        },
        "meaning": words.doc(f"{name}.meaning", code.meaning, "meaning") or record["meaning"],
        "rationale": words.doc(f"{name}.rationale", code.rationale, "rationale") or None,
        "recovery": recovery,
        "retry": {
            "policy": code.retry.policy.value,
            "limit": code.retry.limit,
            "summary": words.retry(code.retry),
        }
        if code.retry
        else None,
        "limits": [
            {
                "id": limit.id,
                "title": words.doc(f"limit.{limit.id}.title", limit.title, "limits"),
                "default": limit.default,
                "unit": limit.unit,
                "min": limit.minimum,
                "max": limit.maximum,
            }
            for limit in map(registry.limit, code.limits)
        ],
        **{key: record.get(key) for key in SHARED_TAIL},
        **({"fields": record["fields"]} if registry.fields else {}),
        **(_family(registry, code) if any(c.parent for c in registry.codes) else {}),
    }
    if words.published:  # the reader's language has its own reference pages
        found["docs_url"] = registry.docs_url(code, words.locale)
    found["untranslated"] = list(words.untranslated)
    return found


def _family(registry: Registry, code: Code) -> dict[str, object]:
    """A code's parent and sub-codes, for a registry that has sub-codes at all."""
    return {"parent": code.parent, "children": [c.name for c in registry.children(code.name)]}


def _para(text: str, indent: str = "  ", then: str | None = None, width: int = 78) -> str:
    """``text`` as one paragraph of lines at most ``width`` terminal columns wide, the first
    after ``indent``, the others after ``then`` (default: ``indent``)."""
    text = " ".join(text.split())
    then = indent if then is None else then
    if not any(_columns(c) == 2 for c in text):
        return textwrap.fill(text, width=width, initial_indent=indent, subsequent_indent=then)
    return _wide_fill(text, width, indent, then)


#: Characters a line does not start with, and those it does not end with, in text of wide
#: characters (Japanese and Chinese line breaking, kinsoku, in its simplest form).
_NO_START = frozenset(
    "、。，．,.!?！？：；:;)）」』】〕〉》]｝}ーぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ・"  # noqa: RUF001
)
_NO_END = frozenset("(（「『【〔〈《[｛{")  # noqa: RUF001


def _columns(char: str) -> int:
    """The terminal columns a character takes: two for a wide one (CJK), else one."""
    return 2 if unicodedata.east_asian_width(char) in "WF" else 1


def _wide_fill(text: str, width: int, indent: str, then: str) -> str:
    """:func:`_para` for text with wide characters, which textwrap counts as one column each
    and breaks only at spaces: a line may break between two wide characters, or at a space,
    never inside a run of narrow ones (a word, a number, a placeholder), and a line neither
    starts with closing punctuation nor ends with an opening bracket."""
    units: list[str] = []  # words of narrow characters, single wide characters, spaces
    for char in text:
        if (
            units
            and char != " "
            and _columns(char) == 1
            and units[-1][-1] != " "
            and (_columns(units[-1][-1]) == 1)
        ):
            units[-1] += char  # a narrow character continues the word before it
        else:
            units.append(char)
    lines: list[str] = []
    line, used = indent, len(indent)
    start = len(line)
    for unit in units:
        size = _width(unit)
        if unit == " " and len(line) == start:
            continue  # no space at the start of a line
        fits = used + size <= width
        if not fits and unit[0] in _NO_START and len(line) > start:
            fits = True  # kept with the character before it, past the margin
        if not fits and len(line) > start:
            carried = ""
            while len(line) > start and line[-1] in _NO_END:
                carried, line = line[-1] + carried, line[:-1]
            lines.append(line.rstrip())
            line, used = then + carried, len(then) + _width(carried)
            start = len(then)
            if unit == " ":
                continue
        line += unit
        used += size
    if len(line) > start:
        lines.append(line.rstrip())
    return "\n".join(lines)


def _samples(locale: str, count: int) -> list[tuple[int, ...]]:
    """The first counts that select each of a locale's ``count`` plural forms."""
    from .. import plurals

    rule = plurals.lookup(locale)
    if rule is None or rule.count != count:
        return [() for _ in range(count)]
    return plurals.samples(rule)


def _counts(counts: tuple[int, ...]) -> str:
    """``n = 3, 4, 5, …``: the counts a plural form is for, as far as three show them."""
    if not counts:
        return "n = …"
    shown = ", ".join(str(n) for n in counts)
    return f"n = {shown}, …" if len(counts) == 3 else f"n = {shown}"


def _message(form: str) -> list[str]:
    """A message form as a reader sees it: its literal braces single, each line of it wrapped
    on its own and an empty line kept, so that the text keeps the breaks it was written with."""
    lines = [line if line.strip() else "" for line in placeholders.shown(form).split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return [_para(line) if line else "" for line in lines]


def as_text(registry: Registry, code: Code, words: Words | None = None) -> str:
    """What ``explain`` prints: the facts of :func:`facts`, laid out for a terminal. A field
    shown in the source language while another was asked for ends with its tag (`` [en]``)."""
    shown = facts(registry, code, words)
    words = words or Words(registry.meta.source_locale, registry.meta.source_locale)
    mark = words.mark
    label = words.label
    layer = registry.layer(code.layer)
    layer_facts = shown["layer"]
    assert isinstance(layer_facts, dict)
    head = words.head
    source = words.locale == words.source
    lines = [f"{code.name}", ""]
    if shown["title"]:
        lines.append(f"{head('Title')}{shown['title']}{mark('title')}")
    says = words.says
    if not layer.actor:
        acts = ""
    elif source:
        acts = f"; {layer.actor} must act"
    else:
        acts = f"; {label('Who must act:')} {layer.actor}"
    lines.append(f"{head('Layer')}{layer_facts['title']} ({layer.id}){acts}{mark('layer')}")
    indent = words.indent
    lines.append(_para(str(layer_facts["proves"]), indent))
    travels = registry.envelope(code)
    if code.shape and travels:
        lines.append(f"{head('Shape')}{code.shape}  {ENVELOPES[travels.value]}")
    if shown["shape_reason"]:
        lines.append(_para(f"{shown['shape_reason']}{mark('shape_reason')}", indent))
    wires = []
    if registry.uses("http"):
        wires.append(f"{label('HTTP')} {registry.http_status(code)}")
    if registry.uses("jsonrpc"):
        if code.jsonrpc is not None:
            wires.append(f"{label('JSON-RPC')} {code.jsonrpc}")
        elif source:
            wires.append("JSON-RPC result (not an error)")
        else:
            wires.append(f"{label('JSON-RPC')} {label('result, not an error')}")
    status = registry.grpc_status(code)
    if status is not None and wires:  # a registry that names no wire shows none
        wires.append(f"{label('gRPC')} {grpc.NAMES[status]} ({status})")
    if wires:
        lines.append(f"{'Wire:     ' if source else head('Transports')}{', '.join(wires)}")
    if code.since:
        lines.append(f"{head('Since')}{code.since}")
    if code.parent:
        lines.append(
            f"Parent:   {code.parent}"
            if source
            else says("Parent code: %(code)s", code=code.parent)
        )
    children = [c.name for c in registry.children(code.name)]
    if children:
        lines.append(_para(f"{label('Sub-codes')}: {', '.join(children)}", "", " " * 11))
    if code.retired is not None:
        if source:
            lines.append(
                f"Status:   RETIRED since {code.retired.since}: no longer emitted; kept so "
                "that old envelopes can be read and the name is never reused"
            )
        else:
            lines.append(says("Retired since %(version)s", version=code.retired.since))
            lines.append(_para(label(_RETIRED), indent))
        if code.retired.reason:
            lines.append(_para(code.retired.reason, indent))
    elif code.deprecated is not None:
        instead = code.deprecated.replaced_by
        if source:
            use = f"; use {instead}" if instead else ""
            lines.append(f"Status:   deprecated since {code.deprecated.since}{use}")
        else:
            lines.append(says("Deprecated since %(version)s", version=code.deprecated.since))
            still = (
                says("Still emitted, but clients should handle %(code)s instead.", code=instead)
                if instead
                else label("Still emitted, but clients should not rely on it.")
            )
            lines.append(_para(still, indent))
        if code.deprecated.reason:
            lines.append(_para(code.deprecated.reason, indent))
    lines += ["", f"{label('Message')}:{mark('message')}"]
    if not code.message.text:
        lines.append(
            "  (none of its own: programs show the code's name)"
            if source
            else _para(label("No message of its own: programs show the code's name."))
        )
    message = shown["message"]
    if not isinstance(message, dict):
        texts = [message]
    elif "forms" in message:
        texts = message["forms"]
    else:  # a language of one plural form has one text for "one" and "other"
        texts = list(dict.fromkeys([message["one"], message["other"]]))
    forms = [_message(str(form)) for form in texts if form]
    if len(forms) > 2 and len(forms) == len(texts):  # which count each of many forms is for
        forms = [
            [f"  ({_counts(counts)})", *form]
            for counts, form in zip(_samples(words.locale, len(forms)), forms, strict=True)
        ]
    for index, form in enumerate(forms):
        if index and any(len(f) > 1 for f in forms):  # forms of several lines: keep apart
            lines.append("")
        lines += form
    if shown["meaning"]:
        lines += ["", f"{label('Meaning')}:{mark('meaning')}", _para(str(shown["meaning"]))]
    if shown["rationale"] and source:
        lines += ["", f"Why this code exists:{mark('rationale')}", _para(str(shown["rationale"]))]
    elif shown["rationale"]:  # as the code's page has it: a paragraph of the meaning
        if not shown["meaning"]:
            lines += ["", f"{label('Meaning')}:"]
        lines += ["", _para(f"{shown['rationale']}{mark('rationale')}")]
    recovery = shown["recovery"]
    if code.recovery is not None and isinstance(recovery, dict):
        kind = f" ({code.recovery.kind})" if code.recovery.kind else ""
        lines += ["", f"{label('Recovery')}{kind}:{mark('recovery')}"]
        if summary := recovery["summary"]:
            lines.append(_para(str(summary)))
        lines += [_para(step, f"  {n}. ", "     ") for n, step in enumerate(recovery["steps"], 1)]
        lines += [_para(f"{label('Never:')} {item}") for item in recovery["avoid"]]
    if code.retry is not None:
        retry = shown["retry"]
        assert isinstance(retry, dict)
        lines += ["", f"{head('Retry')}{retry['summary']}{mark('retry')}"]
    if code.limits:
        lines += ["", f"{label('Limits')}:"]
        for limit in map(registry.limit, code.limits):
            if words.locale == words.source:
                lines.append(
                    f"  {limit.id}: default {limit.default} {limit.unit} "
                    f"(allowed {limit.minimum}..{limit.maximum})"
                )
                continue
            amount = words.quantity(limit)
            lines.append(
                f"  {limit.id}: {label('Default')} {amount(limit.default)} "
                f"({label('Allowed range')}: {amount(limit.minimum)} \u2013 "
                f"{amount(limit.maximum)})"
                f"{mark('unit')}"
            )
    if code.related:
        related = ", ".join(code.related)
        lines += [
            "",
            f"Related:  {related}" if source else f"{label('Related codes')}: {related}",
        ]
    given = [(f.name, code.extra[f.name]) for f in registry.fields if f.name in code.extra]
    if given:
        lines += ["", "Fields:" if source else label("Fields") + ":"]
        for name, value in given:
            if isinstance(value, bool):
                text = label("yes") if value else label("no")
            elif isinstance(value, tuple):
                text = ", ".join(value)
            else:
                text = str(value)
            lines.append(_para(f"{name}: {text}"))
    docs = "Docs:     " if source else label("Docs") + ": "
    lines += ["", f"{docs}{shown['docs_url']}"]
    return "\n".join(lines) + "\n"


def _code_asked(typed: str, names: list[str]) -> str:
    """The code a reader means: the name as typed, else the one name that matches it with
    case and '-' for '_' ignored (``llm-timeout``); a registry's naming rule may allow lower
    case (``doorClosed``), so the name is not simply upper-cased."""
    typed = typed.strip()
    if typed in names:
        return typed
    folded = typed.replace("-", "_").casefold()
    matches = [name for name in names if name.casefold() == folded]
    return matches[0] if len(matches) == 1 else typed.upper().replace("-", "_")


def run(args: argparse.Namespace, config: Config) -> int:
    from ..pipeline import build

    registry = build.registry_for(config)
    names = [c.name for c in registry.codes]
    wanted = _code_asked(args.code, names)
    if wanted in names:
        code = registry.code(wanted)
    else:
        code = _code_by_value(registry, args.code, wanted, names)
    words = words_for(config, registry, args.locale)
    if args.format == "json":
        print(json.dumps(facts(registry, code, words), indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(as_text(registry, code, words))
    return 0


def _code_by_value(registry: Registry, typed: str, wanted: str, names: list[str]) -> Code:
    """The one code whose declared field (a SQLSTATE, say) or JSON-RPC code is ``typed``:
    what a reader has in hand is often the value an error carried, not the code's name.
    Refused, with the nearest names, when no code has it; with the codes that share it,
    when several do."""
    value = typed.strip().casefold()
    found: list[tuple[str, str]] = []  # (code, what the value is of it)
    for code in registry.codes:
        for field in registry.fields:
            given = code.extra.get(field.name)
            if isinstance(given, bool) or given is None:
                continue
            values = given if isinstance(given, tuple) else (given,)
            if any(str(item).casefold() == value for item in values):
                found.append((code.name, field.name))
                break
        else:
            if registry.uses("jsonrpc") and code.jsonrpc is not None and str(code.jsonrpc) == value:
                found.append((code.name, "JSON-RPC code"))
    if len(found) == 1:
        name, what = found[0]
        print(f"errorbook: {typed.strip()} is the {what} of {name}", file=sys.stderr)
        return registry.code(name)
    if found:
        codes = [name for name, _ in found]
        whats = sorted({what for _, what in found})
        raise UsageError(
            f"'{typed}' is the {' or '.join(whats)} of {len(codes):,} codes in "
            f"{registry.path}: {some_of(codes)}; explain one of them by name"
        )
    near = difflib.get_close_matches(wanted, names, n=3, cutoff=0.75)
    hint = f"; nearest: {', '.join(near)}" if near else f"; the codes are: {some_of(names)}"
    raise UsageError(f"unknown code '{typed}' in {registry.path}{hint}")


def asked_locale(given: str | None, environ: Mapping[str, str]) -> str | None:
    """The locale a reader asks for: ``--locale``, else the first of LANGUAGE (its first
    entry), LC_ALL, LC_MESSAGES and LANG that is set, as gettext reads them; None for
    none, C or POSIX. Encodings and modifiers (``.UTF-8``, ``@euro``) are dropped."""
    candidates = (
        [given]
        if given
        else [
            environ.get("LANGUAGE", "").split(":")[0],
            environ.get("LC_ALL", ""),
            environ.get("LC_MESSAGES", ""),
            environ.get("LANG", ""),
        ]
    )
    for tag in candidates:
        tag = (tag or "").split(".")[0].split("@")[0].replace("-", "_").strip()
        if tag and tag.upper() not in ("C", "POSIX"):
            return tag
    return None


def negotiation() -> Any:
    """The generated runtime's own negotiation (``templates/python/_negotiate.py``, which the
    package ships as its ``_negotiate`` module), loaded from errorbook's templates, so that
    explain answers in the locale the package would (``zh_TW`` reads ``zh_Hant``)."""
    import importlib.util

    from ..names import SHIPPED_TEMPLATES

    path = SHIPPED_TEMPLATES / "python" / "_negotiate.py"
    spec = importlib.util.spec_from_file_location("errorbook_runtime_negotiate", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def words_for(config: Config, registry: Registry, given: str | None) -> Words:
    """The registry's text in the locale the reader asks for, negotiated against the
    registry's locales as the runtime negotiates (:func:`negotiation`: ``de_AT`` reads
    German); the source language when none matches. The catalogs are read as ``generate``
    reads them, and only translations ``check`` accepts are used: a broken PO file leaves
    its fields in the source language rather than stopping ``explain``."""
    import os

    from babel.core import parse_locale

    from .. import inputs
    from ..catalogs import pofile
    from ..catalogs.catalog import translations
    from ..catalogs.entries import message_contexts
    from ..catalogs.locales import script_table
    from ..catalogs.paths import po_path
    from ..emit.render import environment
    from ..emit.site.pages import chrome_catalog

    source = registry.meta.source_locale
    asked = asked_locale(given, os.environ) if given != "" else None
    if given is not None and asked is not None:
        try:
            parse_locale(asked)
        except ValueError:
            asked = None
    if given is not None and asked is None:
        raise UsageError(
            f"--locale {given!r} names no language; give a tag such as de, ja or pt-BR "
            f"(the registry's locales: {', '.join([source, *registry.meta.locales])})"
        )
    available = [source, *registry.meta.locales]
    negotiate = negotiation()
    translated = tuple(tag for tag in registry.meta.locales if tag != source)
    scripts = script_table(registry.meta.locales)
    chosen = negotiate.chain(asked, translated, scripts, source)[0] if asked else source
    wanted, own = negotiate.parse(asked) if asked else None, negotiate.parse(source)
    if given and wanted and chosen == source and (own is None or wanted[0] != own[0]):
        print(
            f"errorbook: no catalog for {given!r}: shown in {source}, the source language "
            f"(the registry's locales: {', '.join(available)})",
            file=sys.stderr,
        )
    if chosen == source:
        return Words(source, source)
    found: dict[str, dict[str, str]] = {}
    locales_dir = config.display(config.locales_dir)
    for domain in ("messages", "docs"):
        relative = po_path(locales_dir, chosen, config.domains[domain])
        try:
            data = inputs.read(config.root / relative, limit=config.input_limit, follow=False)
        except inputs.InputFileError:
            data = None
        catalog = None
        if data is not None:
            catalog, _, problems = pofile.read(data, relative, chosen, domain)
            if problems.has_errors:
                catalog = None
        counts = message_contexts(registry) if domain == "messages" else None
        found[domain] = translations(catalog, counts)
    chrome = chrome_catalog(environment(config.templates), chosen)
    return Words(chosen, source, found["messages"], found["docs"], chrome)
