"""What building an envelope and translating a message both need, in one place below both.

envelope.py fills a code's source message and i18n.py fills its translations; both must agree
on which braces are fields, on how a code is looked up and on which parameters a code takes,
or a message could pass one check and fail the other. Keeping those rules here, in a module
that imports only the registry's data, lets envelope use i18n without i18n reaching back.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from operator import itemgetter

from .codes import _CODES, _Text, _text

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:  # at run time they are imported on first use (see codes.py)
    from .codes import CodeInfo, ErrorCode

#: The only brace syntax a message may use: ``{{`` and ``}}`` for literal braces, ``{name}``
#: for a field. Anything else in braces matches the last branch, so it can be refused.
FIELD = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}|[{}]")

#: A template made into a function of the parameters; it returns what format_map would.
Fill = Callable[[dict[str, object]], str]

#: The largest integer every JSON peer reads exactly: I-JSON (RFC 7493) keeps integers within
#: what an IEEE 754 double holds, as a JavaScript client reads every number.
MAX_JSON_INTEGER = 2**53 - 1
#: The placeholder that carries a retry delay in whole seconds, which the wires read: HTTP's
#: Retry-After, gRPC's RetryInfo.
RETRY_AFTER = "retry_after"
#: The range of a google.protobuf.Duration, in seconds either way.
DURATION_MAX_SECONDS = 315_576_000_000

#: A surrogate code point: UTF-8 cannot carry one alone, so neither can a JSON text.
_SURROGATE = re.compile("[\ud800-\udfff]")


def language_tag(locale: str) -> str:
    """A shipped locale (``pt_BR``, ``zh_Hant``) as the wires write languages: a BCP 47 tag
    (``pt-BR``, ``zh-Hant``), as in Content-Language and google.rpc.LocalizedMessage."""
    return locale.replace("_", "-")


def code_info(code: ErrorCode | str) -> CodeInfo:
    """The registry's facts for ``code``, given as a member or as its name.

    A name the registry does not have is a ValueError that says so, rather than the bare
    ValueError or KeyError the enum and the table would give.
    """
    try:
        return _CODES[code]
    except (KeyError, TypeError):
        raise ValueError(f"{code!r} is not a code of this registry") from None


def code_text(code: ErrorCode | str) -> _Text:
    """What messages need of ``code``'s facts, as :func:`code_info` finds them, without
    building ErrorCode."""
    try:
        return _text(code)
    except (KeyError, TypeError):
        raise ValueError(f"{code!r} is not a code of this registry") from None


def known_code(raw: object) -> ErrorCode | None:
    """The ErrorCode member named ``raw``, or None for anything that names no code of this
    registry (as ``ErrorCode(raw)`` would refuse it)."""
    if isinstance(raw, str) and raw in _CODES:
        return _CODES[raw].code
    return None


def merge_params(
    info: CodeInfo | _Text, params: object, keywords: dict[str, object]
) -> dict[str, object]:
    """The placeholder values of one call: the ``params`` mapping and the keyword arguments
    together, in a new dict.

    The mapping carries names no keyword argument can (``class``, or ``message``, which the
    functions take for themselves); a name given both ways is a TypeError that names it.
    The public functions declare ``params`` as ``object``, not ``Mapping``: a caller who
    spreads a ``dict[str, object]`` into them (``message(code, **values)``) would otherwise
    fail type checking, as the spread might fill ``params`` too. The check is made here.
    """
    if params is None:
        return keywords
    if not isinstance(params, Mapping):
        raise TypeError(
            f"{info.code}: params must be a mapping of placeholder names to values, "
            f"not {type(params).__name__}"
        )
    both = sorted(keywords.keys() & params.keys())
    if both:
        raise TypeError(
            f"{info.code}: placeholder {both[0]!r} is given both in params and as a "
            "keyword argument"
        )
    return {**params, **keywords}


def add_request_id(
    info: CodeInfo, params: dict[str, object], request_id: str | None
) -> dict[str, object]:
    """``params`` with the ``request_id`` keyword filling the code's placeholder of that name,
    if it has one; the same value in ``params`` too is a TypeError, as for any other name, and
    so is a request id that is not a str."""
    if request_id is not None:
        check_text(info, "request_id", request_id)
    if request_id is None or "request_id" not in info.placeholders:
        return params
    if "request_id" in params:
        raise TypeError(
            f"{info.code}: placeholder 'request_id' is given both in params and as a "
            "keyword argument"
        )
    return {**params, "request_id": request_id}


def check_text(info: CodeInfo, name: str, value: object) -> None:
    """Raise naming the code when ``value`` (a caller's message or request id, which travel
    as JSON) is not a str, or holds a lone surrogate, which UTF-8 cannot encode."""
    if not isinstance(value, str):
        raise TypeError(f"{info.code}: {name} must be a str, not {type(value).__name__}")
    if not value.isascii() and _SURROGATE.search(value):
        raise ValueError(
            f"{info.code}: {name} has a lone surrogate, which UTF-8, and so JSON, cannot carry"
        )


def check_params(info: CodeInfo | _Text, params: Mapping[str, object]) -> None:
    """Raise TypeError naming the code and each missing or unexpected placeholder.

    Every caller checks before it formats, so that a wrong call fails the same way whichever
    function it went through, and a count that is not an int never picks a plural form.
    """
    expected = set(info.placeholders)
    missing = sorted(expected - params.keys())
    extra = sorted(params.keys() - expected)
    if missing or extra:
        problems = [f"missing placeholder {name!r}" for name in missing]
        problems += [f"unexpected parameter {name!r}" for name in extra]
        raise TypeError(f"{info.code}: " + ", ".join(problems))
    if info.count is not None:
        count = params[info.count]
        if not isinstance(count, int) or isinstance(count, bool):
            raise TypeError(
                f"{info.code}: placeholder {info.count!r} must be an int, "
                f"not {type(count).__name__}"
            )


def check_values(info: CodeInfo, params: Mapping[str, object]) -> None:
    """Raise naming the code and the placeholder when a value is not of the type the
    registry declares for it, as JSON carries it to every peer: an ``integer`` placeholder
    takes an int (not a bool) within ±:data:`MAX_JSON_INTEGER`, a ``text`` one a str that
    UTF-8 can encode. A TypeError for the type (NaN and the infinities are floats), a
    ValueError for a value out of range.

    A ``retry_after`` integer must also be a retry delay (:func:`check_delay`): every wire
    that says when to retry refuses any other, so no envelope is made with one.

    Called, after :func:`check_params`, wherever values travel as data: envelopes, problem
    objects, error details. A message alone shows ``str()`` of whatever it is given."""
    for name in info.placeholders:
        value = params[name]
        if name in info.integers:
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(
                    f"{info.code}: placeholder {name!r} must be an int, not {type(value).__name__}"
                )
            if not -MAX_JSON_INTEGER <= value <= MAX_JSON_INTEGER:
                raise ValueError(
                    f"{info.code}: placeholder {name!r} is outside "
                    f"±{MAX_JSON_INTEGER}, the integers every JSON peer reads exactly"
                )
            if name == RETRY_AFTER:  # an envelope no wire could send is not made
                check_delay(info, value)
        else:
            check_text(info, f"placeholder {name!r}", value)


def check_delay(info: CodeInfo, seconds: int) -> None:
    """Raise a ValueError naming the code when ``seconds``, a ``retry_after`` value, is no
    retry delay: negative, or longer than a google.protobuf.Duration holds."""
    if seconds < 0:
        raise ValueError(f"{info.code}: retry_after is negative; a retry delay cannot be")
    if seconds > DURATION_MAX_SECONDS:
        raise ValueError(
            f"{info.code}: retry_after is more than {DURATION_MAX_SECONDS} "
            "seconds, the longest a google.protobuf.Duration holds"
        )


def split(template: str, allowed: Collection[str]) -> tuple[list[str], list[str]] | None:
    """The literal text around each field of ``template`` and the fields' names, or None.

    ``{{`` and ``}}`` come back as single braces in the literals. None means the template
    has something else in braces (a position, an attribute, an index, a conversion, a format
    spec, a name not in ``allowed``, a lone brace): a translation must never reach into a
    value, so such a template is refused whole rather than filled in part.
    """
    literals: list[str] = []
    names: list[str] = []
    text: list[str] = []
    position = 0
    for match in FIELD.finditer(template):
        text.append(template[position : match.start()])
        token, name = match.group(0), match.group(1)
        if token in ("{{", "}}"):
            text.append(token[0])
        elif name is not None and name in allowed:
            literals.append("".join(text))
            names.append(name)
            text = []
        else:
            return None
        position = match.end()
    text.append(template[position:])
    literals.append("".join(text))
    return literals, names


def fill(template: str, allowed: tuple[str, ...], params: Mapping[str, object]) -> str | None:
    """``template`` with its named fields replaced by ``str()`` of each value, or None if it
    has any field :func:`split` refuses.

    It reads the template in one pass, as split() does, rather than calling split() and
    joining: format_message() fills a template once per call, and the second pass cost it a
    tenth of its time.
    """
    parts: list[str] = []
    position = 0
    for match in FIELD.finditer(template):
        parts.append(template[position : match.start()])
        token, name = match.group(0), match.group(1)
        if token in ("{{", "}}"):
            parts.append(token[0])
        elif name is not None and name in allowed:
            parts.append(str(params[name]))
        else:
            return None
        position = match.end()
    parts.append(template[position:])
    return "".join(parts)


def join(
    literals: Sequence[str],
    names: Sequence[str],
    grouped: Collection[str] = (),
    group: Callable[[int], str] | None = None,
    arity: int | None = None,
    isolate: bool = False,
) -> Fill:
    """A function that puts ``p[name]`` between the literals, each value written as str()
    writes it, as fill() and format_message() do (left to right, a missing name a
    KeyError). ``group`` writes the values of the fields named in ``grouped`` that are
    whole numbers of four digits or more. With ``arity``, the function raises KeyError for
    parameters that are not exactly that many, before it reads any. With ``isolate`` (the
    literals isolate each field), each value but a whole number is written through
    :func:`isolated`.

    The literals are put together once, with ``%s`` where each field goes (and ``%%`` for
    a percent sign of their own): filling the template is then one ``%`` of the values,
    which writes each as str() does and reads the template in C, not once per call in
    Python. (``str.format_map`` would parse a template's braces on every call, at about
    twice the cost.)"""
    if not names:
        (text,) = literals
        if arity is None:
            return lambda p: text
        return _counted(lambda p: text, arity)
    form = "%s".join(text.replace("%", "%%") for text in literals)
    numbers = tuple(i for i, name in enumerate(names) if name in grouped) if group else ()
    read: Callable[[Mapping[str, object]], tuple[object, ...]]
    if len(names) == 1:
        name = names[0]

        def read_one(p: Mapping[str, object]) -> tuple[object, ...]:
            return (p[name],)

        read = read_one
    else:
        read = itemgetter(*names)
    if isolate:
        return _counted(_isolating(form, read, frozenset(numbers), group), arity)
    if numbers and group is not None:
        return _grouping_fill(form, read, numbers, group, arity)
    if len(names) == 1:  # the most common message: one call, one frame

        def one(p: Mapping[str, object]) -> str:
            if arity is not None and len(p) != arity:
                raise KeyError
            return form % (p[name],)

        return one

    def many(p: Mapping[str, object]) -> str:
        if arity is not None and len(p) != arity:
            raise KeyError
        return form % read(p)

    return many


def _counted(fill: Fill, arity: int | None) -> Fill:
    """``fill``, first raising KeyError for parameters that are not ``arity`` many."""
    if arity is None:
        return fill

    def counted(p: dict[str, object]) -> str:
        if len(p) != arity:
            raise KeyError
        return fill(p)

    return counted


def _grouping_fill(
    form: str,
    read: Callable[[Mapping[str, object]], tuple[object, ...]],
    numbers: tuple[int, ...],
    group: Callable[[int], str],
    arity: int | None,
) -> Fill:
    """What :func:`join` gives where the fields at ``numbers`` group whole numbers of four
    digits or more: the values are read as they are, and copied only when one is grouped."""

    def fill(p: Mapping[str, object]) -> str:
        if arity is not None and len(p) != arity:
            raise KeyError
        values = read(p)
        written: list[object] | None = None
        for index in numbers:
            value = values[index]
            if type(value) is int and (value >= 1000 or value <= -1000):
                if written is None:
                    written = list(values)
                written[index] = group(value)
        return form % (values if written is None else tuple(written))

    return fill


def _isolating(
    form: str,
    read: Callable[[Mapping[str, object]], tuple[object, ...]],
    numbers: frozenset[int],
    group: Callable[[int], str] | None,
) -> Fill:
    """What :func:`join` gives for a language written right to left: every value but a
    whole number isolated (:func:`isolated`), the whole numbers at ``numbers`` grouped."""

    def fill(p: Mapping[str, object]) -> str:
        values = []
        for index, value in enumerate(read(p)):
            if type(value) is int and index in numbers and group is not None:
                values.append(group(value) if value >= 1000 or value <= -1000 else value)
            else:
                values.append(isolated(str(value)))
        return form % tuple(values)

    return fill


#: The directional isolates' marks: LRI, RLI, FSI and PDI.
_ISOLATE_MARKS = ("\u2066", "\u2067", "\u2068", "\u2069")


def isolated(text: str) -> str:
    """``text`` with its own isolates balanced, for a value put between U+2068 and U+2069:
    a U+2069 (pop directional isolate) with no isolate of the value's own open is dropped,
    and an isolate the value opens (U+2066, U+2067, U+2068) and does not close is closed at
    its end. Else a value's stray U+2069 would end the isolate around it early, and its
    unclosed one would take the rest of the message in."""
    if not any(mark in text for mark in _ISOLATE_MARKS):  # nearly every value
        return text
    out: list[str] = []
    depth = 0
    for character in text:
        if character == "\u2069":
            if not depth:
                continue
            depth -= 1
        elif "\u2066" <= character <= "\u2068":
            depth += 1
        out.append(character)
    return "".join(out) + "\u2069" * depth


def compile_template(
    template: str,
    allowed: Collection[str],
    *,
    integers: Collection[str] = (),
    group: str | None = None,
    isolate: bool = False,
    known: tuple[str, int] | None = None,
    arity: int | None = None,
) -> Fill | None:
    """A function that fills ``template`` as format_map would, for parameters with every name
    of ``allowed``, only faster; None for a template :func:`split` refuses, which is exactly
    the set :func:`fill` refuses, so the fast path and the checked path cannot disagree.

    For a language: ``group`` is its digit separator, with which the values of the
    placeholders named in ``integers`` are grouped when they are whole numbers of four
    digits or more; ``isolate`` puts every value between U+2068 and U+2069 (first strong
    isolate, pop directional isolate), as a right-to-left language needs, with the value's
    own isolates balanced (:func:`isolated`).

    ``known`` is a placeholder whose value is known now, with that value (a whole number,
    such as the count a plural message is kept for): it is written into the text at once,
    grouped as it would be, and the function does not read it.

    With ``arity`` (the number of the code's placeholders), the function raises KeyError for
    parameters that are not that many: together with a KeyError for any name it reads that
    is missing, a call with other names than the code's cannot pass unnoticed."""
    pieces = split(template, allowed)
    if pieces is None:
        return None
    literals, names = pieces
    if isolate and names:
        literals = [
            ("" if i == 0 else "\u2069") + text + ("\u2068" if i < len(names) else "")
            for i, text in enumerate(literals)
        ]
    if known is not None:
        separator = group if known[0] in integers else None
        literals, names = _written_in(literals, names, known, separator)
    if group is None or not integers:
        return join(literals, names, arity=arity, isolate=isolate)
    return join(literals, names, integers, _grouping(group), arity, isolate)


def _written_in(
    literals: list[str], names: list[str], known: tuple[str, int], group: str | None
) -> tuple[list[str], list[str]]:
    """The literals and names of a template with the field ``known[0]`` written as its value
    ``known[1]`` (grouped with ``group`` as :func:`_grouping` writes a value)."""
    name, value = known
    text = format(value, "")
    if group is not None and not -1000 < value < 1000:
        text = format(value, ",").replace(",", group)
    merged, left = [literals[0]], []
    for field, after in zip(names, literals[1:], strict=True):
        if field == name:
            merged[-1] += text + after
        else:
            merged.append(after)
            left.append(field)
    return merged, left


def _grouping(separator: str) -> Callable[[int], str]:
    """What writes the value of an integer placeholder that is a whole number of four digits
    or more (not a bool, not a str: see GROUPED_FIELD): with ``separator`` between groups of
    three, ``1.048.576``."""
    return lambda value: format(value, ",").replace(",", separator)


def source_template(info: CodeInfo | _Text, params: Mapping[str, object]) -> str:
    """The source-locale form of a code's message for these parameters: the singular when
    the count placeholder is 1 or -1 (a negative count takes the form of its magnitude, as
    in every language), the plural form otherwise."""
    if info.count is not None and info.message_plural is not None:
        return info.message if params[info.count] in (1, -1) else info.message_plural
    return info.message
