"""Is a student's page, its public cases' <li>s and its tasks' rows and sections rendered once a class and kept,
the page the one template with its tasks' and cases' pieces inline would render, to the byte (with the kept pieces
and without)?"""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from autograder.report import feedback_pieces, html_report
from autograder.report.html_report import feedback_view, render_feedback
from autograder.report.jinja_env import TEMPLATES, template
from autograder.report.model import CaseResult, Report, TaskResult
from test_every_report_renders import reports

PIECES = {"{{ t.row_html }}": feedback_pieces.ROW, "{{ t.section_html }}": feedback_pieces.SECTION}  # a task's
PLACES = {"{{ t.first_html }}": "first", "{{ t.more_html }}": "more", "{{ t.waived_html }}": "waived",
          "{{ t.passed_html }}": "passed"}  # where each list of the task's public cases' <li>s goes


def body(name: str) -> str:
    """A piece's template without its opening comment."""
    return (TEMPLATES / name).read_text(encoding="utf-8").split("\n", 1)[1]


def one_template():
    """feedback.html.j2 as one template, as it was written: each task's row and section inline in its loop over the
    tasks, and the case's <li> inline in a loop over each list of cases."""
    page = (TEMPLATES / html_report.TEMPLATE).read_text(encoding="utf-8")
    for place, name in PIECES.items():
        line = next(line for line in page.splitlines(keepends=True) if line.startswith(place))
        page = page.replace(line, body(name))
    case = body(html_report.CASE_TEMPLATE)
    for place, name in PLACES.items():
        line = next(line for line in page.splitlines(keepends=True) if line.startswith(place))
        page = page.replace(line, f"    {{% for c in t.lists.{name} %}}\n" + case + "    {% endfor %}\n")
    return template(html_report.TEMPLATE).environment.from_string(page)


def inline_page(report: Report, **kw) -> str:
    return one_template().render(page=feedback_view(report, **kw))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reports())
def test_is_every_kind_of_report_rendered_as_the_inline_template_renders_it(report):
    html_report._CASES_HTML.clear()
    html_report._VIEWS.clear()
    feedback_pieces._KEPT.clear()
    assert render_feedback(report, student="ana") == inline_page(report, student="ana")
    assert render_feedback(report, student="ana") == inline_page(report, student="ana")  # its <li>s kept now


def test_does_a_kept_case_read_the_same_on_another_students_page():
    passed = CaseResult("mul-1", "passed", "public", title="x * y")
    broken = CaseResult("add-1", "error", "public", "nn.py did not import: \u202e <b>", "t", ("line <1>",), "printed")
    first = Report("ana", 1.0, 2.0, (TaskResult("mul", "Mul", 1.0, 1.0, (passed,)),
                                     TaskResult("add", "Add", 0.0, 1.0, (broken, broken, passed))))
    second = Report("ben", 1.0, 2.0, (TaskResult("add", "Add", 0.0, 1.0, (passed, broken)),))
    for report in (first, second, first):
        assert render_feedback(report, late=True) == inline_page(report, late=True)


def test_is_a_task_s_row_and_section_rendered_once_for_every_page_where_they_read_the_same(monkeypatch):
    """Two students whose task reads the same (all passed): its row and section rendered for the first page only;
    a third whose same task failed a case gets its own, rendered for it."""
    feedback_pieces._KEPT.clear()
    rendered = []
    real = feedback_pieces.template

    def counting(name):
        found = real(name)
        if name in (feedback_pieces.ROW, feedback_pieces.SECTION):
            rendered.append(name)
        return found

    monkeypatch.setattr(feedback_pieces, "template", counting)
    passed = CaseResult("mul-1", "passed", "public", title="x * y")
    mul = TaskResult("mul", "Mul", 1.0, 1.0, (passed, CaseResult("mul-h1", "passed", "hidden")))
    pages = [render_feedback(Report(name, 1.0, 1.0, (mul,)), student=name) for name in ("ana", "ben")]
    assert rendered == [feedback_pieces.ROW, feedback_pieces.SECTION]
    assert pages[0].replace("ana", "ben") == pages[1]
    failed = TaskResult("mul", "Mul", 0.5, 1.0, (passed, CaseResult("mul-h1", "failed", "hidden")))
    page = render_feedback(Report("cy", 0.5, 1.0, (failed,)), student="cy")
    assert rendered[2:] == [feedback_pieces.ROW, feedback_pieces.SECTION]
    assert page == inline_page(Report("cy", 0.5, 1.0, (failed,)), student="cy")


def test_are_the_kept_pieces_held_to_a_few_mb_however_many_tasks_a_class_has(monkeypatch):
    """Kept pieces are a bounded cache, not a class's worth: with KEPT small, pages of ever new tasks keep at most
    KEPT characters, and every page still reads as the inline template renders it."""
    monkeypatch.setattr(feedback_pieces._KEPT, "limit", 20_000)
    feedback_pieces._KEPT.clear()
    for i in range(60):
        case = CaseResult(f"mul-{i}", "failed", "public", f"wrong grad {i}", "x * y", (f"got {i}",))
        report = Report(f"s{i}", 0.0, 1.0, (TaskResult("mul", f"Mul {i}", 0.0, 1.0, (case,)),))
        assert render_feedback(report) == inline_page(report)
        assert feedback_pieces._KEPT.size <= 20_000
    assert 0 < len(feedback_pieces._KEPT) < 60


def test_is_a_piece_s_template_read_only_as_t_dot_name():
    """What a piece is made of is read from its template: one that reads its task otherwise (t["x"], another name)
    can't be told apart by those parts, and is refused rather than kept wrongly."""
    for name in (feedback_pieces.ROW, feedback_pieces.SECTION):
        assert "id" in feedback_pieces.inputs(name) and "title" in feedback_pieces.inputs(name)
    env = template(feedback_pieces.ROW).environment
    for source in ('{{ t["id"] }}', "{{ t.id }} {{ page.x }}", "{{ t }}"):
        try:
            feedback_pieces.read_parts(env.parse(source), "x.html.j2")
        except ValueError:
            continue
        raise AssertionError(f"{source!r} was taken")


def test_is_a_task_s_view_made_once_for_the_pages_whose_task_reads_the_same_and_held_to_a_few_mb(monkeypatch):
    """A task's view made of its cases is kept for the next page whose task's cases read the same (the same object),
    and not for one whose cases differ in anything the page shows; with VIEWS_KEPT small, ever new tasks keep at
    most VIEWS_KEPT characters, and every page still reads as the inline template renders it."""
    html_report._VIEWS.clear()
    passed = CaseResult("mul-1", "passed", "public", title="x * y")
    mul = TaskResult("mul", "Mul", 1.0, 1.0, (passed, CaseResult("mul-h1", "passed", "hidden")))
    first, second = (feedback_view(Report(name, 1.0, 1.0, (mul,)))["tasks"][0] for name in ("ana", "ben"))
    assert first["public"] is second["public"] and first["passed_html"] is second["passed_html"]
    for other in (CaseResult("mul-1", "passed", "public", title="x * y", output="printed"),
                  CaseResult("mul-1", "failed", "public", title="x * y")):
        changed = TaskResult("mul", "Mul", 1.0, 1.0, (other, CaseResult("mul-h1", "passed", "hidden")))
        view = feedback_view(Report("cy", 1.0, 1.0, (changed,)))["tasks"][0]
        assert view["public"] is not first["public"]
        assert render_feedback(Report("cy", 1.0, 1.0, (changed,))) == inline_page(Report("cy", 1.0, 1.0, (changed,)))

    monkeypatch.setattr(html_report._VIEWS, "limit", 5_000)
    html_report._VIEWS.clear()
    for i in range(40):
        case = CaseResult(f"mul-{i}", "failed", "public", f"wrong grad {i}", "x * y", (f"got {i}",))
        report = Report(f"s{i}", 0.0, 1.0, (TaskResult("mul", "Mul", 0.0, 1.0, (case,)),))
        assert render_feedback(report) == inline_page(report)
        assert html_report._VIEWS.size <= 5_000
    assert 0 < len(html_report._VIEWS) < 40
