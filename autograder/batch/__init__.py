"""Batch grading: a class's submissions, from whatever an LMS download looks like."""

STORE_NAME = "gradebook.sqlite"  # the output folder's store (batch/store.py); here, so that the CLI reads it cheaply
