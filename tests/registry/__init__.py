"""Tests of the registry package: loading, validation, compatibility."""
