"""The sandboxed child: imports a student's `micrograd` and runs the case programs on it.

It runs as a script (`python -I -S autograder/child/main.py`), standard library only;
its modules are imported as the package `_autograder_child` (main.kit_package), never
through `autograder`, and none under a top-level name a student's file could have.
"""
