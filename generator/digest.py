"""The one hash every cache key and fingerprint is made with.

Kept apart from the caches that use it, so that an emitter can key what it made (the site's
page cache) without importing the pipeline.
"""

from __future__ import annotations

import hashlib


def digest(*parts: bytes | str) -> str:
    """SHA-256 of the parts, each length-prefixed so that no two part lists collide."""
    hashed = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        hashed.update(b"%d:" % len(data))
        hashed.update(data)
    return hashed.hexdigest()
