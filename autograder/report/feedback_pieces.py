"""A task's two pieces of a student's feedback page, each from a template of its own: its row in the table of
scores (feedback_row.html.j2) and its <section> (feedback_task.html.j2).

A piece is a function of the few parts of the task's view (html_report.py) its template reads, found in the
template itself (`t.name`: inputs()), and most pieces read the same on many students' pages: a passed task, the
same mistake, the same unfinished task. So each is rendered once a process for the parts it is made of and kept
(up to KEPT characters, its parts' counted too: about 4 MB, whatever the class's size), not once a page. A section
with a picture of a graph is drawn for its page and not kept (a picture seldom recurs, and is large).
"""
from __future__ import annotations

from functools import lru_cache

from autograder.report.jinja_env import TEMPLATES, template
from autograder.report.kept import Kept

ROW, SECTION = "feedback_row.html.j2", "feedback_task.html.j2"
KEPT = 3_000_000  # characters: ~4 MB with their keys (measured with tracemalloc), whatever the class

_KEPT = Kept(KEPT)  # measured in characters: the pieces' and their keys'


def with_pieces(tasks: list[dict], *, sections: bool) -> list[dict]:
    """Each task's row_html, and where its page shows one (sections: the report could be graded; not a task an
    import stopped, whose step is said once above) its section_html."""
    for task in tasks:
        task["no_cases"] = not task["public"] and not task["hidden"]
        task["row_html"] = piece(ROW, task)
        if sections and not task["stopped"]:
            drawn = any(case["graph"] is not None for case in task["public"])
            task["section_html"] = piece(SECTION, task, keep=not drawn)
    return tasks


def piece(name: str, task: dict, *, keep: bool = True):
    """The template `name` rendered for the task's view (as markup: the template escaped what it wrote)."""
    import markupsafe

    if not keep:
        return markupsafe.Markup(template(name).render(t=task))
    key = (name, *(tuple(value) if type(value) is list else value for value in map(task.__getitem__, inputs(name))))
    return _KEPT.get(key, lambda: markupsafe.Markup(template(name).render(t=task)),
                     lambda found: len(found) + sum(len(value) for value in key if isinstance(value, str)))


@lru_cache(maxsize=None)
def inputs(name: str) -> tuple[str, ...]:
    """The parts of the task's view the template reads (each `t.name` in it), in their order: what it is made of."""
    return read_parts(template(name).environment.parse((TEMPLATES / name).read_text(encoding="utf-8")), name)


def read_parts(tree, name: str) -> tuple[str, ...]:
    """The `t.name`s a parsed template reads; ValueError if it reads anything else (t["x"], t alone, another
    name), which its parts would not tell apart."""
    from jinja2 import nodes

    names = list(tree.find_all(nodes.Name))
    read = [node.attr for node in tree.find_all(nodes.Getattr) if isinstance(node.node, nodes.Name)]
    if {node.name for node in names} != {"t"} or len(read) != len(names):
        raise ValueError(f"{name} must read its task's view as t.name alone")
    return tuple(dict.fromkeys(read))
