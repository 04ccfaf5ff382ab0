"""Can everyone use every page the kit writes? axe-core's WCAG 2.1 A/AA and best-practice rules in Chromium.

Every page type is rendered once from real gradings (a passed submission, failing ones with and without a
graph, one whose engine.py does not import, one refused, one whose grading crashed) and the class's
summary.html; each is opened in headless Chromium with axe-core (npm's axe-core, which `make axe` installs
into .axe/; AXE_CORE=path/to/axe.min.js overrides) run in the page, every <details> opened first so that
what a click shows is checked too. A violation fails the test with its rule id and the elements. The same
pages laid out 320 CSS px wide must not scroll sideways (WCAG 1.4.10, reflow): a wide table or picture
scrolls inside its own labelled region.
"""
from __future__ import annotations

import html as html_module
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.config import load_rubric
from autograder.goldens import GoldenStore
from autograder.grading import grade_path
from autograder.report.html_report import render_feedback
from autograder.report.summary import build_summary
from autograder.report.summary_html import Student, render_summary_html
from autograder.scoring.score import crashed_report

sys.path.insert(0, str(Path(__file__).parents[1] / "corpus"))  # the corpus's harness builds the variants
import variants as corpus  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
AXE = Path(os.environ.get("AXE_CORE") or REPO / ".axe" / "node_modules" / "axe-core" / "axe.min.js")
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
WINDOW_MIN = 500  # headless Chromium's narrowest window
VARIANTS = ("mul-assign", "backward-no-visited", "neuron-no-bias")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(BROWSER is None, reason="chromium is not installed (make chromium, as root with apt)"),
    pytest.mark.skipif(not AXE.is_file(), reason=f"axe-core is not installed at {AXE} (make axe: npm install)"),
]

RUN = """<script>%s</script>
<script>
addEventListener('load', async () => {
  for (const d of document.querySelectorAll('details')) d.open = true;
  const out = {};
  try {
    const found = await axe.run(document, {runOnly: {type: 'tag', values: %s}});
    out.violations = found.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ' | ' + (n.failureSummary || '').replace(/\\s+/g, ' '))}));
  } catch (e) { out.error = String(e); }
  const s = document.scrollingElement;
  out.scroll = [s.scrollWidth, s.clientWidth];
  const pre = document.createElement('pre');
  pre.id = 'axe-result';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
  if (parent !== window) parent.postMessage(pre.textContent, '*');
});
</script>"""
# headless Chromium's window is at least 500 px wide: a narrower viewport is a frame of that width in a page
FRAMED = """<!DOCTYPE html><html lang="en"><head><title>framed</title></head><body style="margin:0">
<iframe title="the page" style="border:0" width="%d" height="900" srcdoc="%s"></iframe>
<script>addEventListener('message', e => { const pre = document.createElement('pre'); pre.id = 'axe-result';
  pre.textContent = e.data; document.body.appendChild(pre); });</script></body></html>"""


def checked(html: str, folder: Path, name: str, width: int) -> dict:
    """What axe-core and the page's own layout said, with the page laid out `width` CSS px wide."""
    page = folder / f"{name}-{width}.html"
    script = RUN % (AXE.read_text(encoding="utf-8"), json.dumps(TAGS))
    html = html.replace("</body>", script + "\n</body>")
    if width < WINDOW_MIN:
        html = FRAMED % (width, html_module.escape(html, quote=True))
    page.write_text(html, encoding="utf-8")
    command = [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--hide-scrollbars", "--force-device-scale-factor=1", f"--user-data-dir={folder / 'profile'}",
               f"--window-size={max(width, 1280)},900", "--virtual-time-budget=30000", "--dump-dom", page.as_uri()]
    dom = subprocess.run(command, capture_output=True, text=True, timeout=300).stdout
    found = re.search(r'<pre id="axe-result">(.*?)</pre>', dom, re.S)
    assert found, f"{name}: axe-core did not report in Chromium ({len(dom)} characters of DOM)"
    return json.loads(html_module.unescape(found.group(1)))


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, str]:
    """Every page type, rendered from real gradings: name -> HTML."""
    work = tmp_path_factory.mktemp("pages")
    rubric = load_rubric(REPO / "assignment.toml")
    store = GoldenStore(cache_dir=work / "goldens")

    def graded(path: Path, name: str):
        return grade_path(path, rubric=rubric, include_hidden=True, store=store, name=name)

    reports = {"passed": graded(corpus.build(None, work / "right"), "ada")}
    for name in VARIANTS:
        reports[name] = graded(corpus.build(corpus.by_id()[name], work / name), name)
    broken = corpus.build(None, work / "syntax")
    engine = broken / "micrograd" / "engine.py"
    engine.write_text(engine.read_text().replace("self.grad += other.data * out.grad",
                                                 "self.grad += other.data * out.grad )", 1))
    reports["not-imported"] = graded(broken, "syntax")
    reports["refused"] = crashed_report("refused", "micrograd/engine.py:1: ImportError: torch is not allowed "
                                        "here: grading uses the kit's own engines", rubric, sandbox="bubblewrap")
    reports["crashed"] = crashed_report("crashed", "grading crashed: RuntimeError: the sandbox could not start",
                                        rubric)
    pages = {name: render_feedback(report, late=name == "mul-assign") for name, report in reports.items()}
    summary = build_summary(list(reports.values()), late=1, intake=["2 files were not submissions: notes.txt, "
                                                                    "__MACOSX/"])
    summary["forensics"] = {"checked": 5, "flags": [{"student": "mul-assign", "own": "relu6 c = 1.5",
                                                     "sources": ["syntax"], "source_variant": "sigmoid c = 2.3407",
                                                     "finding": "beside", "says": "mul-assign computes syntax's variant",
                                                     "evidence": "sigmoid with c = 2.3407 at 5 of 5 samples"}]}
    summary["sandbox_notes"] = ["sandbox: basic: no network isolation"]
    students = [Student(r.submission, r.submission, f"feedback/{r.submission}.html", r.score, r.max_score,
                        r.submission == "mul-assign", r.error) for r in reports.values()]
    pages["summary"] = render_summary_html(summary, students)
    return pages


PAGES = ("passed", *VARIANTS, "not-imported", "refused", "crashed", "summary")


@pytest.mark.parametrize("name", PAGES)
def test_does_the_page_meet_wcag_21_aa(pages, tmp_path, name):
    """Does axe-core find no violation of WCAG 2.1 A/AA or its best practices, every disclosure open?"""
    result = checked(pages[name], tmp_path, name, 1280)
    assert "error" not in result, result
    said = [f"{v['id']} ({v['impact']}: {v['help']}): {'; '.join(v['nodes'])}" for v in result["violations"]]
    assert not said, f"{name}: " + "\n".join(said)


@pytest.mark.parametrize("name", PAGES)
def test_does_the_page_reflow_at_320_px(pages, tmp_path, name):
    """Laid out 320 CSS px wide, does the page need no sideways scroll (its wide parts scroll in their own regions)?"""
    found = checked(pages[name], tmp_path, name, 320)
    width, room = found["scroll"]
    assert room == 320, f"{name}: laid out {room} px wide, not 320"
    assert width <= room, f"{name}: the page is {width} px wide in a window of {room} px"
    assert "error" not in found, found
