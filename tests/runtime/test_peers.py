"""The generated package's projections, read by the peers' own libraries.

Each wire is checked with the library a peer on it would use: the official MCP Python SDK
(both major versions) for ``to_mcp`` and ``to_tool_result``.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from ..conftest import ROOT
from . import mcp_peer

#: Where ``make setup`` installs the MCP SDK's 1.x beside the 2.x of the environment: one
#: environment cannot hold two versions of a distribution.
MCP1 = ROOT / ".venv" / "mcp1"


def test_the_mcp_sdk_2_accepts_every_message_and_matches_every_answer() -> None:
    assert mcp_peer.sdk_major() == 2
    report = mcp_peer.check()
    assert report.startswith("mcp 2.") and " 0 calls" not in report


def test_the_mcp_sdk_1_accepts_every_message_and_matches_every_answer() -> None:
    if not (MCP1 / "mcp").is_dir():
        if os.environ.get("CI"):
            pytest.fail("`make setup` installs the MCP SDK 1.x into .venv/mcp1")
        pytest.skip("the MCP SDK 1.x is not installed (run `make setup`)")
    done = subprocess.run(
        [sys.executable, "-m", "tests.runtime.mcp_peer"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(MCP1), str(ROOT)])},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert done.stdout.startswith("mcp 1."), done.stdout
