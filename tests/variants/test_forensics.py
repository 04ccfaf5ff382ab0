"""Forensics: is a submission that computes another student's variant named, with whose, and no honest one?"""
from __future__ import annotations

from autograder.report.forensics_csv import COLUMNS, render_forensics
from autograder.report.model import Report
from autograder.report.summary import build_summary, render_markdown
from autograder.tasks import VARIANT_OPS
from autograder.variants.forensics import fits, flags, predicted, sample_cases
from autograder.variants.model import Variant

ANN = Variant("ann", "sigmoid", 2.0, "tanh")
BOB = Variant("bob_33", "softplus", 2.7, "relu")
CAT = Variant("cat", "sigmoid", 3.1, "relu")


def _samples(*variants: Variant, broken: str = ""):
    """What an engine holding these variants' methods gives at the sample inputs (`broken`: that op off by 1%)."""
    out = []
    for v in variants:
        outs, grads = predicted(v.op, v.constant)
        if v.op == broken:
            grads = [g * 1.01 for g in grads]
        out.append((v.op, tuple(outs), tuple(grads)))
    return tuple(sorted(out))


def _report(variant: Variant, samples) -> Report:
    return Report(variant.student, 100.0, 106.0, variant=variant, samples=samples)


def test_is_a_copy_of_another_students_engine_named_with_whose():
    """ann hands in bob_33's engine: it computes bob_33's softplus and not ann's sigmoid."""
    found = flags([_report(ANN, _samples(BOB)), _report(BOB, _samples(BOB)), _report(CAT, _samples(CAT))])
    assert [f.says() for f in found] == ["ann solves bob_33's variant (softplus (beta = 2.7)), not its own "
                                         "(sigmoid (c = 2))"]
    assert "a.softplus() at a = " in found[0].evidence and "gave no numbers" in found[0].evidence


def test_is_a_copy_within_the_same_operation_told_by_its_constant():
    found = flags([_report(ANN, _samples(CAT)), _report(CAT, _samples(CAT))])
    assert [(f.student, f.sources) for f in found] == [("ann", ("cat",))]
    assert "its own sigmoid (c = 2) gives" in found[0].evidence


def test_is_an_honest_submission_never_flagged():
    """Correct (fits its own), buggy (fits nothing), the lecture's engine (no extra operation), two students who
    share a variant, and an engine holding another operation at a constant no student has: none is flagged."""
    ann_too = Variant("ann_too", "sigmoid", 2.0, "relu")
    reports = [_report(ANN, _samples(ANN)), _report(BOB, _samples(BOB, broken="softplus")), _report(CAT, ()),
               _report(ann_too, _samples(ann_too)),
               _report(Variant("dan", "sigmoid", 2.5, "tanh"), _samples(Variant("dan", "sigmoid", 2.5),
                                                                         Variant("", "softplus", 1.0)))]
    assert flags(reports) == []


def test_is_another_students_operation_beside_its_own_named_with_whose():
    """dan's engine computes its own sigmoid and bob_33's softplus at bob_33's exact constant: a copy of bob_33's
    engine with dan's operation added. Named, with whose, as found beside its own."""
    dan = Variant("dan", "sigmoid", 2.5, "tanh")
    found = flags([_report(dan, _samples(dan, BOB)), _report(BOB, _samples(BOB))])
    assert [(f.student, f.sources, f.finding) for f in found] == [("dan", ("bob_33",), "beside")]
    assert found[0].says() == "dan also computes bob_33's variant (softplus (beta = 2.7)), beside its own (sigmoid (c = 2.5))"
    assert "its own a.sigmoid() gives sigmoid (c = 2.5)'s numbers too" in found[0].evidence


def test_are_the_variants_compared_with_those_given():
    """Given the class's variants (a roster's: students who handed in nothing too), a copy of an absent
    student's operation is named; without them, only the graded ones are known."""
    dan, eve = Variant("dan", "sigmoid", 2.5, "tanh"), Variant("eve", "sin", 2.2)
    reports = [_report(dan, _samples(dan, eve))]
    assert flags(reports) == []
    assert [(f.student, f.sources) for f in flags(reports, [dan, eve])] == [("dan", ("eve",))]


def test_does_a_sample_fit_only_its_own_constant():
    """The sample inputs tell two constants of the same operation apart at the smallest step a draw makes."""
    for op, spec in VARIANT_OPS.items():
        lo, hi = spec.between
        c = (lo + hi) / 2
        step = (hi - lo) / 100_000
        mine = _samples(Variant("x", op, c))
        assert fits(mine, op, c) and not fits(mine, op, round(c + step, 6)), op


def test_are_the_sample_cases_one_per_operation_and_never_scored():
    cases = sample_cases(tuple(VARIANT_OPS))
    assert [c.params["op"] for c in cases] == list(VARIANT_OPS)
    assert all(c.id.startswith("forensics/") and c.program == "ops.sample" for c in cases)


def test_do_the_summary_and_forensics_csv_list_the_flags_with_the_evidence():
    reports = [_report(ANN, _samples(BOB)), _report(BOB, _samples(BOB))]
    summary = build_summary(reports)
    assert summary["forensics"]["checked"] == 2 and summary["forensics"]["flags"][0]["sources"] == ["bob_33"]
    md = render_markdown(summary, histogram_file=None)
    assert "## Forensics" in md and "ann solves bob_33's variant" in md
    csv = render_forensics(summary["forensics"])
    assert csv.splitlines()[0] == ",".join(COLUMNS) and "bob_33" in csv.splitlines()[1]


def test_does_a_class_without_variants_keep_its_summary_as_it_was():
    summary = build_summary([Report("x", 1.0, 2.0)])
    assert "forensics" not in summary and "Forensics" not in render_markdown(summary, histogram_file=None)
