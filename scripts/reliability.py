"""Run errorbook's robustness tests and write the site's Reliability page from the results.

    make reliability            # or: .venv/bin/python scripts/reliability.py

It runs the corpora, property, fuzz and crash tests once (with the fuzz budget of
ERRORBOOK_FUZZ_SECONDS, default 10 s per target), reads what they report, and writes
site/pages/reliability.md: what is tested, how big each corpus is, and the figures of this
run. The page is a report of one run on one machine, so it carries the run's date.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "site" / "pages" / "reliability.md"
ARTIFACTS = ROOT / "test-artifacts"
SUITES = {
    "tests/registry/test_invalid_corpus.py": "Invalid registries, each with its diagnostics",
    "tests/robustness/test_hostile.py": "Hostile translations: refused at their line, or inert",
    "tests/robustness/test_properties.py": "Properties: text survives, nothing lost, determinism",
    "tests/robustness/test_fuzz.py": "Fuzzing of the YAML loader and the PO reader",
    "tests/robustness/test_crash.py": "Crash safety: kills, concurrent runs, full disks, limits",
    "tests/robustness/test_hardening.py": "What a newcomer's review tried to break",
    "tests/pipeline/test_output_safety.py": "Only its own files: manifests, links, editors' saves",
    "tests/catalogs/test_catalog_inputs.py": "Catalogs: FIFOs, devices, links, other tools' files",
    "tests/test_config_inputs.py": "Configuration: control characters, registries not a file",
    "tests/emit/test_site_inputs.py": "Site: name collisions, page names and encodings",
    "tests/emit/test_markdown.py": "Markdown escaping of registry and translation text",
}


def module_path(classname: str) -> str:
    """The file of a JUnit test case's class name: ``tests.registry.test_loader`` (or with a
    test class after it) is ``tests/registry/test_loader.py``."""
    parts = classname.split(".")
    last = next((i for i, part in enumerate(parts) if part.startswith("test_")), len(parts) - 1)
    return "/".join(parts[: last + 1]) + ".py"


def run_suites() -> dict[str, dict[str, int]]:
    ARTIFACTS.mkdir(exist_ok=True)
    report = ARTIFACTS / "reliability.xml"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            f"--junitxml={report}",
            *SUITES,
        ],
        cwd=ROOT,
        check=False,
    )
    counts: dict[str, dict[str, int]] = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        module = module_path(case.get("classname", ""))
        entry = counts.setdefault(module, {"passed": 0, "failed": 0, "skipped": 0, "xfailed": 0})
        outcome = "passed"
        for child in case:
            if child.tag in ("failure", "error"):
                outcome = "failed"
            elif child.tag == "skipped":
                outcome = (
                    "xfailed"
                    if "xfail" in (child.get("type", "") + child.get("message", ""))
                    else "skipped"
                )
        entry[outcome] += 1
    return counts


def main() -> int:
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    counts = run_suites()
    invalid = len(list((ROOT / "tests" / "registries" / "invalid").glob("*.yaml")))
    hostile_file = ROOT / "tests" / "hostile" / "cases.yaml"
    hostile = len(yaml.safe_load(hostile_file.read_text("utf-8"))) if hostile_file.exists() else 0
    fuzz_file = ARTIFACTS / "fuzz.json"
    fuzz = json.loads(fuzz_file.read_text("utf-8")) if fuzz_file.exists() else {}
    kills = int(os.environ.get("ERRORBOOK_KILLS", "50"))
    lines = [
        "# Reliability",
        "",
        "What errorbook's tests try in order to break it, and what the last run found. Run "
        "`make reliability` to repeat it (`make fuzz` fuzzes for longer).",
        "",
        f"Last run: {started}, Python {platform.python_version()} on "
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores.",
        "",
        "## Corpora",
        "",
        "| Corpus | Cases |",
        "|---|---|",
        f"| Invalid registries (`tests/registries/invalid/`) | {invalid} |",
        f"| Hostile translations (`tests/hostile/cases.yaml`) | {hostile} |",
        f"| Random kills of `errorbook generate` (SIGKILL) | {kills} |",
        "",
        "## Results of the last run",
        "",
        "| Suite | What it proves | Passed | Failed | Known failures (xfail) |",
        "|---|---|---|---|---|",
    ]
    for module, what in SUITES.items():
        entry = counts.get(module, {})
        lines.append(
            f"| `{module}` | {what} | {entry.get('passed', 0)} | "
            f"{entry.get('failed', 0)} | {entry.get('xfailed', 0)} |"
        )
    if fuzz:
        lines += [
            "",
            "## Fuzzing",
            "",
            "| Target | Inputs tried | Rejected with a diagnostic | Accepted | Failures |",
            "|---|---|---|---|---|",
        ]
        targets = fuzz.get("targets", fuzz)
        for name, figures in sorted(targets.items()):
            if isinstance(figures, dict):
                lines.append(
                    f"| {name} | {figures.get('tried', figures.get('inputs', 0))} | "
                    f"{figures.get('rejected', 0)} | {figures.get('accepted', 0)} | "
                    f"{figures.get('failures', 0)} |"
                )
    lines += [
        "",
        "## Guarantees these tests hold errorbook to",
        "",
        "- Bad input of any kind ends in a diagnostic with file, line and column and a non-zero "
        "exit, never a traceback.",
        "- No update of a catalog loses a translated string; every translation ever written "
        "stays in its PO file, active or obsolete.",
        "- Text from the registry or a translation is data: it reaches Python, Markdown, HTML, "
        "YAML and JSON escaped, and a translation with any field but its own placeholders is "
        "never shown.",
        "- A killed or failing `generate` leaves every output as it was or fully new.",
        "- errorbook removes only files it can prove it wrote (inside its output folders, "
        "of a kind it writes, with its header), whatever `.errorbook-files` lists: never the "
        "registry, pyproject.toml, a PO file, anything under `.git`, or anything outside the "
        "project and its output folders. It never writes through a symbolic link, never "
        "replaces a PO file an editor saved during the run, and sweeps only temporary files "
        "named `.<name>.errorbook-<random>.tmp`.",
        "- errorbook never takes over a PO, POT or MO file that it did not create (another "
        "tool's catalog of the same domain is an error naming the setting that avoids it), and "
        "keeps entries and comment lines it does not own byte for byte in a file it does own.",
        "- Every input is read as a regular file of bounded size (`max-input-mib`): a named "
        "pipe, a device or a folder in its place is an error at once, never a hang; a path "
        "with a control character is a configuration error, and every generated header is "
        "one line.",
        "- No two outputs share a path (nor one that differs only in case), and no hand-written "
        "page replaces a generated one.",
        "- Output is byte-identical across runs, hash seeds, time zones, locales and "
        "working directories.",
        "",
    ]
    PAGE.write_text("\n".join(lines), "utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0 if all(e.get("failed", 0) == 0 for e in counts.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
