"""errorbook: one registry of error codes, and everything generated from it."""

__version__ = "0.1.0"
