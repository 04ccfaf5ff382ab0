"""Does one real batch contain every hostile submission?

One `autograder grade class --out out --workers 2` over the corpus of
tests/hostile/corpus.py, two honest submissions and a sabotage victim (run once
for the module: it is the expensive part). Then, for each hostile submission:
(1) does it earn no more than its honest code (its twin, graded apart)?
(2) does a confined attack cost only what its twin lost?
(3) is there exactly one gradebook row and one report per submission?
(4) has no process it started outlived the batch?
(5) do the victim and the honest submissions keep full marks, and did forged
    files change no output?

Some properties only a harder sandbox level can hold (corpus.HELD_BY: bubblewrap
hides files and the network, uid puts the grader out of reach of a child run as
nobody). Where a hostile's report names a level that can't, the weak form is
asserted (never above full marks, the report is the grader's own) and the test is
then skipped with the reason, so `-ra` lists what this machine's sandbox did not prove.
"""
from __future__ import annotations

import json
import secrets
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

import corpus
import harness
from autograder.batch.ids import sanitise
from autograder.report.inert import inert
from autograder.config import from_mapping
from autograder.report.json_report import SCHEMA

EPS = 1e-6
BATCH_BUDGET = 75.0  # seconds for the whole batch on 2 cores
STATUSES = {"passed", "failed", "error", "missing", "timeout"}
INDEX = {h.id: i for i, h in enumerate(corpus.HOSTILES)}
HOSTILE_IDS = [h.id for h in corpus.HOSTILES]


@dataclass
class Batch:
    tokens: corpus.Tokens
    root: Path
    run: harness.Run
    twins: dict[str, harness.Honest]
    strays: list[harness.Proc]
    listeners: list[harness.Listener]
    drops: list[str]                  # what the giver left for its classmates, still there after the batch

    @property
    def out(self) -> Path:
        return self.root / "out"

    @property
    def level(self) -> str:
        """The sandbox the batch ran in, as the honest submissions' reports say."""
        return self.run.reports.get(corpus.HONEST[0], {}).get("sandbox", "unknown")

    def student(self, hid: str) -> str:
        """The id the kit gave the hostile, as the gradebook's original column says (batch/ids.py)."""
        for suffix in ("", ".py", ".ipynb", ".zip"):
            if hid + suffix in self.run.originals:
                return self.run.originals[hid + suffix]
        return sanitise(hid)

    def report(self, hid: str) -> dict:
        student = self.student(hid)
        assert student in self.run.reports, f"{hid}: no reports/{student}.json (a lost row)"
        return self.run.reports[student]

    def sandbox(self, report: dict) -> str:
        """The level a report ran under (a crash row doesn't say: the batch's then)."""
        level = report.get("sandbox")
        return level if level not in (None, "", "unknown") else self.level

    def holds(self, h: corpus.Hostile, report: dict) -> bool:
        """Can this run's sandbox be held to the strong property against h?"""
        return not h.needs or self.sandbox(report) in corpus.HELD_BY[h.needs]


def _level_here(name: str) -> str:
    """Why this machine can't run the batch at that level ("" when it can)."""
    from autograder.runner import levels

    return levels._get(name, levels.interpreter())[1]


# the batch at every level that must hold the whole corpus (bubblewrap, and the uid level used where it
# can't run); a level this machine lacks is skipped with its reason. The uid level's run is slow (CI runs it):
# locally `make test` holds the default level, bubblewrap, to the whole corpus.
LEVELS = [pytest.param(name, marks=[pytest.mark.skipif(bool(_level_here(name)), reason=f"{name}: {_level_here(name)}")]
                       + ([pytest.mark.slow] if name == "uid" else []))
          for name in ("bubblewrap", "uid")]


@pytest.fixture(scope="module")
def twins(tmp_path_factory) -> dict[str, harness.Honest]:
    """Every hostile's honest twin, graded once for the batches at every level."""
    return harness.grade_twins(tmp_path_factory.mktemp("twins"), corpus.Tokens(run="000000", port=0),
                               from_mapping(corpus.RUBRIC, source="hostile rubric"))


@pytest.fixture(scope="module", params=LEVELS)
def batch(request, tmp_path_factory, hostile_summary, twins):
    root = tmp_path_factory.mktemp(f"hostile-{request.param}")
    listeners = [harness.Listener("127.0.0.1")]
    ext = harness.external_address()
    if ext:
        try:
            listeners.append(harness.Listener(ext))
        except OSError:
            ext = ""
    tokens = corpus.Tokens(run=secrets.token_hex(3), port=listeners[0].port, ext_host=ext,
                           ext_port=listeners[1].port if ext else 0)
    prefix = f"hx{tokens.run}"
    class_dir = root / "class"
    class_dir.mkdir()
    try:
        for index, h in enumerate(corpus.HOSTILES):
            corpus.build(h, index, tokens, class_dir, sanitise(h.id))
        corpus.build_honest(class_dir, tokens)
        (root / "rubric.toml").write_text(corpus.rubric_toml(), encoding="utf-8")
        run = harness.run_batch(root, "class", "out", "rubric.toml", level=request.param)
        time.sleep(0.3)  # let the kernel finish what the batch killed
        found = Batch(tokens, root, run, twins, harness.tagged_processes(prefix), listeners,
                      harness.drops_left(tokens.run))
        hostile_summary(request.param, _table(found))
        yield found
    finally:
        harness.kill(harness.tagged_processes(prefix))
        harness.remove_drops(tokens.run)
        for listener in listeners:
            listener.close()
        for path in harness.forged_leftovers(prefix):
            path.unlink(missing_ok=True)
        for index, _ in enumerate(corpus.HOSTILES):
            for path in corpus.evil_paths(tokens, index, class_dir):
                if path.is_file():
                    path.unlink()
        for path in class_dir.rglob("*"):  # pytest keeps this folder: not its 60 MiB files
            if path.is_file() and not path.is_symlink() and path.stat().st_size > corpus.BIG // 2:
                path.unlink()


def _table(b: Batch) -> str:
    lines = [f"{'submission':22} {'score':>6} {'honest':>6}  {'sandbox':8} left  error",
             f"{'-' * 22} {'-' * 6} {'-' * 6}  {'-' * 8} ----  -----"]
    for h in corpus.HOSTILES:
        r = b.run.reports.get(b.student(h.id), {})
        marker = b.tokens.marker(INDEX[h.id])
        left = sum(marker in p.comm or marker in p.cmdline for p in b.strays)
        score = f"{r['score']:g}" if "score" in r else "LOST"
        lines.append(f"{h.id:22} {score:>6} {b.twins[h.id].score:>6g}  {str(r.get('sandbox', '?')):8} "
                     f"{left:>4}  {inert(r.get('error') or '')[:70]}")
    for name in (*corpus.HONEST, corpus.VICTIM):
        r = b.run.reports.get(name, {})
        lines.append(f"{name:22} {r.get('score', 'LOST')!s:>6} {100:>6}  {str(r.get('sandbox', '?')):8}")
    hits = sum(len(listener.hits) for listener in b.listeners)
    lines.append(f"batch: exit {b.run.code}, {b.run.seconds:.1f} s, {len(b.run.rows)} rows, "
                 f"{len(b.strays)} process(es) left behind, {hits} connection(s) to the test's listeners")
    return "\n".join(lines)


def _assert_graders_own(b: Batch, student: str) -> None:
    """The trust line, seen from outside: the report is whole, adds up, and is the gradebook's row."""
    report, row = b.run.reports[student], b.run.rows.get(student)
    assert row is not None, f"{student}: no gradebook row"
    assert report.get("schema") == SCHEMA and report.get("submission") == student, report
    assert "FORGED" not in json.dumps(report) and "FORGED" not in json.dumps(row), f"{student}: a forged report"
    tasks = report["tasks"]
    assert abs(report["score"] - sum(t["score"] for t in tasks)) < EPS, f"{student}: the task scores don't add up"
    assert abs(report["max_score"] - from_mapping(corpus.RUBRIC).max_score) < EPS
    assert 0 <= report["score"] <= report["max_score"] + EPS
    for t in tasks:
        assert 0 <= t["score"] <= t["max_score"] + EPS, (student, t["id"])
        assert all(c["status"] in STATUSES for c in t["cases"]), (student, t["id"])
    assert abs(float(row["score"]) - report["score"]) <= 0.005 + EPS, \
        f"{student}: gradebook {row['score']}, report {report['score']}"  # the gradebook shows 2 decimals


def _more_than_honest(report: dict, honest: harness.Honest) -> str:
    extra = [f"{t['id']} {t['score']:g} (honest {honest.tasks.get(t['id'], (0, 0))[0]:g})"
             for t in report["tasks"] if t["score"] > honest.tasks.get(t["id"], (0.0, 0.0))[0] + EPS]
    return f"scored {report['score']:g}, its honest code {honest.score:g}; above it: {', '.join(extra)}"


# ---- (3) the batch as a whole -------------------------------------------------------------

def test_every_submission_has_exactly_one_row_and_one_report(batch):
    expected = {batch.student(h) for h in HOSTILE_IDS} | set(corpus.HONEST) | {corpus.VICTIM}
    assert batch.run.code in (0, 1), f"the batch failed (exit {batch.run.code}):\n{batch.run.stderr[-3000:]}"
    assert "Traceback" not in batch.run.stderr, batch.run.stderr[-3000:]
    rows = set(batch.run.rows)
    assert rows == expected, f"gradebook.csv: missing {expected - rows}, extra {rows - expected}"
    assert batch.run.rows_count == len(expected), "a student has more than one gradebook row"
    assert set(batch.run.reports) == expected, f"reports/: missing {expected - set(batch.run.reports)}, " \
                                                f"extra {set(batch.run.reports) - expected}"


def test_the_batch_takes_a_reasonable_time(batch):
    assert batch.run.seconds < BATCH_BUDGET, f"the batch took {batch.run.seconds:.1f} s (budget {BATCH_BUDGET:g} s)"


def test_every_report_is_the_graders_own(batch):
    for student in batch.run.reports:
        _assert_graders_own(batch, student)


# ---- (1), (2), (4) per hostile --------------------------------------------------------------

@pytest.mark.parametrize("hid", HOSTILE_IDS)
def test_it_earns_no_more_than_its_honest_code(batch, hid):
    h, report, honest = corpus.by_id()[hid], batch.report(hid), batch.twins[hid]
    _assert_graders_own(batch, batch.student(hid))
    if report["score"] > honest.score + EPS and not batch.holds(h, report):
        pytest.skip(f"sandbox {batch.sandbox(report)} {corpus.LACKS[h.needs]}: "
                    f"{hid} {_more_than_honest(report, honest)}")
    assert report["score"] <= honest.score + EPS, f"{hid} {_more_than_honest(report, honest)}"


# Confinement gaps of the grader: xfail(strict), so that fixing one turns this into a failure,
# and the entry is then removed.
KNOWN_GAPS: dict[str, str] = {}


def _confined(h: corpus.Hostile):
    if h.id in KNOWN_GAPS:
        return pytest.param(h.id, marks=pytest.mark.xfail(reason=KNOWN_GAPS[h.id], strict=True))
    return h.id


@pytest.mark.parametrize("hid", [_confined(h) for h in corpus.HOSTILES if h.confined])
def test_a_confined_attack_costs_only_its_own_tasks(batch, hid):
    h, report, honest = corpus.by_id()[hid], batch.report(hid), batch.twins[hid]
    lost = [f"{t['id']} {t['score']:g}/{t['max_score']:g}" for t in report["tasks"]
            if honest.full(t["id"]) and t["score"] < t["max_score"] - EPS]
    if lost and not batch.holds(h, report):
        pytest.skip(f"sandbox {batch.sandbox(report)} {corpus.LACKS[h.needs]}: {hid} lost "
                    f"{', '.join(lost)} ({report.get('error')})")
    assert not lost, f"{hid} lost points its honest code earns in {', '.join(lost)} " \
                     f"(error: {report.get('error')}; notes: {report.get('notes')})"


@pytest.mark.parametrize("hid", HOSTILE_IDS)
def test_no_process_it_started_outlives_the_batch(batch, hid):
    marker = batch.tokens.marker(INDEX[hid])
    left = [p for p in batch.strays if marker in p.comm or marker in p.cmdline]
    assert not left, f"{hid} left {len(left)} process(es) running after the batch: " + \
        "; ".join(f"pid {p.pid} ({p.comm}: {p.cmdline[:100]})" for p in left)


@pytest.mark.parametrize("hid", ["grad-nan", "grad-inf", "grad-str", "grad-liar", "grad-raiser", "grad-hang",
                                 "patch-isclose"])
def test_a_grad_that_is_not_the_right_number_never_passes(batch, hid):
    task = corpus.by_id()[hid].task
    cases = next(t for t in batch.report(hid)["tasks"] if t["id"] == task)["cases"]
    assert cases and not [c["id"] for c in cases if c["status"] == "passed"], f"{hid}: a {task} case passed"


# ---- (5) the others, and what forgers wrote ----------------------------------------------

def test_the_honest_submissions_keep_full_marks(batch):
    for name in corpus.HONEST:
        report = batch.run.reports[name]
        assert report["error"] is None and report["score"] == report["max_score"], \
            (name, report["error"], report["notes"])


def test_the_victim_of_sabotage_keeps_full_marks(batch):
    report = batch.run.reports[corpus.VICTIM]
    _assert_graders_own(batch, corpus.VICTIM)
    if not batch.holds(corpus.by_id()["sabotage"], report) and report["score"] < report["max_score"]:
        pytest.skip(f"sandbox {batch.sandbox(report)} {corpus.LACKS['other-uid']}: the victim scored "
                    f"{report['score']:g} ({report.get('notes')})")
    assert report["error"] is None and report["score"] == report["max_score"], (report["error"], report["notes"])


def test_forged_files_change_no_output(batch):
    h = corpus.by_id()["forge-outputs"]
    report = batch.report(h.id)
    _assert_graders_own(batch, batch.student(h.id))
    assert report["score"] <= batch.twins[h.id].score + EPS
    for path in batch.out.rglob("*"):
        if path.is_file() and path.suffix in (".csv", ".json", ".html", ".md"):
            assert "FORGED" not in path.read_text(encoding="utf-8", errors="replace"), f"{path} carries the forgery"
    with sqlite3.connect(batch.out / "gradebook.sqlite") as db:
        forged = db.execute("SELECT student FROM grades WHERE report LIKE '%FORGED%'").fetchall()
    if forged and not batch.holds(h, report):
        pytest.skip(f"sandbox {batch.sandbox(report)} {corpus.LACKS[h.needs]}: the store holds "
                    f"{len(forged)} forged row(s), which no output used")
    assert not forged, f"forged rows in gradebook.sqlite: {forged}"


def test_no_connection_reaches_the_tests_listeners(batch):
    hits = [(listener.host, peer, data[:40]) for listener in batch.listeners for peer, data in listener.hits]
    h = corpus.by_id()["network"]
    if hits and not batch.holds(h, batch.report(h.id)):
        pytest.skip(f"sandbox {batch.sandbox(batch.report(h.id))} {corpus.LACKS[h.needs]}: "
                    f"{len(hits)} connection(s) reached the listeners")
    assert not hits, f"the child reached the network: {hits[:5]}"


def test_no_shell_escape_ran_and_no_zip_entry_landed_outside(batch):
    class_dir = batch.root / "class"
    for hid in ("zip-slip", "notebook-shell"):
        landed = [p for p in corpus.evil_paths(batch.tokens, INDEX[hid], class_dir) if p.exists()]
        assert not landed, f"{hid}: {landed}"
    assert batch.report("zip-slip")["error"], "a zip with an entry outside its folder must be refused"


def test_does_nothing_a_child_dropped_for_a_classmate_outlive_it(batch):
    """The giver's drops in /tmp, /dev/shm, /var/tmp and SysV shared memory: never made on the machine
    (a private /tmp, an IPC namespace; a chroot and a seccomp filter), or removed when its child ends."""
    report = batch.report("pair-a-giver")
    if batch.drops and not batch.holds(corpus.by_id()["pair-a-giver"], report):
        pytest.skip(f"sandbox {batch.sandbox(report)} {corpus.LACKS['classmates']}: {batch.drops}")
    assert not batch.drops, f"left on the machine after the batch: {batch.drops}"


def test_names_with_spaces_and_other_scripts_are_graded_in_full(batch):
    for hid in ("Zoë Ünïcode", "李雷", "notebook-shell", "huge-extra"):
        report = batch.report(hid)
        assert report["error"] is None and report["score"] == report["max_score"], (hid, report["notes"])


def test_the_readme_has_one_line_per_hostile_submission():
    text = (Path(__file__).parent / "README.md").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.startswith("- `")]
    assert lines == corpus.readme_lines(), "tests/hostile/README.md is out of date with corpus.py"


# ---- issue 19, items 2-5: what the grading process parses, what reaches a terminal, identity -------

def test_a_notebook_the_grading_process_once_parsed_is_one_row_with_the_reason(batch):
    huge = batch.report("nb-huge-cell")   # the oversized cell alone is left out, and named
    assert huge["error"] is None and huge["score"] == huge["max_score"], huge["notes"]
    assert any("cell 2 holds 5.7 MB of code" in n and "left out" in n for n in huge["notes"]), huge["notes"]
    assert "nested too deeply" in batch.report("nb-deep-json")["error"]
    assert "not a Python notebook" in batch.report("esc-kernelspec")["error"]
    report = batch.report("nb-odd-cells")
    assert report["error"] is None and report["score"] == report["max_score"], report["notes"]
    names = batch.report("esc-names")
    assert names["error"] is None and any(corpus.ESCAPES in n for n in names["notes"])  # its value; shown inert


def test_nothing_from_a_submission_acts_in_the_terminal_or_any_output_file(batch):
    from autograder.report.inert import ACTING

    def acting(text: str) -> list[str]:
        return sorted({f"U+{ord(c):04X}" for c in text.replace("\r\n", "\n") if ord(c) in ACTING})

    assert not acting(batch.run.stdout) and not acting(batch.run.stderr), batch.run.stderr[-2000:]
    assert "\\x1b]52;c;" in batch.run.stderr, "the intake's note names the escaped file, inert"
    for path in batch.out.rglob("*"):
        if path.is_file() and path.suffix in (".csv", ".json", ".html", ".md"):
            assert not acting(path.read_text(encoding="utf-8", errors="surrogateescape")), path


def test_the_row_named_after_a_student_holds_that_students_work(batch):
    assert batch.student("rt3_coll") == "rt3_coll" and batch.report("rt3_coll")["score"] == \
        batch.report("rt3_coll")["max_score"]
    other = batch.student("rt3 coll")
    assert other.startswith("rt3_coll~") and batch.report("rt3 coll")["score"] == 0
    assert f"'rt3 coll' is {other}" in batch.run.stderr, "the intake says which original became which id"


def test_every_id_reads_back_from_the_gradebook_as_the_lms_commands_read_it(batch):
    from autograder.lms.graded import read_graded

    assert {g.student for g in read_graded(batch.out)} == set(batch.run.reports)
    assert {"+plus-sign", "@at-sign"} <= set(batch.run.reports)
