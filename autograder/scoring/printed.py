"""What a student's code printed, as a report shows it: the first lines, capped, and how many more.

Only ever for what the student may see: a public case's prints, or the prints made while
the submission was imported. Nothing printed during a hidden case is passed here.
"""
from __future__ import annotations

from autograder.runner.protocol import TRUNCATED

MAX_CHARS = 2000
MAX_LINES = 40


def shown(text: str, *, max_chars: int = MAX_CHARS, max_lines: int = MAX_LINES) -> str:
    """text cut to max_lines lines and max_chars characters (a line cut short ends with "..."),
    then "... (N more lines)" for the lines left out; "" when nothing (but blank space) was printed."""
    cut_by_child = text.endswith(TRUNCATED)  # the child kept only the first output_cap characters
    if cut_by_child:
        text = text[: -len(TRUNCATED)]
    if not text.strip():
        return ""
    lines = text.rstrip("\n").split("\n")
    kept: list[str] = []
    room = max_chars
    for line in lines[:max_lines]:
        if room <= 0:
            break
        kept.append(line if len(line) <= room else line[:room] + "...")
        room -= len(line) + 1
    more = len(lines) - len(kept)
    if more:
        kept.append(f"... ({more} more line{'s' if more != 1 else ''}{' and the rest, not kept' if cut_by_child else ''})")
    elif cut_by_child:
        kept.append("... (and more, not kept)")
    return "\n".join(kept)
