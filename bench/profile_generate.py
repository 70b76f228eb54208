"""Where a full ``errorbook generate`` spends its time, by function (cProfile).

Builds the same synthetic project as bench/run.py (5% of the messages reworded), then runs
``generate`` in-process under cProfile with ERRORBOOK_JOBS=1, so that the work of every
locale is in this one process (worker processes would hide it from the profiler). cProfile
slows Python code down; the shares, not the totals, are what to read.

    .venv/bin/python bench/profile_generate.py                  # 10000x30
    .venv/bin/python bench/profile_generate.py --size 1000x10 --top 30
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import os
import pstats
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import synth


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Profile one full errorbook generate.")
    parser.add_argument("--size", default="10000x30", help="codes x locales (default 10000x30)")
    parser.add_argument("--top", type=int, default=25, help="functions to list (default 25)")
    parser.add_argument("--output", type=Path, help="also save the raw profile here")
    args = parser.parse_args(argv)
    size = synth.Size.parse(args.size)
    os.environ["ERRORBOOK_JOBS"] = "1"
    with tempfile.TemporaryDirectory(prefix="errorbook-profile-") as folder:
        root = Path(folder) / "project"
        print(f"building {size.label} ...", flush=True)
        registry = synth.make(root, size)
        (root / "codes.yaml").write_text(synth.render(synth.reword(registry)), "utf-8")
        from generator.cli import main as errorbook

        os.chdir(root)
        profiler = cProfile.Profile()
        start = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):  # the list of changed files
            status = profiler.runcall(errorbook, ["generate"])
        print(f"errorbook generate: exit {status}, {time.perf_counter() - start:.1f} s "
              "under cProfile", file=sys.stderr)  # fmt: skip
        os.chdir("/")
    if args.output:
        profiler.dump_stats(str(args.output))
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.strip_dirs()
    for key in ("cumulative", "tottime"):
        print(f"\n--- top {args.top} by {key} ---")
        stats.sort_stats(key).print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
