"""What the grading process spends on each submission it is handed, step by step, without a profiler: storing the
row (store.put: its compact JSON, its brief, the SQLite insert and commit) and writing the student's files
(outputs.write_student: reports/<id>.json, feedback/<id>.html, their records).

    .venv/bin/python benchmarks/pages_cost.py [--count 200] [--repeats 5] [--from OUT]

Grades bench_batch's class of --count once (2 workers; or reads the rows of an earlier run's --out folder, --from),
then replays, --repeats times, what the grading process does with each of its reports in a batch, in the class's
order, into a new output folder and store each time (every kept text and picture cleared first, and the reports
unpickled anew, as in a new process that a worker sent them to): the
same calls (Store.put, OutputFiles.write_student) with each step's CPU (time.thread_time) added up. Prints the
medians over the repeats, in ms a submission; a step's figure includes the steps indented under it.
CPU time, not wall clock: the machine may be shared.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KIT))
sys.path.insert(0, str(KIT / "benchmarks"))
sys.path.insert(0, str(KIT / "tests" / "corpus"))

# (label, depth, module, owner (a class's name, or "" for the module), attribute): each wrapped to add its CPU
STEPS = (
    ("store a row (Store.put)", 0, "autograder.batch.store", "Store", "put"),
    ("its compact JSON (json_text.compact_json)", 1, "autograder.batch.store", "", "compact_json"),
    ("its brief (brief.brief_json)", 1, "autograder.batch.store", "", "brief_json"),
    ("a student's files (OutputFiles.write_student)", 0, "autograder.batch.outputs", "OutputFiles", "write_student"),
    ("reports/<id>.json's text (json_text.indented_json)", 1, "autograder.report.json_text", "", "indented_json"),
    ("feedback/<id>.html's text (html_report.render_feedback)", 1, "autograder.report.html_report", "",
     "render_feedback"),
    ("its view (html_report.feedback_view)", 2, "autograder.report.html_report", "", "feedback_view"),
    ("its pictures (graph_svg.pictures: dot's drawings, fitted)", 2, "autograder.report.graph_svg", "", "pictures"),
    ("writing a file (files.write_bytes_atomic)", 1, "autograder.batch.outputs", "", "write_bytes_atomic"),
    ("the files' record (outputs._Files.current, the record's put and mark)", 1, "autograder.batch.output_record",
     "StoreRecord", ("get", "put", "mark")),
)


def _wrap(spent: dict[str, float]) -> None:
    import importlib

    for label, _, module, owner_name, names in STEPS:
        mod = importlib.import_module(module)
        owner = getattr(mod, owner_name) if owner_name else mod
        for name in (names,) if isinstance(names, str) else names:
            real = getattr(owner, name)

            def timed(*args, _real=real, _label=label, **kwargs):
                started = time.thread_time()
                try:
                    return _real(*args, **kwargs)
                finally:
                    spent[_label] += time.thread_time() - started
            setattr(owner, name, timed)


def graded_class(count: int, work: Path) -> Path:
    """bench_batch's class of `count`, graded by `autograder grade` (2 workers): its output folder."""
    import bench_batch

    subs = work / "class"
    subs.mkdir()
    bench_batch.make_class(subs, count, 1)
    env = {**os.environ, "AUTOGRADER_CACHE": str(work / "cache")}
    env.pop("AUTOGRADER_HIDDEN_SEED", None)
    _, done = bench_batch.cli_grade(subs, work / "out", 2, env)
    if done.returncode != 0:
        raise SystemExit(f"pages_cost: grading the class failed:\n{done.stderr[-2000:]}")
    return work / "out"


def stored_rows(out: Path) -> list[tuple]:
    """(BatchRow, GradeKey) of each row of out's gradebook, in the students' order."""
    import sqlite3

    from autograder.batch.keys import GradeKey
    from autograder.batch.report_json import report_from_dict
    from autograder.batch.row import BatchRow

    db = sqlite3.connect(out / "gradebook.sqlite")
    try:
        found = db.execute("SELECT student, content, kit_version, hidden_seed, rubric, report, late, source, "
                           "original, final FROM grades ORDER BY student").fetchall()
    finally:
        db.close()
    return [(BatchRow(student, report_from_dict(json.loads(report)), None if late is None else bool(late), source,
                      original, bool(final)), GradeKey(content, kit, seed, rubric))
            for student, content, kit, seed, rubric, report, late, source, original, final in found]


def replay(sent: bytes, work: Path, spent: dict[str, float]) -> float:
    """Store each row and write its files as a batch does, into a new folder: the grading process's CPU. sent: the
    rows pickled, as a worker sends a report (each replay's objects new, as each batch's are)."""
    import pickle

    from autograder.batch.outputs import OutputFiles
    from autograder.batch.store import Store
    from autograder.report import graph_svg, html_report, json_text

    for kept in ("_TEXTS", "_LAST"):  # what a process keeps of a class's reports (each module's own)
        getattr(json_text, kept).clear()
    for module, names in ((html_report, ("_CASES_HTML", "_VIEWS")), (graph_svg, ("_DRAWN", "_SOURCES"))):
        for name in names:
            getattr(module, name, {}).clear()  # (main's html_report has no _VIEWS)
    try:
        from autograder.report import feedback_pieces
        feedback_pieces._KEPT.clear()
    except ImportError:  # main's
        pass
    out = work / "replay"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    rows = pickle.loads(sent)
    with Store(out / "gradebook.sqlite") as store:
        keys = {row.student: key for row, key in rows}
        files = OutputFiles(out, [row.student for row, _ in rows], store,
                            full=lambda row: store.get(row.student, keys[row.student]))
        started = time.thread_time()
        for row, key in rows:
            files.write_student(store.put(row, key))
        return time.thread_time() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--from", dest="source", type=Path, help="an earlier run's --out folder (not graded again)")
    parser.add_argument("--json", type=Path, help="also write the numbers here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pages-cost-") as tmp:
        work = Path(tmp)
        import pickle

        rows = stored_rows(args.source or graded_class(args.count, work))
        n, sent = len(rows), pickle.dumps(rows)
        spent = {label: 0.0 for label, *_ in STEPS}
        _wrap(spent)
        replay(sent, work, spent)  # the templates compiled, the modules imported: as before a batch's first row
        totals, steps = [], {label: [] for label in spent}
        for _ in range(args.repeats):
            before = dict(spent)
            totals.append(replay(sent, work, spent))
            for label in spent:
                steps[label].append(spent[label] - before[label])
    result = {"submissions": n, "repeats": args.repeats,
              "ms_per_submission": {"in all (put + write_student)": 1000 * statistics.median(totals) / n,
                                    **{label: 1000 * statistics.median(v) / n for label, v in steps.items()}}}
    print(f"{n} submissions, {args.repeats} repeats (medians; CPU of the grading process's thread, "
          f"load {os.getloadavg()[0]:.2f}):")
    depth = {label: d for label, d, *_ in STEPS}
    for label, ms in result["ms_per_submission"].items():
        print(f"  {'  ' * depth.get(label, 0)}{label:{72 - 2 * depth.get(label, 0)}} {ms:6.2f} ms")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
