"""The "bubblewrap" level (level.py), its probe (probe.py) and the grader's own user namespace (userns.py)."""
