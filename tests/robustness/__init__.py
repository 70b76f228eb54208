"""The slow suites: fuzzing, properties, crashes, hostile input."""
