"""Tests of the generated runtime package, as its users call it."""
