"""``python -m generator`` runs the errorbook command line."""

from .cli import main

raise SystemExit(main())
