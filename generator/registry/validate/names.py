"""What a name may be, and what a reference must name.

Code names become Python attributes, file names and URL segments, so they are checked here
before anything else reads them; a reference to an undefined entry gets a suggestion.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Collection
from dataclasses import dataclass

from ...diagnostics import Diagnostics, Mark
from ...names import TEMPORARY_EXTRA, one_line
from ...suggest import closest, suggest
from .. import regex
from ..fields import IDENTIFIER, Fields, entries
from ..loader import Mapping, Node, Scalar
from ..model import TITLE_PART, identifier, slug

#: The longest file name, in bytes, that common file systems allow (ext4, APFS, NTFS).
MAX_FILE_NAME = 255

CODE_NAME = re.compile(r"[A-Z][A-Z0-9]*(_[A-Z0-9]+)*\Z")

MAX_CODE_LENGTH = 64

#: The longest name 'registry.naming.max_length' may allow: a code's page is a file named
#: after it, and file systems allow 255 bytes in a name.
MAX_NAMING_LENGTH = 250


@dataclass(frozen=True)
class Naming:
    """The registry's naming rule ('registry.naming'): a pattern each dot-separated part of
    a code name must match in full (None: SCREAMING_SNAKE_CASE) and the longest name."""

    pattern: regex.Regex | None = None
    max_length: int = MAX_CODE_LENGTH

    def fits(self, part: str) -> bool:
        """Whether one dot-separated part of a name follows the rule."""
        if self.pattern is None:
            return CODE_NAME.match(part) is not None
        return part != "" and self.pattern.fullmatch(part)

    def accepts(self, name: str) -> bool:
        return len(name) <= self.max_length and all(self.fits(p) for p in name.split("."))


#: Keyword parameters of the generated functions that also take a code's placeholders as
#: keyword arguments (failure(), to_problem(), to_error_details() and the like). A placeholder
#: of one of these names cannot be a keyword argument there, nor can one named with a Python
#: keyword; its value travels in the ``params`` mapping those functions take, so every such
#: name is accepted. tests/registry/test_validate.py checks this list against the generated
#: signatures.
RESERVED_PLACEHOLDERS = ("instance", "locale", "message", "params")

#: Keyword parameters of those same functions that fill a placeholder of the same name (the
#: request id in a message is the one the envelope carries).
SHARED_PLACEHOLDERS = ("request_id",)


def section(
    top: Fields,
    name: str,
    what: str,
    found: Diagnostics,
    naming: Naming | None = None,
    misnamed: set[str] | None = None,
) -> list[tuple[Scalar, Node]]:
    """Every entry of the section ``name``, each name defined once. An entry whose name breaks
    the rules is reported and still returned, so that its own problems show in the same run
    and a reference to it is not taken for a reference to nothing; its name is added to
    ``misnamed``."""
    node = top.node(name)
    if node is None:
        return []
    pairs = entries(node, what, found)
    if not pairs and isinstance(node, Mapping):
        found.error(
            "E-SCHEMA-EMPTY-SECTION", node.mark, f"'{name}' is empty", f"define at least one {what}"
        )
    taken = {key.value for key, _ in pairs}
    for key, _ in pairs:
        if what == "code":
            ok = code_name_ok(key, found, naming or Naming(), taken)
        else:
            ok = IDENTIFIER.match(key.value) is not None
            if not ok:
                found.error(
                    "E-NAME-ID",
                    key.mark,
                    f"{what} id '{key.value}' is not a lower-case identifier",
                    "use a-z, 0-9 and '_', such as 'storage_network'",
                )
        if not ok and misnamed is not None:
            misnamed.add(key.value)
    return pairs


def _free(candidates: list[str], naming: Naming, taken: set[str]) -> str | None:
    """The first candidate name that follows the rule and is not taken in the registry nor
    suggested already for another code: a hint never suggests a name that would be a second
    problem. The name chosen is added to ``taken``."""
    for candidate in candidates:
        if (
            candidate
            and candidate not in taken
            and naming.accepts(candidate)
            and not (naming.pattern is None and keyword.iskeyword(candidate.lower()))
        ):
            taken.add(candidate)
            return candidate
    return None


def _specific(name: str, naming: Naming, taken: set[str]) -> str:
    better = _free([f"{name}_{word}" for word in ("FAILED", "ERROR", "REFUSED")], naming, taken)
    return f"choose a more specific name, such as {better}" if better else "choose another name"


def _screaming(part: str) -> str:
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", part)  # camelCase -> camel_Case
    return re.sub(r"[^A-Za-z0-9]+", "_", words).strip("_").upper()


def code_name_ok(
    key: Scalar, found: Diagnostics, naming: Naming | None = None, taken: set[str] | None = None
) -> bool:
    """Whether a code's name follows the registry's naming rule; a problem is reported at
    the name, which is always shown whole. A name a hint suggests is added to ``taken``."""
    naming = naming or Naming()
    taken = set() if taken is None else taken
    name = key.value
    hidden = next((char for char in name if not char.isprintable()), None)
    if hidden is not None:
        found.error(
            "E-NAME-CODE-CONTROL",
            key.mark,
            f"code name '{one_line(name)}' holds the character U+{ord(hidden):04X}, which "
            "no name may hold (a control, format or separator character)",
            "remove it; names are written into catalogs, code and file names, on one line",
        )
        return False
    parts = name.split(".")
    wrong = next((part for part in parts if not naming.fits(part)), None)
    if wrong is not None:
        where = f" in its part '{wrong}'" if len(parts) > 1 else ""
        if wrong == "":
            problem = "is empty" if name == "" else "has an empty part between dots"
            hint = "write a name between every two dots" if name else "write a name"
        elif naming.pattern is None:
            fixed = _free([".".join(_screaming(p) for p in parts)], naming, taken)
            problem = f"is not SCREAMING_SNAKE_CASE{where}"
            hint = (
                f"write it as {fixed}"
                if fixed
                else "use upper-case letters, digits and single '_' between words"
            )
        else:
            problem = (
                f"does not match the registry's naming pattern '{naming.pattern.pattern}'{where}"
            )
            hint = (
                "rename it so that each part between dots matches that pattern in full, "
                "or change 'registry.naming.pattern'"
            )
        found.error(
            "E-NAME-CODE-CASE" if naming.pattern is None else "E-NAME-CODE-PATTERN",
            key.mark,
            f"code name '{name}' {problem}",
            hint,
        )
        return False
    if naming.pattern is None and keyword.iskeyword(name.lower()):
        found.error(
            "E-NAME-CODE-KEYWORD",
            key.mark,
            f"code name '{name}' is the Python keyword '{name.lower()}' once lower-cased",
            _specific(name, naming, taken),
        )
        return False
    if len(name) > naming.max_length:
        found.error(
            "E-NAME-CODE-TOO-LONG",
            key.mark,
            f"code name '{name}' is {len(name)} characters long, more than the "
            f"{naming.max_length} allowed",
            "choose a shorter name"
            if naming.max_length >= MAX_NAMING_LENGTH
            else "choose a shorter name, or raise 'registry.naming.max_length'",
        )
        return False
    page = slug(name) + ".md"
    if len(page.encode("utf-8")) + TEMPORARY_EXTRA > MAX_FILE_NAME:
        found.error(
            "E-NAME-CODE-FILE-NAME",
            key.mark,
            f"code name '{name}' makes a page named {page}, {len(page.encode('utf-8'))} bytes "
            f"long: with errorbook's temporary files beside it, more than the {MAX_FILE_NAME} "
            "bytes a file name may have",
            "choose a shorter name"
            + (
                ""
                if naming.max_length == MAX_CODE_LENGTH
                else ", or lower 'registry.naming.max_length'"
            ),
        )
        return False
    return True


def check_hierarchy(
    node: Node | None,
    every_code: list[tuple[Scalar, Node]],
    found: Diagnostics,
    misnamed: Collection[str] = (),
) -> set[str]:
    """Every sub-code's parent exists, and no two codes share an identifier or a page.
    Returns the names of the codes that have sub-codes. What a name that breaks the rules
    would mean (its parent, its identifier, its page) is not checked: its name is reported
    already, and a second problem would only repeat it."""
    every = {key.value for key, _ in node.pairs} if isinstance(node, Mapping) else set()
    parents = {key.value.rpartition(".")[0] for key, _ in every_code} & every
    codes = [(key, value) for key, value in every_code if key.value not in misnamed]
    names = [key.value for key, _ in codes]
    for key, _ in codes:
        parent, _, last = key.value.rpartition(".")
        if parent and last == TITLE_PART:
            found.error(
                "E-NAME-CODE-RESERVED",
                key.mark,
                f"code {key.value} would share its catalog entry with the title of code "
                f"{parent}, whose translators' context is '{parent}.{TITLE_PART}'",
                f"rename it: the last part of a sub-code's name may not be '{TITLE_PART}'",
            )
        if not parent or parent in every:
            continue
        near = closest(parent, names)
        instead = f"{near}.{last}"
        found.error(
            "E-NAME-CODE-PARENT",
            key.mark,
            f"code {key.value} is a sub-code of {parent}, but no code {parent} is defined",
            f"did you mean {instead}?"
            if near is not None and instead not in every
            else f"define the code {parent}, or rename {key.value}",
        )
    for what, derive, error, rule in (
        (
            "Python and TypeScript identifier {}",
            identifier,
            "E-NAME-CODE-IDENTIFIER",
            "an identifier reads '.' as '__' and any other character but letters, digits "
            "and '_' as '_'",
        ),
        (
            "reference page codes/{}.md",
            slug,
            "E-NAME-CODE-SLUG",
            "a page's address ignores case and reads any character but letters, digits, "
            "'.', '_' and '-' as '-'",
        ),
    ):
        first: dict[str, Scalar] = {}
        for key, _ in codes:
            value = derive(key.value)
            other = first.setdefault(value, key)
            if other is not key:
                found.error(
                    error,
                    key.mark,
                    f"code {key.value} (line {key.mark.line}) and code {other.value} (line "
                    f"{other.mark.line}) would have the same {what.format(value)}",
                    f"rename one of the two: {rule}",
                )
    return parents


#: The diagnostic id of a reference to an entry that is not defined, by the kind of entry.
UNKNOWN = {
    "code": "E-REF-UNKNOWN-CODE",
    "layer": "E-REF-UNKNOWN-LAYER",
    "limit": "E-REF-UNKNOWN-LIMIT",
    "actor": "E-REF-UNKNOWN-ACTOR",
    "shape": "E-REF-UNKNOWN-SHAPE",
    "recovery kind": "E-REF-UNKNOWN-RECOVERY-KIND",
}


def reference_ok(
    value: str,
    mark: Mark,
    known: tuple[str, ...],
    what: str,
    field: str,
    where: str,
    found: Diagnostics,
    itself: str | None = None,
) -> bool:
    """Whether ``value`` is one of ``known``; else an error with the nearest names, never
    ``itself`` (a code's own name, which it may not name)."""
    if value in known:
        return True
    candidates = known if itself is None else tuple(x for x in known if x != itself)
    found.error(
        UNKNOWN[what],
        mark,
        f"{where} names {what} '{value}' in '{field}', but no such {what} is defined",
        suggest(value, candidates, what) if candidates else f"define the {what} first",
    )
    return False
