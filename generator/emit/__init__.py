"""Emitters: pure functions from the registry to ``{relative path: bytes}``.

An emitter never writes a file and never reads the clock; :mod:`generator.pipeline.output`
is the only module that touches the disk.
"""

from __future__ import annotations

from collections.abc import Mapping

Files = Mapping[str, bytes]
