"""Does summary.html show how the class did: its numbers, each task's pass rate, what to reteach with
links to who made each mistake, every student linked to their page, and nothing a student wrote as markup?"""
from __future__ import annotations

import re
from dataclasses import replace
from html import unescape

from autograder.report.model import Diagnosis
from autograder.report.summary import build_summary, number_rows
from autograder.report.summary_html import Student, render_summary_html
from report_fakes import case, report, task

HOSTILE = '<img src=x onerror="alert(1)">'


def a_class():
    named = replace(task("mul", case("m", "failed"), case("n")), diagnosis=(Diagnosis("overwrites_grad", "..."),))
    return [
        report("ana", task("add", case("a")), task("mul", case("m"), case("n"))),
        report("ben", task("add", case("a")), named),
        report(HOSTILE, task("add", case("a")), named),
        report("dee", task("add"), task("mul"), error=f"no micrograd package found: {HOSTILE}"),
    ]


def students(reports, late=("ben",)):
    return [Student(r.submission, r.submission, f"feedback/s{i}.html", r.score, r.max_score, r.submission in late,
                    r.error) for i, r in enumerate(reports)]


def page(reports=None):
    reports = a_class() if reports is None else reports
    return render_summary_html(build_summary(reports, late=1), students(reports))


def test_are_the_class_numbers_and_each_tasks_pass_rate_shown():
    html = page()
    summary = build_summary(a_class(), late=1)
    for what, value in number_rows(summary):
        assert f"<div><dt>{what}</dt><dd>{value}</dd></div>" in unescape(html)
    assert 'aria-label="75 percent"' in html and "75% (3/4)" in html   # add: ana, ben, the third
    assert "25% (1/4)" in html                                        # mul: ana only
    assert '<img class="histogram" src="score_histogram.png"' in html


def test_does_what_to_reteach_link_the_pages_of_who_made_the_mistake():
    html = page()
    reteach = html[html.index("<h2>What to reteach</h2>"):html.index("<h2>Tasks</h2>")]
    assert "mul: 2 students overwrite grads with <code>=</code>" in reteach
    assert sorted(re.findall(r'<a href="([^"]+)">', reteach)) == ["feedback/s1.html", "feedback/s2.html"]


def test_is_every_student_linked_with_score_lateness_and_error():
    html = page()
    rows = html[html.index("<h2>Students</h2>"):]
    assert re.findall(r'<a href="([^"]+)">', rows) == [f"feedback/s{i}.html" for i in range(4)]
    assert "10 / 10" in rows and "handed in late" in rows and "no micrograd package found" in rows


def test_is_nothing_a_student_wrote_markup():
    html = page()
    assert HOSTILE not in html and "onerror=\"alert" not in html
    assert html.count("&lt;img src=x onerror=&#34;alert(1)&#34;&gt;") >= 3  # reteach, students, error


def test_does_an_empty_class_get_a_page_without_a_histogram():
    html = page([])
    assert "Class summary" in html and "<img" not in html and "<h2>Students</h2>" not in html
