"""Convert PostgreSQL's errcodes.txt into an errorbook registry, codes.yaml.

    python convert.py            # writes codes.yaml beside this file
    python convert.py --check    # exit 1 when codes.yaml is not what errcodes.txt gives

Standard library only. Every word in codes.yaml comes from errcodes.txt, except where
errorbook requires a value the source does not have; those places are the constants below
marked REQUIRED, and README.md lists them.

- A section line, "Section: Class 22 - Data Exception", becomes the layer `class_22`, titled
  with the class's name ("Data Exception"). Its `proves` is the section text as written
  ("Class 22 - Data Exception"); its `description` is the comment lines between the section
  line and the first code line, or the section text again when there are none.
- A code line, "22012 E ERRCODE_DIVISION_BY_ZERO division_by_zero", becomes the code
  ERRCODE_DIVISION_BY_ZERO with the fields `sqlstate`, `severity` and, when the line has one,
  `spec_name`. The code is named by its macro because the macro is the only name every line
  has and no two lines share: six lines have no spec_name, and five spec_names are used by
  two lines each (null_value_not_allowed is 22004 and 39004).
- Its message is its spec_name, else its macro name: the source has no message text, and
  errorbook requires a non-empty message for a code without sub-codes.
- Its title is its spec_name as words ("division_by_zero" is "Division by zero"), with the
  words PostgreSQL writes in capitals in capitals (CAPITALS); a line without a spec_name
  gives no title.
- Lines that share a SQLSTATE (ERRCODE_UNDEFINED_DATABASE and ERRCODE_INVALID_CATALOG_NAME
  are both 3D000) name each other in `related`.
- Other comments (inside a class, or the file's header) are not carried over.
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "errcodes.txt"
TARGET = HERE / "codes.yaml"

# Values errorbook requires that errcodes.txt does not give (README.md, "What is not from
# the source").
VERSION = "1.0.0"  # REQUIRED: registry.version must be MAJOR.MINOR.PATCH
DOCS_URL = "https://example.invalid/postgresql/errors/"  # REQUIRED: where the site would live
NAME = "postgresql"  # REQUIRED: a machine name for the registry
PACKAGE = "postgresql_errors"  # REQUIRED: the generated package's import name
SEVERITY = "severity"  # REQUIRED: the source calls this field "E/W/S", which is no key

#: Words of condition names as PostgreSQL writes them in prose (errcodes.txt's own section
#: lines have "SQL" and "PL/pgSQL"): a title keeps each word and only sets its case.
CAPITALS = {
    "c": "C",
    "fdw": "FDW",
    "io": "IO",
    "json": "JSON",
    "plpgsql": "PL/pgSQL",
    "sql": "SQL",
    "sqlstate": "SQLSTATE",
    "srf": "SRF",
    "xml": "XML",
}

SECTION = re.compile(r"Section: Class (?P<cls>[0-9A-Z]{2}) - (?P<title>.+)")
CODE = re.compile(
    r"(?P<sqlstate>[0-9A-Z]{5})\s+(?P<severity>[EWS])\s+(?P<macro>ERRCODE_[A-Z0-9_]+)"
    r"(?:\s+(?P<spec>[a-z0-9_]+))?"
)
HEADER = re.compile(r"#\s*(?P<text>.*)")


@dataclass
class Code:
    macro: str
    sqlstate: str
    severity: str
    spec_name: str | None
    line: int


@dataclass
class Layer:
    cls: str
    section: str  # "Class 22 - Data Exception"
    title: str  # "Data Exception"
    comments: list[str] = field(default_factory=list)
    codes: list[Code] = field(default_factory=list)


def parse(text: str) -> tuple[str, list[Layer]]:
    """The file's title (its third line) and its classes, in the file's order."""
    lines = text.splitlines()
    title = HEADER.fullmatch(lines[2])
    if title is None:
        raise SystemExit(f"{SOURCE.name}:3: expected the file's title comment")
    layers: list[Layer] = []
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        section = SECTION.fullmatch(line)
        if section is not None:
            text_ = line.removeprefix("Section: ")
            layers.append(Layer(section["cls"], text_, section["title"]))
            continue
        comment = HEADER.fullmatch(line)
        if comment is not None:
            # Only a class's leading comments are its own; the rest are about single lines.
            if layers and not layers[-1].codes and comment["text"]:
                layers[-1].comments.append(comment["text"])
            continue
        code = CODE.fullmatch(line)
        if code is None or not layers:
            raise SystemExit(f"{SOURCE.name}:{number}: not a code, section or comment line")
        # Class 42 also lists aliases of 34000, 3D000, 26000 and 3F000: kept where they are.
        layers[-1].codes.append(
            Code(code["macro"], code["sqlstate"], code["severity"], code["spec"], number)
        )
    return title["text"], layers


def title_of(spec_name: str) -> str:
    """A condition name as a title: "division_by_zero" is "Division by zero"."""
    words = [CAPITALS.get(word, word) for word in spec_name.split("_")]
    words[0] = words[0][:1].upper() + words[0][1:]
    return " ".join(words)


def q(value: str) -> str:
    """A YAML scalar for ``value``: a JSON string is a valid YAML double-quoted scalar."""
    return json.dumps(value, ensure_ascii=False)


def render(title: str, layers: list[Layer]) -> str:
    codes = [c for layer in layers for c in layer.codes]
    macros = [c.macro for c in codes]
    if len(set(macros)) != len(macros):
        raise SystemExit(f"{SOURCE.name}: a macro name is used twice")
    by_state: dict[str, list[str]] = defaultdict(list)
    for c in codes:
        by_state[c.sqlstate].append(c.macro)

    out = [
        "# generated by examples/postgresql/convert.py from errcodes.txt; run it to update",
        "registry:",
        f"  name: {NAME}",
        "  title: PostgreSQL",
        f"  version: {VERSION}",
        f"  package: {PACKAGE}",
        "  source_locale: en",
        "  locales: []",
        f"  docs_url: {q(DOCS_URL)}",
        f"  description: {q(title)}",
        "",
        "fields:",
        "  sqlstate:",
        "    type: string",
        "    pattern: '[0-9A-Z]{5}'",
        "    required: true",
        "    column: true",
        '    description: "a five-character string following the SQLSTATE conventions"',
        f"  {SEVERITY}:",
        "    type: choice",
        "    values: [E, W, S]",
        "    required: true",
        "    column: true",
        '    description: "E/W/S: indicates if the code means an error, a warning or success"',
        "  spec_name:",
        "    type: string",
        "    pattern: '[a-z][a-z0-9_]*'",
        "    description: >-",
        "      a lowercase, underscore-separated name that will be used as the PL/pgSQL",
        "      condition name",
        "",
        "layers:",
    ]
    for layer in layers:
        description = " ".join(layer.comments) if layer.comments else layer.section
        out += [
            f"  class_{layer.cls.lower()}:",
            f"    title: {q(layer.title)}",
            f"    proves: {q(layer.section)}",
            f"    description: {q(description)}",
        ]
    out += ["", "codes:"]
    for layer in layers:
        for c in layer.codes:
            out += [
                f"  {c.macro}:",
                f"    layer: class_{layer.cls.lower()}",
                f"    message: {q(c.spec_name or c.macro)}",
                *([f"    title: {q(title_of(c.spec_name))}"] if c.spec_name else []),
                f"    sqlstate: {q(c.sqlstate)}",
                f"    {SEVERITY}: {c.severity}",
            ]
            if c.spec_name:
                out.append(f"    spec_name: {c.spec_name}")
            others = [m for m in by_state[c.sqlstate] if m != c.macro]
            if others:
                out.append(f"    related: [{', '.join(others)}]")
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    title, layers = parse(SOURCE.read_text(encoding="utf-8"))
    text = render(title, layers)
    if "--check" in argv:
        if TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET.name} is not what {SOURCE.name} gives; run convert.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
