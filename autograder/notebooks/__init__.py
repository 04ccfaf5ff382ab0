"""The assignment as a notebook, for the Jupyter tools (otter-grader, nbgrader): built from solutions/.

    solution_cells.py   solutions/micrograd/*.py as notebook code cells, each solution block in the
                        markers a tool strips to the same stubs exercises/ has
    otter_master.py     the otter-grader master notebook
"""
