"""Are the graphs readable where they are shown, looked at in a real browser 1280 px wide?

Real single-mistake engines (tests/corpus/variants.py) are checked; their feedback pages and the
pictures `check --graph` writes are opened in headless Chromium, and a script in the page measures
what a person would see: nothing wider than the window (no sideways scrolling), every picture inside
it, its caption shown, and its text at a size read without effort. Chromium runs with a fresh profile,
no network, no GPU. Screenshots are left in the test's folder (CHROMIUM_SHOTS=DIR keeps them there).
"""
from __future__ import annotations

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
from autograder.report import graph_fit, graph_svg
from autograder.report.graph_files import write_graphs
from autograder.report.html_report import render_feedback

sys.path.insert(0, str(Path(__file__).parents[1] / "corpus"))  # the corpus's harness builds the variants
import variants as corpus  # noqa: E402

# the widest pictures the corpus makes (backward's graphs), the op tasks' two kinds, and a relu graph
VARIANTS = ("backward-no-visited", "backward-not-reversed", "backward-no-seed", "mul-own-data", "add-assign",
            "relu-grad-one-at-zero", "tanh-uses-input")
WIDTH = 1280
SHOT_HEIGHT = 3000  # a screenshot's height: the page down to its pictures
PICTURE_FILES = 2   # pictures written by `check --graph` opened on their own, per variant: the biggest
MIN_TEXT_PX = 10.0  # the smallest text in a picture, as drawn (11 pt is 14.7 px at full size, its box ~17 px)
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(BROWSER is None, reason="chromium is not installed (make chromium, as root with apt)"),
    pytest.mark.skipif(graph_svg.missing() is not None, reason=f"no pictures here: {graph_svg.missing()}"),
]

MEASURE = """<script>
addEventListener('load', () => {
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.right, r.width, r.height]; };
  const out = {page: document.documentElement.scrollWidth, window: innerWidth, pictures: []};
  for (const svg of document.querySelectorAll('svg')) {
    const figure = svg.closest('figure'), caption = figure ? figure.querySelector('figcaption') : null;
    const texts = [...svg.querySelectorAll('text')].map(t => t.getBoundingClientRect().height);
    const view = svg.viewBox.baseVal;
    out.pictures.push({svg: box(svg), caption: caption ? box(caption) : null,
                       scale: view && view.width ? svg.getBoundingClientRect().width / (view.width * 4 / 3) : 1,
                       figure: figure ? [figure.scrollWidth, figure.clientWidth] : null,
                       title: (svg.querySelector('text') || {}).textContent || '',
                       smallest_text: Math.min(...texts)});
  }
  const pre = document.createElement('pre');
  pre.id = 'measured';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""


def chromium(url: str, profile: Path, *args: str, size: str = f"{WIDTH},1000") -> str:
    command = [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--hide-scrollbars", "--force-device-scale-factor=1", f"--user-data-dir={profile}",
               f"--window-size={size}", *args, url]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    return done.stdout


def measured(html_file: Path, profile: Path) -> dict:
    """What the script in the page saw, once Chromium laid it out 1280 px wide."""
    dom = chromium(html_file.as_uri(), profile, "--virtual-time-budget=5000", "--dump-dom")
    found = re.search(r'<pre id="measured">(.*?)</pre>', dom, re.S)
    assert found, f"the measuring script did not run in {html_file.name}"
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))


@pytest.fixture(scope="module")
def shown(tmp_path_factory):
    """Every page and picture file to look at: (name, the page with the measuring script, its screenshot)."""
    work = tmp_path_factory.mktemp("chromium")
    shots = Path(os.environ.get("CHROMIUM_SHOTS", work / "shots"))
    shots.mkdir(parents=True, exist_ok=True)
    rubric, store = load_rubric(corpus.RUBRIC_FILE), GoldenStore(cache_dir=work / "goldens")
    pages = []
    for name in VARIANTS:
        report = grade_path(corpus.build(corpus.by_id()[name], work / name), rubric=rubric,
                            include_hidden=False, store=store, name=name)
        page = render_feedback(report)
        pages.append((f"{name}.html", page))
        files = [f for f in write_graphs(report, work / name / "graphs") if f.suffix == ".svg"]  # `check --graph`
        for svg in sorted(files, key=lambda f: -f.stat().st_size)[:PICTURE_FILES]:  # the biggest graphs
            # a picture opened on its own: the page a browser makes of an .svg, with room for the script
            pages.append((f"{name}--{svg.stem}.html", f"<!DOCTYPE html><html><body style='margin:8px'>"
                          f"{svg.read_text(encoding='utf-8')}</body></html>"))
    out = []
    for filename, page in pages:
        path = work / "pages" / filename
        path.parent.mkdir(exist_ok=True)
        path.write_text(page.replace("</body>", MEASURE + "</body>"), encoding="utf-8")
        shot = shots / filename.replace(".html", ".png")
        chromium(path.as_uri(), work / "profile", f"--screenshot={shot}", size=f"{WIDTH},{SHOT_HEIGHT}")
        out.append((filename, measured(path, work / "profile"), shot))
    return out


def test_does_every_page_fit_1280_px_with_no_sideways_scroll(shown):
    assert not [(name, m["page"]) for name, m, _ in shown if m["page"] > m["window"]]
    assert all(m["window"] == WIDTH for _, m, _ in shown)


def test_is_every_picture_inside_the_window_with_its_caption_shown(shown):
    pictures = [(name, p) for name, m, _ in shown for p in m["pictures"]]
    assert len({name.split("--")[0].removesuffix(".html") for name, _ in pictures}) == len(VARIANTS)
    outside = [(name, p["svg"]) for name, p in pictures if p["svg"][0] < 0 or p["svg"][1] > WIDTH]
    assert not outside
    on_pages = [(name, p) for name, p in pictures if p["figure"] is not None]
    assert on_pages
    hidden = [(name, p["caption"]) for name, p in on_pages
              if p["caption"] is None or p["caption"][3] <= 0 or p["caption"][1] > WIDTH]
    assert not hidden
    assert not [(name, p["figure"]) for name, p in on_pages if p["figure"][0] > p["figure"][1]]
    untitled = [name for name, p in pictures if p["figure"] is None and not p["title"].strip()]
    assert not untitled  # a picture on its own carries its caption in itself


def test_is_the_text_of_every_picture_readable(shown):
    small = [(name, round(p["smallest_text"], 1)) for name, m, _ in shown for p in m["pictures"]
             if p["smallest_text"] < MIN_TEXT_PX]
    assert not small
    shrunk = [(name, round(p["scale"], 2)) for name, m, _ in shown for p in m["pictures"]
              if p["scale"] < graph_fit.MIN_SCALE - 0.01]
    assert not shrunk


def test_is_a_screenshot_of_every_page_taken(shown):
    assert all(shot.exists() and shot.stat().st_size > 0 for _, _, shot in shown)
