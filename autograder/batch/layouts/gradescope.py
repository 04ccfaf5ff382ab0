"""Gradescope "Export Submissions": submission_metadata.yml and submission_<id>/ folders.

The metadata maps submission_<id> to its submitters (name, sid, email). A group
submission gives one entry per submitter, all with the same folder, so every student
gets a grade. PyYAML isn't a dependency: a small reader for this file's shape is below.
"""
from __future__ import annotations

import re
from pathlib import Path

from autograder.batch.entry import Entry
from autograder.batch.layouts.base import Found
from autograder.batch.items import children, is_junk, narrow

METADATA = "submission_metadata.yml"
_KEY = re.compile(r"^(?P<indent> *)(?P<dash>- +)?:?(?P<key>[A-Za-z_][\w ]*?):(?: +(?P<value>.*))?$")


def looks_like(folder: Path) -> bool:
    return (folder / METADATA).is_file()


def _scalar(text: str | None) -> str | None:
    text = (text or "").strip()
    if len(text) >= 2 and text[0] == text[-1] == "'":
        return text[1:-1].replace("''", "'")
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    text = re.sub(r"\s+#.*$", "", text)
    return None if text in ("", "~", "null") else text


def read_submitters(text: str) -> dict[str, list[dict[str, str | None]]]:
    """{submission key: [{name, sid, email}, ...]} from the metadata's text.

    Reads only `<key>:` at the top level and the `:submitters:` list directly under it;
    everything else (scores, results, history) is skipped whatever it holds.
    """
    out: dict[str, list[dict]] = {}
    current = child_indent = list_indent = field_indent = None
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = _KEY.match(line)
        indent = len(line) - len(line.lstrip(" "))
        if indent == 0 and m and not m["dash"]:
            current, child_indent, list_indent = m["key"], None, None
            out.setdefault(current, [])
            continue
        if current is None:
            continue
        child_indent = indent if child_indent is None else child_indent
        if list_indent is not None:
            if m and m["dash"] and indent in (list_indent, list_indent + 2):
                field_indent = indent + len(m["dash"])
                out[current].append({m["key"]: _scalar(m["value"])})
                continue
            if m and out[current] and indent == field_indent:
                out[current][-1][m["key"]] = _scalar(m["value"])
                continue
            if indent > list_indent:
                continue
            list_indent = None  # the list ended
        if (indent == child_indent and m and not m["dash"] and m["key"] == "submitters"
                and not _scalar(m["value"])):
            list_indent = indent
    return out


class Gradescope:
    name = "gradescope"

    def looks_like(self, folder: Path) -> bool:
        return looks_like(folder)

    def looks_like_names(self, names: list[str]) -> bool:
        return any(n.split("/")[-1] == METADATA and n.count("/") <= 1 for n in names)

    def find(self, folder: Path, ws, shown: str):
        return Found(*find(folder, shown))


def find(folder: Path, shown: str) -> tuple[list[Entry], list[str]]:
    problems: list[str] = []
    try:
        meta = read_submitters((folder / METADATA).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        meta = {}
        problems.append(f"{shown}/{METADATA}: unreadable ({exc}); ids are submission ids")
    entries: list[Entry] = []
    for child in children(folder):
        if child.name == METADATA:
            continue
        if is_junk(child):
            problems.append(f"{shown}/{child.name}: not a submission (system or hidden file)")
            continue
        if not child.is_dir() or not child.name.startswith("submission_"):
            problems.append(f"{shown}/{child.name}: not a Gradescope submission folder")
            continue
        people = meta.pop(child.name, None) or [{}]
        path = narrow(child)
        for person in people:
            sid = person.get("sid") or person.get("email") or child.name
            entries.append(Entry(sid, path, "gradescope", False, child.name))
    for key in sorted(meta):
        problems.append(f"{shown}/{METADATA}: {key} has no folder in the export")
    return entries, problems


LAYOUT = Gradescope()
