"""The sandboxed child: imports a student's `micrograd` and runs the case programs on it.

It runs as a script (`python -I -S autograder/child/main.py`), standard library only;
its modules import each other as top-level modules, never through `autograder`.
"""
