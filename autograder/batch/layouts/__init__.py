"""LMS download layouts (Canvas, nbgrader, Gradescope): each turns one folder into found submissions."""
