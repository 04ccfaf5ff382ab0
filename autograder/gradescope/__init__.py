"""The kit on Gradescope: what the autograder zip holds (editions/gradescope.py writes it) and what
its run_autograder runs (run.py).

Inside Gradescope's container the zip is /autograder/source:
    setup.sh, run_autograder, requirements.txt   Gradescope's entry points, and what setup installs
    kit/autograder/                               the grader (world-readable: the sandboxed child runs its child/)
    secret/assignment.toml, secret/goldens.json   the rubric with the hidden seed, and every golden
                                                  (root only: the student's code runs as another uid)
"""
