"""Is a student's page, its public cases' <li>s rendered once a class and kept, the page the one template
with its cases' loop inline would render, to the byte (with the kept <li>s and without)?"""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from autograder.report import html_report
from autograder.report.html_report import feedback_view, render_feedback
from autograder.report.jinja_env import TEMPLATES, template
from autograder.report.model import CaseResult, Report, TaskResult
from test_every_report_renders import reports

PLACES = {"{{ t.first_html }}": "first", "{{ t.more_html }}": "more", "{{ t.waived_html }}": "waived",
          "{{ t.passed_html }}": "passed"}  # where each list of the task's public cases' <li>s goes


def one_template():
    """feedback.html.j2 as one template: the case's <li> inline in a loop over each list of cases, as it was written."""
    page = (TEMPLATES / html_report.TEMPLATE).read_text(encoding="utf-8")
    case = (TEMPLATES / html_report.CASE_TEMPLATE).read_text(encoding="utf-8")
    body = case.split("\n", 1)[1]  # without its opening comment
    for place, name in PLACES.items():
        line = next(line for line in page.splitlines(keepends=True) if line.startswith(place))
        page = page.replace(line, f"    {{% for c in t.lists.{name} %}}\n" + body + "    {% endfor %}\n")
    return template(html_report.TEMPLATE).environment.from_string(page)


def inline_page(report: Report, **kw) -> str:
    return one_template().render(page=feedback_view(report, **kw))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reports())
def test_is_every_kind_of_report_rendered_as_the_inline_template_renders_it(report):
    html_report._CASES_HTML.clear()
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
