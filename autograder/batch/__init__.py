"""Batch grading: a class's submissions, from whatever an LMS download looks like."""
