"""What a name may be, and what a reference must name.

Code names become Python attributes, file names and URL segments, so they are checked here
before anything else reads them; a reference to an undefined entry gets a suggestion.
"""

from __future__ import annotations

import keyword
import re

from ...diagnostics import Diagnostics, Mark
from ..fields import IDENTIFIER, Fields, entries
from ..loader import Mapping, Node, Scalar
from ..suggest import suggest

CODE_NAME = re.compile(r"[A-Z][A-Z0-9]*(_[A-Z0-9]+)*\Z")

MAX_CODE_LENGTH = 64

#: Lower-cased code names whose page (codes/<name>.md) is already a page of the site: the
#: docs URL every runtime links to (codes/<name>/) could never show that code.
TAKEN_PAGES = {"index": "table of all codes"}

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


def section(top: Fields, name: str, what: str, found: Diagnostics) -> list[tuple[Scalar, Node]]:
    node = top.node(name)
    if node is None:
        return []
    pairs = entries(node, what, found)
    if not pairs and isinstance(node, Mapping):
        found.error(
            "E-SCHEMA-EMPTY-SECTION", node.mark, f"'{name}' is empty", f"define at least one {what}"
        )
    pattern = CODE_NAME if what == "code" else IDENTIFIER
    valid = []
    for key, value in pairs:
        if what == "code":
            if not code_name_ok(key, found):
                continue
        elif not pattern.match(key.value):
            found.error(
                "E-NAME-ID",
                key.mark,
                f"{what} id '{key.value}' is not a lower-case identifier",
                "use a-z, 0-9 and '_', such as 'storage_network'",
            )
            continue
        valid.append((key, value))
    return valid


def code_name_ok(key: Scalar, found: Diagnostics) -> bool:
    name = key.value
    if not CODE_NAME.match(name):
        words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)  # camelCase -> camel_Case
        fixed = re.sub(r"[^A-Za-z0-9]+", "_", words).strip("_").upper()
        hint = (
            f"write it as {fixed}"
            if fixed and CODE_NAME.match(fixed)
            else "use upper-case letters, digits and single '_' between words"
        )
        found.error(
            "E-NAME-CODE-CASE", key.mark, f"code name '{name}' is not SCREAMING_SNAKE_CASE", hint
        )
        return False
    if keyword.iskeyword(name.lower()):
        found.error(
            "E-NAME-CODE-KEYWORD",
            key.mark,
            f"code name '{name}' is the Python keyword '{name.lower()}' once lower-cased",
            f"choose a more specific name, such as {name}_FAILED",
        )
        return False
    if name.lower() in TAKEN_PAGES:
        found.error(
            "E-NAME-CODE-PAGE",
            key.mark,
            f"code name '{name}' would put its reference page at codes/{name.lower()}.md, "
            f"which is the site's {TAKEN_PAGES[name.lower()]}",
            f"choose a more specific name, such as {name}_FAILED",
        )
        return False
    if len(name) > MAX_CODE_LENGTH:
        found.error(
            "E-NAME-CODE-TOO-LONG",
            key.mark,
            f"code name '{name[:20]}...' is longer than {MAX_CODE_LENGTH} characters",
            "choose a shorter name",
        )
        return False
    return True


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
) -> bool:
    if value in known:
        return True
    found.error(
        UNKNOWN[what],
        mark,
        f"{where} names {what} '{value}' in '{field}', but no such {what} is defined",
        suggest(value, known) if known else f"define the {what} first",
    )
    return False
