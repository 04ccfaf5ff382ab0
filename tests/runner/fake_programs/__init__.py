"""A small stand-in for autograder/child/programs, for the runner's own tests.

`poke` calls a method of the student's Value by name: the misbehaving student
code (endless loops, exits, floods) lives in the test's student files.
"""
