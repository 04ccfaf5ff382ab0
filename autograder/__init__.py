"""backprop-kit's autograder: cases over any engine, a sandboxed runner, scoring and reports."""
__version__ = "0.1.0"
