"""The class summary's lines about the roster (summary.json's "roster": batch/class_list.py): who is on it
with no submission, and which submissions are of no one on it."""
from __future__ import annotations


def roster_lines(roster: dict) -> list[str]:
    """The lines of summary.md's "Roster" section (markdown list items, after an intro)."""
    lines = [f"{roster['submitted']} of the {roster['students']} students on the roster ({roster['roster']}) "
             "handed something in."]
    if roster["missing"]:
        lines += ["", f"No submission ({len(roster['missing'])}; a gradebook row each, status missing):", ""]
        lines += [f"- {student}" for student in roster["missing"]]
    if roster["unrostered"]:
        how = ("graded all the same (every student has the same assignment)" if roster["unrostered_graded"]
               else "not graded: which variant each was handed can't be known")
        lines += ["", f"Not on the roster ({len(roster['unrostered'])}; status unrostered, {how}):", ""]
        lines += [f"- {u['submission']} (id {u['id']})" for u in roster["unrostered"]]
    return lines


def roster_view(roster: dict) -> dict:
    """The same for the summary page: an intro, then a titled list per kind."""
    lines = roster_lines(roster)
    groups, title = [], None
    for line in lines[1:]:
        if line.startswith("- "):
            groups[-1]["names"].append(line[2:])
        elif line:
            title = line
            groups.append({"title": title, "names": []})
    return {"intro": lines[0], "groups": groups}
