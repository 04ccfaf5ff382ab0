"""Are the class summary's numbers right on a known set, and is the histogram a real PNG?"""
from __future__ import annotations

from autograder.report.summary import build_summary, render_markdown, write_histogram
from report_fakes import case, report, task


def known_class():
    return [
        report("ana", task("add", case("a"), case("b")), task("mul", case("m"), case("n"))),          # 10
        report("ben", task("add", case("a"), case("b")), task("mul", case("m"), case("n", "timeout"))),  # 7.5
        report("cai", task("add", case("a"), case("b", "error")), task("mul", case("m", "missing"), case("n", "missing"))),  # 2.5
        report("dee", task("add"), task("mul"), error="no micrograd package found"),               # 0
    ]


def test_the_numbers_on_a_known_class():
    s = build_summary(known_class(), late=1)
    assert (s["submissions"], s["graded"], s["ungradable"], s["late"]) == (4, 3, 1, 1)
    assert s["max_score"] == 10
    assert s["mean"] == 5.0 and s["median"] == 5.0 and (s["min"], s["max"]) == (0, 10)
    assert s["submissions_with"] == {"timeout": 1, "error": 1, "missing": 1}
    rates = {t["id"]: (t["passed"], t["pass_rate"], t["mean_score"]) for t in s["tasks"]}
    assert rates == {"add": (2, 0.5, 3.125), "mul": (1, 0.25, 1.875)}
    assert s["histogram"]["counts"] == [1, 0, 1, 0, 0, 0, 0, 1, 0, 1]
    assert sum(s["histogram"]["counts"]) == 4


def test_an_empty_class_has_a_summary_too():
    s = build_summary([])
    assert s["submissions"] == 0 and s["mean"] is None and s["tasks"] == []
    assert "submissions | 0" in render_markdown(s)


def test_the_markdown_page_names_every_number():
    md = render_markdown(build_summary(known_class(), late=1))
    for line in ("| submissions | 4 |", "| could not be graded | 1 |", "| mean score | 5 / 10 |",
                 "| add | the add task | 50% | 3.13 / 5 |", "![score histogram](score_histogram.png)"):
        assert line in md


def test_the_histogram_is_a_real_png(tmp_path):
    path = tmp_path / "h.png"
    write_histogram(build_summary(known_class()), path)
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and b"IEND" in data[-12:]
    assert not list(tmp_path.glob("*.tmp"))


def test_does_the_summary_count_each_mistake_across_the_class_most_frequent_first():
    from dataclasses import replace

    from autograder.report.model import Diagnosis

    def named(student, *pairs):
        tasks = [replace(task(tid, case("c", "failed")), diagnosis=(Diagnosis(mid, "..."),)) for tid, mid in pairs]
        return report(student, *tasks)

    reports = [named("ann", ("mul", "overwrites_grad")), named("bob", ("mul", "overwrites_grad"),
                                                             ("backward", "topo_not_reversed")),
               named("cy", ("mul", "overwrites_grad")), report("dee", task("mul", case("c")))]
    summary = build_summary(reports)
    assert [(d["task"], d["id"], d["count"], d["submissions"]) for d in summary["diagnoses"]] == [
        ("mul", "overwrites_grad", 3, ["ann", "bob", "cy"]), ("backward", "topo_not_reversed", 1, ["bob"])]
    page = render_markdown(summary)
    assert "## What to reteach" in page
    assert "- mul: 3 students overwrite grads with `=` instead of adding with `+=` (ann, bob, cy)" in page
    assert "- backward: 1 student walks the graph in topological order, not reversed (bob)" in page
    assert "What to reteach" not in render_markdown(build_summary(reports[3:]))


def test_is_the_sandbox_said_once_for_the_class_and_left_out_of_students_pages():
    from dataclasses import replace

    from autograder.report.html_report import render_feedback
    from autograder.report.summary_html import Student, render_summary_html

    weak = "sandbox: basic (no bubblewrap): student code can read files and use the network"
    ana, ben, cai, dee = known_class()
    reports = [replace(ana, sandbox="basic", notes=(weak, "micrograd/extra.py is not UTF-8")),
               replace(ben, sandbox="basic", notes=(weak,)), replace(cai, sandbox="bubblewrap"),
               replace(dee, sandbox="none")]
    s = build_summary(reports)
    assert s["sandbox"] == {"basic": 2, "bubblewrap": 1, "none": 1} and s["sandbox_notes"] == [weak]
    page = render_markdown(s)
    assert "| graded in the sandbox | basic (2), bubblewrap (1), none (1) |" in page
    assert page.count(weak) == 1 and "## The sandbox" in page
    students = [Student(r.submission, r.submission, f"feedback/{r.submission}.html", r.score, r.max_score)
                for r in reports]
    assert render_summary_html(s, students).count(weak) == 1
    feedback = render_feedback(reports[0])
    assert weak not in feedback and "is not UTF-8" in feedback  # a student's page: their own notes only
