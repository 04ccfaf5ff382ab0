"""What runs in PrairieLearn's external grading container: run.py (grades /grade/student, writes
/grade/results/results.json) and templates/ (the question's files, the entrypoint, the grader image)."""
