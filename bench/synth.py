"""Synthetic errorbook projects for the benchmark.

A project is a folder with a ``pyproject.toml`` (``[tool.errorbook]``: registry and
python-out only, so no site and no TypeScript module; with ``site=True`` also ``site``, so that
``errorbook generate`` writes the MkDocs site too) and a valid ``codes.yaml`` of N codes and L
target locales (the first L of ``LOCALES``, or the ones a ``Size`` names). The prose is
varied (sentences of 10 to 40 words built from a vocabulary), codes have 0 to 3 placeholders
with descriptions and examples, and about one in five has a plural message counted by an
integer placeholder.

``translate_catalogs`` fills the PO files that ``errorbook generate`` started with plausible
fake translations (pseudo-words in each language's script) for about 95% of the entries,
keeping every ``{placeholder}`` and filling every plural form, so that a later merge has real
work to do. ``reword`` changes the wording of a share of the messages, as an edit of the
registry would.

Everything is deterministic for a given seed.

    python bench/synth.py DIR --codes 1000 --locales 10      # registry only
    python bench/synth.py DIR --codes 1000 --locales 10 --translate
    python bench/synth.py DIR --codes 1000 --tags de,ja --site --translate
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

#: Target locales errorbook's plural table knows, in the order sizes take them.
LOCALES = (
    "de", "fr", "es", "ja", "pl", "ru", "zh", "ar", "it", "pt",
    "nl", "sv", "da", "nb", "fi", "cs", "sk", "uk", "ko", "tr",
    "hu", "ro", "el", "he", "lt", "lv", "sl", "hr", "bg", "et",
)  # fmt: skip

PYPROJECT = """\
[project]
name = "synthetic-errors"
version = "0.0.0"

[tool.errorbook]
registry = "codes.yaml"
python-out = "out"
"""
#: The same, with a site: ``errorbook generate`` also writes site/ (pages and mkdocs.*.yml).
PYPROJECT_SITE = PYPROJECT + 'site = "site"\n'
#: The hand-written MkDocs settings every language inherits: those of errorbook's own site.
BASE_CONFIG = Path(__file__).resolve().parent.parent / "site" / "mkdocs.base.yml"


# --- vocabulary --------------------------------------------------------------------------

NOUNS = (
    "request", "session", "payment", "upload", "report", "invoice", "subscription",
    "account", "order", "export", "import job", "backup", "certificate", "access token",
    "webhook", "workspace", "project", "dataset", "message", "build", "deployment",
    "license", "profile", "document", "archive", "calendar entry", "shipment", "refund",
    "coupon", "search index", "draft", "comment", "attachment", "invitation", "API key",
    "schedule", "template", "form", "checkout", "transfer", "snapshot", "audit log",
)  # fmt: skip
PAST = (
    "saved", "processed", "verified", "delivered", "renewed", "restored", "validated",
    "synchronized", "published", "scheduled", "archived", "approved", "exported", "loaded",
    "started", "completed", "updated", "created", "sent", "opened", "imported", "signed",
)  # fmt: skip
REASONS = (
    "the service that stores it did not answer in time",
    "the data it refers to has changed since it was opened",
    "your permissions do not cover this operation",
    "the connection was closed before the transfer finished",
    "another change to the same item was saved first",
    "the configured limit for this workspace has been reached",
    "a required setting is missing from the deployment",
    "the remote system rejected the credentials it was given",
    "the file is larger than the deployment allows",
    "the item was removed by someone else a moment ago",
    "the page no longer offers this step",
    "the provider is temporarily refusing new work",
    "its signature could not be checked against a trusted key",
    "the value entered does not match the expected format",
    "the plan attached to this account does not include it",
    "maintenance is running on the storage cluster",
)  # fmt: skip
FOLLOW_UPS = (
    "Please try again in a few minutes.",
    "Check the details and send it again.",
    "Ask an administrator to review the configuration.",
    "No changes were saved.",
    "Nothing was charged to your account.",
    "The previous version is still available.",
    "Contact support if the problem persists.",
    "Your other work is not affected.",
    "Reload the page to see the current state before you continue.",
    "You can keep working while this is sorted out.",
    "The details have been recorded for the team that runs this service.",
    "If you started this by mistake, you can simply close this message.",
)  # fmt: skip
COMPONENTS = (
    "runtime", "gateway", "page", "scheduler", "storage service", "billing system",
    "identity provider", "search cluster", "job runner", "notification service",
    "model provider", "upload service", "policy engine", "cache", "queue",
)  # fmt: skip
CONDITIONS = (
    "before the deadline the caller set",
    "while another operation held a lock on the same record",
    "because the input failed the declared schema",
    "after its credentials had expired",
    "because the deployment's limit was already reached",
    "without the precondition the action declares",
    "while the dependency it needs was unavailable",
    "for a resource that no longer exists",
)  # fmt: skip
CONSEQUENCES = (
    "Nothing was changed, so the same request can be sent again once the cause is fixed.",
    "The operation may have done part of its work, and the caller cannot tell how much.",
    "The caller has to change the request; sending it again unchanged fails the same way.",
    "The failure is temporary and usually clears without anyone acting.",
    "An operator has to act before any request of this kind can succeed.",
    "The person using the page decided this, so it is not a fault to report.",
)  # fmt: skip
IMPERATIVES = ("Check", "Verify", "Ask", "Reduce", "Wait for", "Open", "Restart", "Compare",
               "Update", "Remove", "Review", "Read", "Renew", "Refresh")  # fmt: skip
STEP_OBJECTS = (
    "the settings named in the message",
    "the status page of the provider",
    "the size of the request",
    "the credentials stored for this integration",
    "the page description",
    "the permissions of the account",
    "the limit configured for the workspace",
    "the log entry with the same request id",
    "the version the client announces",
)  # fmt: skip
STEP_TAILS = (
    "and then send the request again.",
    "before you try anything else.",
    "so that the next attempt can succeed.",
    "with the person who owns the page.",
    "and keep the request id for the report.",
    "until the deployment reports it as healthy.",
)  # fmt: skip
AVOIDS = (
    "Sending the same request again without changing it.",
    "Retrying in a tight loop without waiting between attempts.",
    "Reporting the operation as done to the person.",
    "Working around the guard by other means.",
    "Guessing a value that the user did not provide.",
    "Dropping the request id when the request is retried.",
)  # fmt: skip
RATIONALES = (
    "Without this code callers would see a generic failure and could not tell which party has "
    "to act.",
    "Keeping this case apart from its neighbours lets a client decide whether a retry can ever "
    "succeed.",
    "Operators asked for a distinct code so that dashboards can count this failure on its own.",
)  # fmt: skip
SYNONYMS = {
    "could not": "was not able to",
    "because": "since",
    "Please try": "Try",
    "again": "once more",
    "changed": "been modified",
    "the": "this",
}

#: Text placeholders: name, description, example, how a message mentions it.
TEXT_PLACEHOLDERS = (
    ("action", "Name of the action the caller asked for.", "export_report", "while running {}"),
    ("field", "Path of the parameter that failed validation.", "billing.address.zip",
     "for the field {}"),
    ("region", "The data-centre region that handled the request.", "eu-west-1", "in region {}"),
    ("holder", "Display name of the person who holds the lock.", "Dana Whitfield", "held by {}"),
    ("path", "Path of the file as the user named it.", "reports/2024/q3.csv", "at {}"),
    ("resource", "Identifier of the affected resource.", "inv_8F2K", "for {}"),
    ("provider", "Name of the upstream provider.", "Northwind Payments", "from {}"),
    ("version", "The protocol version the client sent.", "2024-11-05", "with version {}"),
    ("workspace", "Name of the workspace.", "Marketing EU", "in the workspace {}"),
    ("deadline", "The time by which the step had to finish.", "14:30 UTC", "before {}"),
    ("plan", "Name of the subscription plan.", "Team Plus", "on the plan {}"),
    ("setting", "Name of the configured setting.", "llm_timeout", "as set by {}"),
)  # fmt: skip
#: Integer placeholders shown without choosing a plural form.
INT_PLACEHOLDERS = (
    ("status", "The HTTP status the provider answered with.", 502, "with status {}"),
    ("size_mb", "Size of the upload in megabytes.", 512, "of {} MB"),
)
#: Count placeholders: name, description, example, position, singular unit, plural unit.
COUNTS = (
    ("seconds", "How long the runtime waited.", 30, "within", "second", "seconds"),
    ("minutes", "How long the job was allowed to run.", 15, "within", "minute", "minutes"),
    ("attempts", "How many attempts were made.", 5, "after", "attempt", "attempts"),
    ("retries", "How many retries were made.", 3, "after", "retry", "retries"),
    ("files", "Number of files that were skipped.", 12, "lead", "file", "files"),
    ("rows", "Number of rows that failed the check.", 40, "lead", "row", "rows"),
)  # fmt: skip

LAYERS = (
    ("configuration", "Configuration", "deployment", "protocol",
     "The runtime cannot yet make a valid request."),
    ("protocol", "Protocol", "client", "protocol",
     "The caller and the service did not agree on a valid exchange."),
    ("execution", "Execution", "page", "action",
     "The request reached the page but did not produce an accepted result."),
    ("storage", "Storage", "page", "action",
     "The data the action needs could not be read or written."),
    ("provider", "Provider", "provider", "protocol",
     "An upstream provider did not return a usable response."),
)  # fmt: skip
#: The actors the layers name, once each, in order.
ACTORS = tuple(dict.fromkeys(actor for _, _, actor, _, _ in LAYERS))
RECOVERY_KINDS = (
    "fix_configuration",
    "fix_client",
    "reread_page",
    "satisfy_precondition",
    "correct_input",
    "ask_user",
    "inspect_page",
    "report_to_page",
    "retry_later",
)
SUBJECTS = (
    "ACCOUNT",
    "SESSION",
    "PAYMENT",
    "UPLOAD",
    "REPORT",
    "INVOICE",
    "ORDER",
    "EXPORT",
    "TOKEN",
    "WEBHOOK",
    "WORKSPACE",
    "DATASET",
    "BUILD",
    "LICENSE",
    "PROFILE",
    "QUOTA",
    "SHIPMENT",
    "REFUND",
    "SEARCH",
    "SCHEDULE",
    "TEMPLATE",
    "ARCHIVE",
    "BACKUP",
)
STATES = (
    "EXPIRED",
    "LOCKED",
    "MISSING",
    "REJECTED",
    "TIMEOUT",
    "CONFLICT",
    "INVALID",
    "UNAVAILABLE",
    "TOO_LARGE",
    "NOT_FOUND",
    "DENIED",
    "STALE",
    "EXHAUSTED",
)


# --- the model -------------------------------------------------------------------------


@dataclass(frozen=True)
class Placeholder:
    name: str
    description: str
    example: str | int
    integer: bool = False


@dataclass(frozen=True)
class CodeSpec:
    name: str
    layer: str
    protocol: bool
    message: str  # the singular form of a plural message
    plural: str | None  # the other form
    count: str | None
    placeholders: tuple[Placeholder, ...]
    meaning: str
    rationale: str | None
    steps: tuple[str, ...]
    avoid: tuple[str, ...]
    kind: str
    retry: str
    limit: str | None
    related: tuple[str, ...]
    since: str
    agent_hint: str | None
    http: int | None
    jsonrpc: int | None


@dataclass(frozen=True)
class Size:
    codes: int
    locales: int
    chosen: tuple[str, ...] = ()  # the target locales by name; default: LOCALES[:locales]

    @classmethod
    def of(cls, codes: int, tags: Sequence[str]) -> Size:
        """``codes`` codes and the target locales ``tags`` (each one of ``LOCALES``)."""
        unknown = [tag for tag in tags if tag not in LOCALES]
        if unknown or len(set(tags)) != len(tags):
            raise ValueError(f"target locales must be distinct ones of {', '.join(LOCALES)}")
        return cls(codes, len(tags), tuple(tags))

    @property
    def label(self) -> str:
        named = "".join(f"-{tag}" for tag in self.chosen)
        return f"{self.codes}x{self.locales}{named}"

    @property
    def package(self) -> str:
        return f"synth{self.codes}x{self.locales}_errors"

    @property
    def tags(self) -> tuple[str, ...]:
        if self.chosen:
            return self.chosen
        if self.locales > len(LOCALES):
            raise ValueError(f"at most {len(LOCALES)} locales")
        return LOCALES[: self.locales]

    @classmethod
    def parse(cls, text: str) -> Size:
        codes, _, locales = text.lower().partition("x")
        return cls(int(codes), int(locales))


@dataclass
class Registry:
    size: Size
    codes: list[CodeSpec] = field(default_factory=list)
    limits: list[tuple[str, str, int, str, int, int, str]] = field(default_factory=list)


def _words(text: str) -> int:
    return len(text.split())


def _sentence(rng: random.Random, parts: Sequence[str], low: int, high: int) -> str:
    """Join ``parts``, then add follow-up sentences until the text has ``low`` words or more,
    never more than ``high``."""
    text = " ".join(parts)
    extras = list(FOLLOW_UPS)
    rng.shuffle(extras)
    for extra in extras:
        if _words(text) >= low:
            break
        if _words(text) + _words(extra) <= high:
            text += " " + extra
    return text


def _message(
    rng: random.Random, placeholders: Sequence[Placeholder], phrases: Sequence[str]
) -> str:
    noun, verb = rng.choice(NOUNS), rng.choice(PAST)
    clause = f"The {noun} could not be {verb}"
    for phrase in phrases:
        clause += " " + phrase
    if rng.random() < 0.7:
        clause += f" because {rng.choice(REASONS)}"
    return _sentence(rng, [clause + "."], 10, 40)


def _plural(
    rng: random.Random, count: tuple[str, str, int, str, str, str], phrases: Sequence[str]
) -> tuple[str, str]:
    name, _, _, position, one, other = count
    noun, verb = rng.choice(NOUNS), rng.choice(PAST)
    rest = "".join(" " + p for p in phrases)
    reason = f" because {rng.choice(REASONS)}" if rng.random() < 0.6 else ""
    if position == "lead":
        single = "One" if rng.random() < 0.3 else f"{{{name}}}"
        forms = (
            f"{single} {one} could not be {verb}{rest}{reason}.",
            f"{{{name}}} {other} could not be {verb}{rest}{reason}.",
        )
    else:
        forms = (
            f"The {noun} could not be {verb}{rest} {position} {{{name}}} {one}{reason}.",
            f"The {noun} could not be {verb}{rest} {position} {{{name}}} {other}{reason}.",
        )
    follow = _sentence(rng, [forms[1]], 10, 40)[len(forms[1]) :]
    return forms[0] + follow, forms[1] + follow


def _meaning(rng: random.Random) -> str:
    first = (
        f"The {rng.choice(COMPONENTS)} refused the {rng.choice(NOUNS)} {rng.choice(CONDITIONS)}."
    )
    return _sentence(rng, [first, rng.choice(CONSEQUENCES)], 10, 40)


def _step(rng: random.Random) -> str:
    return f"{rng.choice(IMPERATIVES)} {rng.choice(STEP_OBJECTS)} {rng.choice(STEP_TAILS)}"


def build(size: Size, seed: int = 7) -> Registry:
    """The registry of ``size`` as data (``render`` turns it into YAML)."""
    rng = random.Random(f"{seed}:{size.label}")
    registry = Registry(size)
    for i in range(max(5, size.codes // 100)):
        low = rng.choice((1, 1, 5, 10))
        high = low * rng.choice((10, 20, 60))
        registry.limits.append(
            (
                f"limit_{i:03d}",
                f"{rng.choice(NOUNS).capitalize()} {rng.choice(('attempts', 'size', 'wait'))}",
                rng.randint(low, high),
                rng.choice(("attempts", "seconds", "bytes", "items")),
                low,
                high,
                f"How far the {rng.choice(COMPONENTS)} goes before it gives up on the "
                f"{rng.choice(NOUNS)}.",
            )
        )
    limit_ids = [limit[0] for limit in registry.limits]
    names = [f"{rng.choice(SUBJECTS)}_{rng.choice(STATES)}_{i:05d}" for i in range(size.codes)]
    for i, name in enumerate(names):
        layer = LAYERS[rng.randrange(len(LAYERS))]
        protocol = layer[3] == "protocol"
        plural = rng.random() < 0.2
        extra = rng.choice((0, 0, 1, 1, 1, 2, 2, 3)) - (1 if plural else 0)
        pool = list(TEXT_PLACEHOLDERS) + list(INT_PLACEHOLDERS)
        chosen = rng.sample(pool, max(extra, 0))
        placeholders = [Placeholder(n, d, e, isinstance(e, int)) for n, d, e, _ in chosen]
        phrases = [phrase.format(f"{{{n}}}") for n, _, _, phrase in chosen]
        count_name: str | None = None
        if plural:
            count = rng.choice(COUNTS)
            count_name = count[0]
            placeholders.insert(0, Placeholder(count[0], count[1], count[2], True))
            one, other = _plural(rng, count, phrases)
            message, plural_text = one, other
        else:
            message, plural_text = _message(rng, placeholders, phrases), None
        policy = rng.choice(("never", "after_fix", "bounded"))
        related = tuple(rng.sample(names[:i], min(i, rng.choice((0, 1, 2))))) if i else ()
        registry.codes.append(
            CodeSpec(
                name=name,
                layer=layer[0],
                protocol=protocol,
                message=message,
                plural=plural_text,
                count=count_name,
                placeholders=tuple(placeholders),
                meaning=_meaning(rng),
                rationale=rng.choice(RATIONALES) if rng.random() < 0.2 else None,
                steps=tuple(_step(rng) for _ in range(rng.randint(1, 3))),
                avoid=tuple(rng.sample(AVOIDS, rng.choice((0, 0, 1, 2)))),
                kind=rng.choice(RECOVERY_KINDS),
                retry=policy,
                limit=rng.choice(limit_ids) if policy == "bounded" else None,
                related=related,
                since=f"1.{rng.randint(0, 4)}.0",
                agent_hint=(
                    f"{rng.choice(CONSEQUENCES)} {_step(rng)}" if rng.random() < 0.3 else None
                ),
                http=rng.choice((400, 403, 404, 409, 413, 422, 429, 500, 502, 503, 504))
                if protocol
                else None,
                jsonrpc=-32000 - rng.randrange(100) if protocol else None,
            )
        )
    return registry


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _yaml_list(items: Iterable[str]) -> str:
    return "[" + ", ".join(_q(i) for i in items) + "]"


def render(registry: Registry) -> str:
    """The registry as codes.yaml text (every string JSON-quoted, which YAML reads as is)."""
    size = registry.size
    out = [
        f"# A synthetic registry of {size.codes} codes and {size.locales} target locales,",
        "# generated by bench/synth.py for errorbook's benchmark.",
        "",
        "registry:",
        "  name: synth",
        "  title: Synth",
        "  version: 1.4.0",
        f"  package: {size.package}",
        "  source_locale: en",
        f"  locales: [{', '.join(size.tags)}]",
        "  docs_url: https://docs.synth.example/errors/",
        "  description: "
        + _q(
            "Synth is a made-up service whose registry exists to measure errorbook. Its codes "
            "cover configuration, protocol, execution, storage and provider failures."
        ),
        "  wires: [http, jsonrpc]",
        "",
        "actors:",
        *(f"  {actor}: {{description: {_q(f'Who acts as {actor}.')}}}" for actor in ACTORS),
        "shapes:",
        "  protocol:",
        '    {title: "Protocol failure", envelope: error, proves: "No action ran.",',
        '     description: "The envelope says ok false."}',
        "  action:",
        '    {title: "Action failure", envelope: result, proves: "The action failed.",',
        '     description: "The error is inside the result."}',
        "recovery_kinds:",
        *(
            f"  {kind}: {{summary: {_q(kind.replace('_', ' ').capitalize() + '.')}}}"
            for kind in RECOVERY_KINDS
        ),
        "",
        "layers:",
    ]
    for lid, title, actor, shape, proves in LAYERS:
        out += [
            f"  {lid}:",
            f"    title: {_q(title)}",
            f"    proves: {_q(proves)}",
            f"    actor: {actor}",
            f"    shape: {shape}",
            f"    description: {_q(proves + ' ' + CONSEQUENCES[len(lid) % len(CONSEQUENCES)])}",
        ]
    out += ["", "codes:"]
    for code in registry.codes:
        out.append(f"  {code.name}:")
        out.append(f"    layer: {code.layer}")
        if code.plural is None:
            out.append(f"    message: {_q(code.message)}")
        else:
            out += [
                "    message:",
                f"      one: {_q(code.message)}",
                f"      other: {_q(code.plural)}",
                f"      count: {code.count}",
            ]
        if code.placeholders:
            out.append("    placeholders:")
            for p in code.placeholders:
                example = str(p.example) if p.integer else _q(str(p.example))
                kind = ", type: integer" if p.integer else ""
                out.append(
                    f"      {p.name}: {{description: {_q(p.description)}, "
                    f"example: {example}{kind}}}"
                )
        out.append(f"    meaning: {_q(code.meaning)}")
        if code.rationale:
            out.append(f"    rationale: {_q(code.rationale)}")
        if code.agent_hint:
            out.append(f"    agent_hint: {_q(code.agent_hint)}")
        out.append("    recovery:")
        out.append(f"      kind: {code.kind}")
        out.append(f"      steps: {_yaml_list(code.steps)}")
        if code.avoid:
            out.append(f"      avoid: {_yaml_list(code.avoid)}")
        limit = f", limit: {code.limit}" if code.limit else ""
        out.append(f"    retry: {{policy: {code.retry}{limit}}}")
        if code.related:
            out.append(f"    related: [{', '.join(code.related)}]")
        if code.http is not None:
            out.append(f"    http: {code.http}")
            out.append(f"    jsonrpc: {code.jsonrpc}")
        out.append(f"    since: {code.since}")
    out += ["", "limits:"]
    for lid, title, default, unit, low, high, bounds in registry.limits:
        out += [
            f"  {lid}:",
            f"    title: {_q(title)}",
            f"    default: {default}",
            f"    unit: {unit}",
            f"    min: {low}",
            f"    max: {high}",
            f"    bounds: {_q(bounds)}",
        ]
    out += [
        "",
        "adapters:",
        "  python:",
        '    title: "Python"',
        '    description: "In-process calls."',
        '    protocol: "A dict with ok false and an error."',
        '    action: "A dict with ok true and a result holding an error."',
        "  http:",
        '    title: "HTTP"',
        '    description: "JSON over HTTP."',
        '    protocol: "A 4xx or 5xx response with a problem document."',
        '    action: "A 200 response whose result holds an error."',
        "",
    ]
    return "\n".join(out)


def _reword_text(text: str, rng: random.Random) -> str:
    for old, new in rng.sample(list(SYNONYMS.items()), len(SYNONYMS)):
        if f" {old} " in f" {text} ":
            return f" {text} ".replace(f" {old} ", f" {new} ", 1).strip()
    return text.rstrip(".") + ", as far as we can tell."


def reword(registry: Registry, fraction: float = 0.05, seed: int = 11) -> Registry:
    """A copy in which ``fraction`` of the codes' messages are reworded (placeholders kept)."""
    rng = random.Random(f"{seed}:{registry.size.label}")
    chosen = set(rng.sample(range(len(registry.codes)), round(len(registry.codes) * fraction)))
    codes = []
    for i, code in enumerate(registry.codes):
        if i in chosen:
            code = replace(
                code,
                message=_reword_text(code.message, rng),
                plural=None if code.plural is None else _reword_text(code.plural, rng),
            )
        codes.append(code)
    return Registry(registry.size, codes, list(registry.limits))


def write_project(root: Path, registry: Registry, site: bool = False) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(PYPROJECT_SITE if site else PYPROJECT, "utf-8")
    (root / "codes.yaml").write_text(render(registry), "utf-8")
    if site:
        (root / "site").mkdir(exist_ok=True)
        (root / "site" / "mkdocs.base.yml").write_bytes(BASE_CONFIG.read_bytes())
    return root


# --- fake translations -----------------------------------------------------------------

_LATIN = "abcdefghijklmnoprstuvz"
ALPHABETS = {
    "de": _LATIN + "äöüß", "fr": _LATIN + "éèàçê", "es": _LATIN + "ñáéó", "it": _LATIN + "àèò",
    "pt": _LATIN + "ãçéõ", "nl": _LATIN + "ij", "sv": _LATIN + "åäö", "da": _LATIN + "æøå",
    "nb": _LATIN + "æøå", "fi": _LATIN + "äö", "pl": _LATIN + "ąęłśżź", "cs": _LATIN + "čřšžě",
    "sk": _LATIN + "čšžľô", "tr": _LATIN + "çğış", "hu": _LATIN + "őűéá", "ro": _LATIN + "ăâșț",
    "lt": _LATIN + "ąčėšž", "lv": _LATIN + "āčēšž", "sl": _LATIN + "čšž", "hr": _LATIN + "čćđšž",
    "et": _LATIN + "äõöü",
    "ru": "абвгдежзиклмнопрстуфхцчшыэюя", "uk": "абвгдежзиіїклмнопрстуфхцчшюя",
    "bg": "абвгдежзиклмнопрстуфхцчшъюя", "el": "αβγδεζηθικλμνξοπρστυφχψω",
    "he": "אבגדהוזחטיכלמנסעפצקרשת", "ar": "ابتثجحخدذرزسشصضطظعغفقكلمنهوي",
}  # fmt: skip
_CJK = {"ja": (0x3042, 0x3093, 0x4E00, 0x4FFF), "zh": (0x4E00, 0x6FFF, 0x4E00, 0x6FFF)}
_TOKEN = re.compile(r"(\{[A-Za-z_][A-Za-z0-9_]*\}|[A-Za-z][A-Za-z'-]*)")


class Translator:
    """Pseudo-translations: each English word becomes a made-up word of the target script,
    the same one every time; placeholders, digits and punctuation stay."""

    def __init__(self, locale: str) -> None:
        self.locale = locale
        self.words: dict[str, str] = {}

    def word(self, word: str) -> str:
        found = self.words.get(word)
        if found is None:
            digest = hashlib.blake2b(f"{self.locale}:{word.lower()}".encode(), digest_size=16)
            values = digest.digest()
            if self.locale in _CJK:
                kana_lo, _kana_hi, han_lo, han_hi = _CJK[self.locale]
                chars = [
                    chr(han_lo + v % (han_hi - han_lo)) if v % 3 else chr(kana_lo + v % 80)
                    for v in values[: 1 + values[0] % 3]
                ]
                found = "".join(chars)
            elif self.locale == "ko":
                found = "".join(chr(0xAC00 + (v * 37) % 11172) for v in values[: 1 + values[0] % 3])
            else:
                letters = ALPHABETS.get(self.locale, _LATIN)
                length = max(2, len(word) + values[0] % 5 - 2)
                found = "".join(letters[v % len(letters)] for v in values[1 : length + 1])
                if word[:1].isupper():
                    found = found[:1].upper() + found[1:]
            self.words[word] = found
        return found

    def text(self, source: str, form: int = 0) -> str:
        parts = []
        for piece in _TOKEN.split(source):
            if not piece:
                continue
            if piece.startswith("{") or not piece[:1].isalpha():
                parts.append(piece)
            else:
                parts.append(self.word(piece))
        text = "".join(parts)
        if self.locale in _CJK:
            text = text.replace(" ", "").replace(".", "。")
        if form:
            text += " " + "·" * form  # each plural form differs a little
        return text.strip()


def _unquote(text: str) -> str:
    body = text[text.index('"') + 1 : text.rindex('"')]
    return body.replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\")


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


@dataclass
class _Entry:
    msgid: list[str] = field(default_factory=list)
    plural: list[str] | None = None
    last: str = ""


def translate_po(text: str, locale: str, share: float, rng: random.Random) -> tuple[str, int]:
    """Fill the empty msgstr lines of a PO file (as errorbook writes it: one line per
    string) for ``share`` of its entries. Returns the text and how many entries were filled."""
    translator = Translator(locale)
    lines = text.split("\n")
    entry = _Entry()
    chosen: bool | None = None
    filled = 0
    for i, line in enumerate(lines):
        if not line.strip():
            entry, chosen = _Entry(), None
            continue
        if line.startswith("#"):
            continue
        if line.startswith("msgid "):
            entry.msgid, entry.last = [_unquote(line)], "msgid"
        elif line.startswith("msgid_plural "):
            entry.plural, entry.last = [_unquote(line)], "plural"
        elif line.startswith('"'):
            if entry.last == "msgid":
                entry.msgid.append(_unquote(line))
            elif entry.last == "plural" and entry.plural is not None:
                entry.plural.append(_unquote(line))
        elif line.startswith("msgstr"):
            entry.last = "msgstr"
            source = "".join(entry.msgid)
            if not source or _unquote(line):
                continue  # the header, or already translated
            if chosen is None:
                chosen = rng.random() < share
                filled += chosen
            if not chosen:
                continue
            match = re.match(r"msgstr\[(\d+)\]", line)
            if match is None:
                lines[i] = "msgstr " + _quote(translator.text(source))
            else:
                form = int(match.group(1))
                plural = "".join(entry.plural or [source])
                # the first form from the singular where the language has one
                is_last = i + 1 >= len(lines) or not lines[i + 1].startswith("msgstr[")
                base = source if form == 0 and not is_last else plural
                lines[i] = f"msgstr[{form}] " + _quote(translator.text(base, form))
    return "\n".join(lines), filled


def _translate_file(job: tuple[Path, str, float, int]) -> int:
    path, locale, share, seed = job
    rng = random.Random(f"{seed}:{locale}:{path.stem}")
    text, filled = translate_po(path.read_text("utf-8"), locale, share, rng)
    path.write_text(text, "utf-8")
    return filled


def translate_catalogs(
    root: Path, locales: Sequence[str], share: float = 0.95, seed: int = 3
) -> int:
    """Fill ``share`` of the entries of every locales/<lang>/LC_MESSAGES/*.po under ``root``
    (one file per task, on every core). Returns how many entries were filled."""
    jobs = [
        (po, locale, share, seed)
        for locale in locales
        for po in sorted((root / "locales" / locale / "LC_MESSAGES").glob("*.po"))
    ]
    if len(jobs) < 4:
        return sum(map(_translate_file, jobs))
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        return sum(pool.map(_translate_file, jobs))


def iter_po(root: Path) -> Iterator[Path]:
    yield from sorted((root / "locales").glob("*/LC_MESSAGES/*.po"))


def errorbook_command() -> list[str]:
    script = Path(sys.executable).parent / "errorbook"
    return [str(script)] if script.exists() else [sys.executable, "-m", "generator"]


def make(
    root: Path, size: Size, seed: int = 7, share: float = 0.95, site: bool = False
) -> Registry:
    """A project at ``root``: the registry, then ``errorbook generate`` once, then the PO files
    filled with translations. Returns the registry's data. With ``site`` the project has a
    site; this first run publishes only the source language (nothing is translated yet), the
    next ``errorbook generate`` every language whose docs prose is now translated."""
    registry = build(size, seed)
    write_project(root, registry, site)
    subprocess.run(
        [*errorbook_command(), "generate"], cwd=root, check=True, stdout=subprocess.DEVNULL
    )
    translate_catalogs(root, size.tags, share, seed)
    return registry


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--codes", type=int, default=1000)
    parser.add_argument("--locales", type=int, default=10)
    parser.add_argument(
        "--tags", default=None, help="target locales by name, e.g. de,ja (instead of --locales)"
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--site", action="store_true", help="the project has a site")
    parser.add_argument(
        "--translate", action="store_true", help="also run errorbook generate and translate"
    )
    args = parser.parse_args(argv)
    if args.tags:
        size = Size.of(args.codes, [tag.strip() for tag in args.tags.split(",") if tag.strip()])
    else:
        size = Size(args.codes, args.locales)
    if args.translate:
        make(args.folder, size, args.seed, site=args.site)
    else:
        write_project(args.folder, build(size, args.seed), args.site)
    print(f"{args.folder}: {size.codes} codes, locales {' '.join(size.tags)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
