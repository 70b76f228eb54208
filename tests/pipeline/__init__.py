"""Tests of the pipeline: incremental runs and the writer's guarantees."""
