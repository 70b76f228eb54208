"""``python -m errorbook`` (``python -m generator`` in this repository) runs the command line."""

from .cli import run

run()
