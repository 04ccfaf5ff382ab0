"""LMS download layouts: each turns one downloaded folder into found submissions.

A layout is a module with a LAYOUT (the Layout protocol, in base.py); LAYOUTS lists them
once, in the order discover.py tries them. Adding one (Blackboard, say) is a module
and one line here; tests/batch/test_layouts.py checks that every module is listed.
"""
from __future__ import annotations

from pathlib import Path

from autograder.batch.layouts import canvas, gradescope, moodle, nbgrader
from autograder.batch.layouts.base import Found, Layout

__all__ = ["Found", "LAYOUTS", "Layout", "recognise", "recognise_names"]

LAYOUTS: tuple[Layout, ...] = (gradescope.LAYOUT, nbgrader.LAYOUT, canvas.LAYOUT, moodle.LAYOUT)


def recognise(folder: Path) -> Layout | None:
    """The layout of a downloaded folder, or None for a plain folder of submissions."""
    return next((layout for layout in LAYOUTS if layout.looks_like(folder)), None)


def recognise_names(names: list[str]) -> Layout | None:
    """The layout of a downloaded zip, from its member names, or None for one student's zip."""
    return next((layout for layout in LAYOUTS if layout.looks_like_names(names)), None)
