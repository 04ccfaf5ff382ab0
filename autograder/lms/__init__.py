"""Grade files an LMS imports as they are, made from an `autograder grade ... --out OUT` folder.

    canvas.py   OUT/canvas-import.csv: the instructor's Canvas gradebook export, this assignment's column filled
    moodle.py   OUT/moodle-grades.csv (Moodle's offline grading worksheet, filled) and OUT/moodle-feedback.zip

Both read the class's grades from OUT/gradebook.csv (graded.py), write atomically, and refuse
input they can't use with one line (LmsError) before writing anything.
"""
