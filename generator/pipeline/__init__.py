"""The pipeline that runs the stages, and the one module that writes."""
