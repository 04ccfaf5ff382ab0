"""A student's feedback page: one self-contained HTML file (inline CSS, no outside assets).

Rendered with jinja2, autoescape on: file names, error messages and anything
else a student's code produced arrive as text, never as markup. Public cases
are shown in full; a hidden case shows only whether it passed. The redaction
happens here, before the template sees anything, so no template change can
leak a hidden case's message, details, title or id.
"""
from __future__ import annotations

from dataclasses import fields
from operator import attrgetter

from autograder.report import graph_fit, graph_svg, graph_twin
from autograder.report.grouping import same_problems
from autograder.report.task_text import variant_line
from autograder.report.feedback_pieces import with_pieces
from autograder.report.jinja_env import template
from autograder.report.kept import Kept
from autograder.report.model import CaseResult, Report, TaskResult
from autograder.report.next_step import next_step, steps
from autograder.report.numbers import show
from autograder.tasks import OPS

GRAPHS_PER_TASK = 1  # a picture of a task's first failing case; the others are folded, counted, not drawn again

TEMPLATE = "feedback.html.j2"
CASE_TEMPLATE = "feedback_case.html.j2"  # one public case's <li>


def render_feedback(report: Report, *, student: str | None = None, late: bool | None = None) -> str:
    return template(TEMPLATE).render(page=feedback_view(report, student=student, late=late))


def feedback_view(report: Report, *, student: str | None = None, late: bool | None = None) -> dict:
    """Everything the page shows, as plain data, with hidden cases reduced to passed / failed."""
    stopped = [] if report.error else [(step, [t.id for t in tasks]) for step, tasks in steps(report)
                                       if len(tasks) > 1 or step.source]  # a module that did not import: said once
    said = set(dict(report.import_errors).values()) if stopped else set()
    return {
        "stopped": [{"step": step, "ids": ids, "tasks": "no task" if len(ids) == len(report.tasks) > 1 else
                     ", ".join(ids[:-1]) + " and " + ids[-1] if len(ids) > 1 else ids[0]} for step, ids in stopped],
        "student": student or report.submission,
        "submission": report.submission,
        "score": _num(report.score),
        "max_score": _num(report.max_score),
        "percent": round(100 * report.score / report.max_score) if report.max_score else 0,
        "error": report.error,
        # the sandbox's own are the class summary's; an import error is said in its step
        "notes": [n for n in report.without_sandbox_notes().notes if n not in said],
        "import_output": report.import_output,
        "late": late,
        "variant": variant_line(report.variant) if report.variant is not None else None,
        "kit_version": report.kit_version,
        "tasks": with_pieces(_anchored(_with_cases_html(_with_pictures([_task(t, report) for t in report.tasks])),
                                       stopped), sections=not report.error),
        # said once on the page, when a graph could not be drawn
        "graphs_missing": _graphs_missing(report),
    }


def _anchored(tasks: list[dict], stopped: list) -> list[dict]:
    """Where each task's row links: its section, or the step of the import that stopped it (said once)."""
    where = {task_id: f"stopped-{i}" for i, (_, ids) in enumerate(stopped, 1) for task_id in ids}
    for task in tasks:
        task["stopped"] = task["id"] in where
        task["anchor"] = where.get(task["id"], f"task-{task['id']}")
    return tasks


def _with_pictures(tasks: list[dict]) -> list[dict]:
    """Each task's first GRAPHS_PER_TASK failing public cases with a graph get its picture, all
    drawn in one run of graphviz; the others keep none."""
    chosen = []
    for task in tasks:
        with_graph = [case for case in task["public"] if case["graph"] is not None and case["counted"]]
        for case in task["public"]:
            if not case["counted"] and case["graph"] is not None:  # failing through another task: its picture is
                case["graph"] = None                                  # that task's to show
        for case in with_graph[GRAPHS_PER_TASK:]:
            case["graph"] = None
        chosen += with_graph[:GRAPHS_PER_TASK]
    pictures = graph_svg.pictures([(case["graph"]["model"], case["graph"]["title"]) for case in chosen],
                                  graph_fit.PAGE_PX)
    for case, picture in zip(chosen, pictures):
        graph = case["graph"]
        name = f"The graph of {case['id']}. {graph['said']} The table after it has every number."
        graph.update(svg=graph_twin.labelled(picture.svg, graph["key"], name) if picture else None,
                     part=picture is not None and picture.part)
        del graph["model"]
    return tasks


def _with_cases_html(tasks: list[dict]) -> list[dict]:
    """Each task's public cases as their <li>s, one piece of markup each list (those of a kept view have theirs)."""
    import markupsafe

    for task in tasks:
        if "lists" in task:
            continue
        failing = [case for case in task["public"] if case["status"] != "passed" and case["counted"]]
        waived = [case for case in task["public"] if case["status"] != "passed" and not case["counted"]]
        passed = [case for case in task["public"] if case["status"] == "passed"]
        task["lists"] = {"first": failing[:1], "more": failing[1:], "waived": waived, "passed": passed}
        task["waived_html"] = markupsafe.Markup("".join(map(_case_html, waived)))
        task["waived_public"] = sum(case["n"] for case in waived)
        task["first_html"] = markupsafe.Markup("".join(map(_case_html, failing[:1])))
        task["more_html"] = markupsafe.Markup("".join(map(_case_html, failing[1:])))
        task["passed_html"] = markupsafe.Markup("".join(map(_case_html, passed)))
        task["more"] = sum(case["n"] for case in failing[1:])
        task["passed_public"] = sum(case["n"] for case in passed)
    return tasks


def _case_html(case: dict):
    """A public case's <li>. One without a picture says the same for every student with that case (a passed
    one, one whose module did not import): rendered once a process and kept, not once a page."""
    if case["graph"] is not None:
        return template(CASE_TEMPLATE).render(c=case)
    key = (case["status"], case["title"], case["message"], tuple(case["details"]), case["output"])
    found = _CASES_HTML.get(key)
    if found is None:
        if len(_CASES_HTML) >= CASES_KEPT:
            _CASES_HTML.clear()
        found = _CASES_HTML[key] = template(CASE_TEMPLATE).render(c=case)
    return found


CASES_KEPT = 50_000  # <li>s kept at most (a class of a few hundred keeps a few thousand)
_CASES_HTML: dict[tuple, str] = {}


def _graphs_missing(report: Report) -> str | None:
    has_graph = any(c.graph for t in report.tasks for c in t.cases if c.visibility == "public")
    return graph_svg.missing() if has_graph else None


def _task(task: TaskResult, report: Report) -> dict:
    return {
        "id": task.id,
        "title": task.title,
        "score": _num(task.score),
        "max_score": _num(task.max_score),
        "state": ("passed" if task.status == "passed" else "failed") if task.cases else "not graded",
        "diagnosis": [d.message for d in task.diagnosis],
        "step": next_step(task, report),
        **_cases_view(task),
    }


def _cases_view(task: TaskResult) -> dict:
    """The part of a task's view made of its cases alone (and its id: the hint for hidden cases). One with no graph
    to draw reads the same for every student whose task's cases read the same (every passed task, the same
    mistake): made once a process, its <li>s too, and kept (read-only: each page's view is a dict of its own around
    it), up to VIEWS_KEPT bytes, about, of its markup and cases. One with a graph gets its <li>s once its picture is
    drawn (_with_pictures, then _with_cases_html)."""
    if any(map(_GRAPH, task.cases)):
        return _made_cases_view(task)
    key = (task.id, *map(_CASE_FIELDS, task.cases))
    return _VIEWS.get(key, lambda: _with_cases_html([_made_cases_view(task)])[0],
                      lambda found: VIEW_CASE * len(task.cases) + sum(len(found[name]) for name in _HTML))


VIEWS_KEPT = 6_000_000  # bytes of the kept views at most, about: ~6 MB whatever the class (a class of 200 keeps ~3)
VIEW_CASE = 1_500  # a case's part of a view and its key, in bytes (measured with tracemalloc: 1.5-1.8 KB)
_VIEWS = Kept(VIEWS_KEPT)
_GRAPH = attrgetter("graph")
_CASE_FIELDS = attrgetter(*(f.name for f in fields(CaseResult) if f.name != "graph"))  # its graph: None (_cases_view)
_HTML = ("first_html", "more_html", "waived_html", "passed_html", "hidden_marks")


def _made_cases_view(task: TaskResult) -> dict:
    public_cases, hidden, passed = [], [], 0
    for c in task.cases:  # one pass: a page has a few hundred cases, and a class a few hundred pages
        ok = c.status == "passed"
        passed += ok
        if c.visibility == "public":
            public_cases.append(c)
        else:
            hidden.append("passed" if ok else ("waived" if not c.counted else "failed"))
    return {
        "passed": passed,
        "total": len(task.cases),
        "waived": task.waived,
        "public": [_public_case(c, n) for c, n in same_problems(public_cases)],
        "hidden": hidden,
        "hidden_marks": _marks(hidden),
        "hidden_passed": hidden.count("passed"),
        "hidden_failed": hidden.count("failed"),
        "hidden_waived": hidden.count("waived"),
        "hidden_hint": _hidden_hint(task) if "failed" in hidden else None,
    }


# a hidden case's mark: the kit's own markup, the same for every student (built once, not per case in the template)
_MARK = {"passed": '<span class="passed">✓</span>', "failed": '<span class="failed">✗</span>',
         "waived": '<span class="muted">–</span>'}


def _marks(hidden: list[str]):
    import markupsafe

    return markupsafe.Markup("".join(map(_MARK.__getitem__, hidden)))


# what hidden cases of an op try that its public ones may not (cases/random_cases.py)
OP_HIDDEN = "an upstream gradient other than 1, a node used twice, zero or negative inputs"


def _hidden_hint(task: TaskResult) -> str | None:
    """Where to look when hidden cases fail while every public one passes; nothing when a public one
    fails too (a SyntaxError, a stub), whose own message says what is wrong."""
    if any(c.status != "passed" for c in task.cases if c.visibility == "public" and c.counted):
        return None
    covers = f": {OP_HIDDEN}" if task.id in OPS else ""
    return ("Hidden cases use inputs you have not seen. They fail while the public ones pass: look for what "
            f"the public cases may not cover{covers}.")


def _public_case(case: CaseResult, n: int = 1) -> dict:
    title = case.title or case.id
    if n > 1:  # n cases that say exactly the same (a module that did not import): said once
        title = f"{n} cases" if not case.details else f"{title} (and {n - 1} more with the same result)"
    return {
        "id": case.id,
        "title": title,
        "status": case.status,
        "message": case.message,
        "details": list(case.details),
        "output": case.output,
        "graph": _graph(case),
        "n": n,
        "counted": case.counted,
    }


def _graph(case: CaseResult) -> dict | None:
    """The case's graph, to be drawn (_with_pictures); its text form shows without graphviz."""
    if case.graph is None or case.visibility != "public":
        return None
    return {"model": case.graph, "title": f"{case.id}: the wrong numbers in red, marked {graph_svg.WRONG_MARK}",
            "text": "\n".join(graph_svg.text(case.graph)), "wrong": list(case.graph.wrong),
            "origin": case.graph.origin, "after": list(case.graph.after),
            "key": "graph-" + "".join(c if c.isalnum() else "-" for c in case.id),
            "said": graph_twin.said(case.graph), "headers": graph_twin.HEADERS, "rows": graph_twin.rows(case.graph)}


def _num(x: float) -> str:
    return show(x)
