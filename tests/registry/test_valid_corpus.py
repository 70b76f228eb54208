"""Every registry in tests/registries/valid/ validates, generates, and works as a package.

Each case is one small registry, ``<name>.yaml``, that once was (or could be taken for) a
mistake, with a ``# case:`` line at the top saying what it shows. The test validates it with the
command line, generates its Python package, and builds every code with its placeholders' examples
given through ``params=``: each example must reach the message, whatever the placeholder's name.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.cli import main
from generator.registry.validate import load_registry_text

from ..emit.test_emit_python import load_module, write_outputs

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "registries" / "valid"
PYPROJECT = ROOT / "pyproject.toml"

CASES = sorted(CORPUS.glob("*.yaml"))


def _title(path: Path) -> str:
    first = path.read_text("utf-8").splitlines()[0]
    match = re.fullmatch(r"# case: (.+)", first)
    assert match is not None, f"{path}: the first line must be '# case: WHAT IT SHOWS'"
    return match.group(1)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_valid_registry(
    path: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    title = _title(path)
    monkeypatch.delenv("ERRORBOOK_DEBUG", raising=False)
    assert main(["validate", "--config", str(PYPROJECT), "--registry", str(path)]) == 0, title
    assert "Traceback" not in capsys.readouterr().err
    package = "valid_" + path.stem.replace("-", "_")
    text = re.sub(r"(?m)^  package: \w+$", f"  package: {package}", path.read_text("utf-8"))
    registry = load_registry_text(text, "demo.yaml")
    write_outputs(tmp_path, registry)
    module = load_module(tmp_path / package, package)
    for code in registry.codes:
        params = {p.name: p.example for p in code.placeholders}
        built = module.failure(code.name, params=params)
        error = built["error"] if "error" in built else built["result"]["error"]
        for name, value in params.items():
            assert str(value) in error["message"], (title, code.name, name)
        assert error.get("params", {}) == params


def test_the_corpus_has_cases() -> None:
    assert CASES
