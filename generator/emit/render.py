"""The Jinja2 environment every emitter renders with.

Templates are looked up first in the user's override folder (``templates`` in
``[tool.errorbook]``), then in the templates shipped with errorbook, so a project can replace
one output's template without copying the rest. The filters here are the only way registry
text enters generated source: each one escapes for the language it lands in.
"""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path
from typing import Any

import jinja2
import yaml

from ..diagnostics import InvalidInput, Mark, invalid
from ..errors import ErrorbookError
from ..names import HEADER, SHIPPED_TEMPLATES, in_comment
from ..registry import grpc
from ..registry.model import identifier

__all__ = ["HEADER", "SHIPPED_TEMPLATES", "environment", "render"]


def py_literal(value: object) -> str:
    """A Python literal for a str, int, bool or None: text from the registry stays data."""
    if value is None or isinstance(value, (bool, int, str)):
        return repr(value)
    if isinstance(value, (tuple, list)):
        inner = ", ".join(py_literal(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    raise TypeError(f"no Python literal for {type(value).__name__}")


def members(names: object, enum: str) -> str:
    """A tuple expression of the members of codes by name, such as ``(ErrorCode.A,
    ErrorCode.B)``: each member by the code's identifier (see ``model.identifier``)."""
    items = [f"{enum}.{identifier(name)}" for name in names]  # type: ignore[attr-defined]
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


def ts_key(key: object) -> str:
    """A property name of a JavaScript object literal, as written (``NAME`` or ``"NAME"``),
    that stays an own property: ``__proto__:`` in a literal sets the object's prototype
    instead, so that one name is written as a computed key, which never does."""
    text = str(key)
    return '["__proto__"]' if text in ("__proto__", '"__proto__"') else text


def json_literal(value: object) -> str:
    """A JSON (and JavaScript/TypeScript) literal: registry text stays a string."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def json_pretty(value: object) -> str:
    """A whole JSON document, keys in the order the emitter built them: exactly
    ``json.dumps(value, indent=2, ensure_ascii=False)``.

    With an indent, the standard library encodes in Python, through a generator per
    container; for the registry's data files that was most of the time of making them. This
    walks the value once, encoding each string with the standard library's own C function;
    a value of any other kind (a float that is not finite, an object ``json`` would refuse)
    is left to ``json.dumps`` whole, which writes or refuses it as it always has (a test
    compares the two on generated values)."""
    out: list[str] = []
    try:
        _pretty(value, "\n", out)
    except (_Unusual, RecursionError):  # RecursionError: a value that holds itself
        return json.dumps(value, indent=2, ensure_ascii=False)
    return "".join(out)


class _Unusual(Exception):
    """A value :func:`_pretty` leaves to ``json.dumps``."""


_STRING = json.encoder.encode_basestring  # what json.dumps uses with ensure_ascii=False


def _pretty(value: object, newline: str, out: list[str]) -> None:
    """Append ``value``'s JSON text to ``out``; ``newline`` starts a line at its depth."""
    if isinstance(value, str):
        out.append(_STRING(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, float) and math.isfinite(value):
        out.append(float.__repr__(value))
    elif isinstance(value, (list, tuple)):
        if not value:
            out.append("[]")
            return
        inner = newline + "  "
        out.append("[")
        separator = inner
        for item in value:
            out.append(separator)
            separator = "," + inner
            _pretty(item, inner, out)
        out.append(newline + "]")
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = newline + "  "
        out.append("{")
        separator = inner
        for key, item in value.items():
            out.append(separator + _STRING(_key(key)) + ": ")
            separator = "," + inner
            _pretty(item, inner, out)
        out.append(newline + "}")
    else:
        raise _Unusual


def _key(key: object) -> str:
    """A mapping's key as ``json`` writes it: text, or a number, boolean or null as text."""
    if isinstance(key, str):
        return key
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if isinstance(key, int):
        return int.__repr__(key)
    if isinstance(key, float) and math.isfinite(key):
        return float.__repr__(key)
    raise _Unusual


class _Dumper(yaml.SafeDumper):
    """PyYAML's safe dumper, written the way people write MkDocs configurations: lists
    indented under their key, text of several lines as a block, never an alias."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)

    def ignore_aliases(self, data: Any) -> bool:
        return True


#: Strings written without quotes: bare words and paths (keys, file and folder names,
#: language tags, one-word titles); the dumper still quotes those YAML would read as
#: something else ("yes", "1.0", "null"). Anything else is quoted.
_PLAIN = re.compile(r"[A-Za-z0-9_./-]+\Z")


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    """Text of several lines as a block; names plain; any other text (a title, a URL) in
    quotes. Double quotes can hold every character, but PyYAML writes those above U+FFFF
    (emoji, rare CJK) there as escapes: text with them takes single quotes, where they stay
    readable (PyYAML still picks double quotes when single ones cannot hold the text)."""
    if "\n" in value:
        style: str | None = "|"
    elif _PLAIN.match(value):
        style = None
    else:
        style = "'" if any(ord(char) > 0xFFFF for char in value) else '"'
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text)


def yaml_document(value: object) -> str:
    """A YAML document of ``value``, keys in the order the template built them. Every string
    is quoted as YAML needs (": ", "#", "yes", control characters), so text in it can never
    become structure. No final line end: the template's own ends the line."""
    text = yaml.dump(
        value,
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=1 << 30,  # never fold a long title over two lines
    )
    return text.rstrip("\n")


def environment(overrides: Path | None = None) -> jinja2.Environment:
    """A strict environment: an undefined name in a template is an error, not empty text."""
    search = [str(overrides)] if overrides is not None and overrides.is_dir() else []
    search.append(str(SHIPPED_TEMPLATES))
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(search),
        autoescape=False,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["py"] = py_literal
    env.filters["json"] = json_literal
    env.filters["ts_key"] = ts_key
    env.filters["members"] = members
    env.filters["json_pretty"] = json_pretty
    env.filters["yaml"] = yaml_document
    env.filters["upper_snake"] = lambda text: str(text).upper()
    env.filters["lower_first"] = lambda text: str(text)[:1].lower() + str(text)[1:]
    env.filters["comment"] = lambda text: in_comment(str(text))  # registry text in a comment
    env.filters["grpc_name"] = lambda number: grpc.NAMES[int(number)]  # google.rpc.Code's
    return env


def render(env: jinja2.Environment, template: str, **context: object) -> bytes:
    """Render one template to UTF-8 bytes with Unix newlines.

    A template that Jinja2 cannot read, or that fails while it is filled in (a name it uses
    does not exist), is bad input, not a bug of errorbook's: it may be a project's override
    or an edit to errorbook's own. That is an :class:`InvalidInput` naming the template's
    file and line, which also pickles back whole from a forked worker.

    Any other exception raised while a project's override runs (a filter given a value it
    cannot write, say) is the override's too; raised in errorbook's own templates, it is a
    bug of errorbook's and goes on as it is."""
    try:
        text = env.get_template(template).render(**context)
    except jinja2.TemplateSyntaxError as exc:
        raise _broken(exc, exc.filename, exc.lineno, template) from None
    except jinja2.TemplateError as exc:  # UndefinedError, TemplateNotFound, ...
        filename, line = _failed_at(env, exc)
        raise _broken(exc, filename, line, template) from None
    except ErrorbookError:  # errorbook's code, called by the template, said what is wrong
        raise
    except UnicodeDecodeError as exc:  # Jinja's loader read a template in another encoding
        raise _not_utf8(exc, template) from None
    except RecursionError as exc:  # nested deeper than Jinja2's parser, or the template, goes
        raise _broken(exc, _file_of(env, template), 1, template) from None
    except Exception as exc:
        filename, line = _failed_at(env, exc)
        if filename is None or _shipped(filename):
            raise
        raise _broken(exc, filename, line, template) from None
    return text.encode("utf-8")


def _file_of(env: jinja2.Environment, template: str) -> str | None:
    """The file ``template`` is read from, if the environment's loader says."""
    try:
        return env.loader.get_source(env, template)[1] if env.loader is not None else None
    except Exception:  # a template that cannot be found or read: none to name
        return None


def _not_utf8(exc: UnicodeDecodeError, template: str) -> InvalidInput:
    """The diagnostic of a template file that is not UTF-8, at the line of its first bad
    byte: the file is the one the loader was reading (an include's, maybe), else ``template``."""
    filename: str | None = None
    trace = exc.__traceback__
    while trace is not None:  # the innermost frame of Jinja's loader names the file
        found = trace.tb_frame.f_locals.get("filename")
        if isinstance(found, str) and trace.tb_frame.f_code.co_name == "get_source":
            filename = found
        trace = trace.tb_next
    line = exc.object[: exc.start].count(b"\n") + 1  # the loader decodes the whole file
    return invalid(
        "E-FILE-NOT-UTF8",
        Mark(_shown(filename, template), line, 1),
        f"the template is not valid UTF-8 (byte 0x{exc.object[exc.start]:02x})",
        "save the template as UTF-8",
    )


def _shown(filename: str | None, template: str) -> str:
    """How a diagnostic names a template file: relative to the working folder when it lies
    inside it, else absolute; ``template`` (its name) when the file is not known."""
    if not filename:
        return template
    path = os.path.abspath(filename)
    return os.path.relpath(path) if path.startswith(os.getcwd() + os.sep) else path


def _shipped(filename: str) -> bool:
    """Whether ``filename`` is one of errorbook's own templates."""
    return os.path.abspath(filename).startswith(str(SHIPPED_TEMPLATES.resolve()) + os.sep)


def _template_folders(env: jinja2.Environment) -> list[str]:
    loader = env.loader
    paths = loader.searchpath if isinstance(loader, jinja2.FileSystemLoader) else []
    return [os.path.abspath(path) for path in paths]


def _failed_at(env: jinja2.Environment, exc: BaseException) -> tuple[str | None, int]:
    """The template file and line a render failed at: Jinja2 rewrites the traceback of an
    error raised while a template runs so that its frames name the template and its lines;
    the innermost one in a template folder is where the author has to look."""
    folders = _template_folders(env)
    found: tuple[str | None, int] = (None, 1)
    trace = exc.__traceback__
    while trace is not None:
        name = os.path.abspath(trace.tb_frame.f_code.co_filename)
        if any(name.startswith(folder + os.sep) for folder in folders):
            found = (name, trace.tb_lineno)
        trace = trace.tb_next
    return found


def _broken(exc: Exception, filename: str | None, line: int | None, template: str) -> InvalidInput:
    """The diagnostic of a template that failed: where, what Jinja2 (or the code the
    template called) said, and what to do, which depends on whose template it is."""
    path = os.path.abspath(filename) if filename else None
    shown = _shown(filename, template)
    if path is not None and _shipped(path):
        hint = "this is one of errorbook's own templates: fix it, or restore errorbook's copy"
    else:
        hint = "fix the template, or remove it to use errorbook's own"
    if isinstance(exc, jinja2.TemplateSyntaxError):
        id, what = "E-TEMPLATE-SYNTAX", "the template is not valid Jinja2"
    else:
        id, what = "E-TEMPLATE-RENDER", "the template failed while it was filled in"
    if isinstance(exc, jinja2.TemplateError):
        said = exc.message or type(exc).__name__
    else:
        said = f"{type(exc).__name__}: {exc}"
    message = " ".join(str(said).split())
    return invalid(id, Mark(shown, max(1, line or 1), 1), f"{what}: {message}", hint)
