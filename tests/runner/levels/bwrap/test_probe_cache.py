"""Is a bubblewrap probe that passed remembered between processes, and only where it can be trusted
(issue 32: a student's check without the test run)?"""
from __future__ import annotations

import json
import os

import pytest

from autograder.runner import levels
from autograder.runner.levels.bwrap import probe as bwrap_probe, probe_cache

PYTHON = levels.interpreter()
LEVEL, WHY = bwrap_probe.probe(PYTHON)
needs_bwrap = pytest.mark.skipif(LEVEL is None, reason=f"bubblewrap unusable here: {WHY}")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A cache folder of the test's own; the process's probe forgotten before and after."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("AUTOGRADER_CACHE", str(folder))
    bwrap_probe.probe.cache_clear()
    yield folder
    bwrap_probe.probe.cache_clear()


def probe_without_test_run(monkeypatch):
    """The probe as a new process makes it, with its test run refused: a level means it was recalled."""
    monkeypatch.setattr(bwrap_probe, "_test_run", lambda *a: pytest.fail("the test run ran again"))
    bwrap_probe.probe.cache_clear()
    return bwrap_probe.probe(PYTHON)


@needs_bwrap
def test_does_the_next_process_take_the_level_without_a_test_run(cache, monkeypatch):
    first, _ = bwrap_probe.probe(PYTHON)
    saved = cache / probe_cache.NAME
    assert oct(saved.stat().st_mode & 0o777) == "0o600" and oct(cache.stat().st_mode & 0o777) == "0o700"
    level, why = probe_without_test_run(monkeypatch)
    assert why == "" and level is not None
    assert (level.bwrap, level.python, level.features, level.why) == (first.bwrap, first.python, first.features,
                                                                       first.why)
    assert (level.userns is None) == (first.userns is None)


@needs_bwrap
@pytest.mark.parametrize("change", ["kit version", "kernel", "uid", "bwrap"])
def test_is_the_probe_made_again_when_what_decides_it_changed(cache, monkeypatch, change):
    bwrap_probe.probe(PYTHON)
    assert probe_cache.recall(LEVEL.bwrap, PYTHON) is not None
    saved = json.loads((cache / probe_cache.NAME).read_text())
    if change == "kit version":
        monkeypatch.setattr(probe_cache, "__version__", "9.9.9")
    elif change == "kernel":
        monkeypatch.setattr(probe_cache.os, "uname", lambda: os.uname_result(("Linux", "h", "9.9.9-other", "", "")))
    elif change == "uid":
        real = os.geteuid()
        monkeypatch.setattr(probe_cache.os, "geteuid", lambda: real + 4321)
    else:  # the same path, another binary: its mtime and size are in the key
        stamp, real_stamp = saved["probes"][0]["key"][4], probe_cache._stamp
        monkeypatch.setattr(probe_cache, "_stamp", lambda path: [*stamp[:2], stamp[2] + 1] if path == stamp[0]
                            else real_stamp(path))
    assert probe_cache.key(LEVEL.bwrap, PYTHON) != saved["probes"][0]["key"]
    assert probe_cache.recall(LEVEL.bwrap, PYTHON) is None


def test_is_a_file_others_could_write_or_a_link_never_read(cache):
    key_parts = ("/usr/bin/bwrap", PYTHON)
    probe_cache.remember(*key_parts, frozenset({"--size"}), False, "")
    saved = cache / probe_cache.NAME
    assert probe_cache.recall(*key_parts)["features"] == ["--size"]
    os.chmod(saved, 0o622)
    assert probe_cache.recall(*key_parts) is None
    os.chmod(saved, 0o600)
    elsewhere = cache.parent / "planted.json"
    saved.rename(elsewhere)
    saved.symlink_to(elsewhere)
    assert probe_cache.recall(*key_parts) is None  # O_NOFOLLOW: a link is refused


def test_is_a_failed_probe_never_remembered(cache, monkeypatch, tmp_path):
    """A bwrap whose test run fails: probed again each time (nothing is taken away by a stale file)."""
    fake = tmp_path / "bin" / "bwrap"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}:{os.environ['PATH']}")
    level, why = bwrap_probe.probe(PYTHON)
    assert level is None and "failed" in why
    assert not (cache / probe_cache.NAME).exists()


def test_is_a_file_of_another_shape_probed_again_not_a_crash(cache):
    key_parts = ("/usr/bin/bwrap", PYTHON)
    probe_cache.remember(*key_parts, frozenset({"--size"}), False, "")
    saved = cache / probe_cache.NAME
    data = json.loads(saved.read_text())
    data["probes"][0]["features"] = "--size"
    saved.write_text(json.dumps(data))
    assert probe_cache.recall(*key_parts) is None
    saved.write_text(json.dumps({"key": data["probes"][0]["key"], "features": ["--size"], "userns": False,
                                 "why": ""}))  # the one-probe file of before: probed again
    assert probe_cache.recall(*key_parts) is None
    saved.write_text("{not json")
    assert probe_cache.recall(*key_parts) is None


def test_do_two_kits_of_one_user_keep_their_probes_side_by_side(cache, monkeypatch):
    """Two checkouts (their files are in the key) taking turns: each recalls its own, neither undoes the
    other's; the oldest are dropped past KEPT."""
    key_parts = ("/usr/bin/bwrap", PYTHON)
    real_key = probe_cache.key
    for kit in ("a", "b"):
        monkeypatch.setattr(probe_cache, "key", lambda *parts, kit=kit: [kit, *real_key(*parts)])
        probe_cache.remember(*key_parts, frozenset({f"--{kit}"}), False, "")
    for kit in ("a", "b"):
        monkeypatch.setattr(probe_cache, "key", lambda *parts, kit=kit: [kit, *real_key(*parts)])
        assert probe_cache.recall(*key_parts)["features"] == [f"--{kit}"]
    for n in range(probe_cache.KEPT):
        monkeypatch.setattr(probe_cache, "key", lambda *parts, n=n: [n, *real_key(*parts)])
        probe_cache.remember(*key_parts, frozenset(), False, "")
    assert len(json.loads((cache / probe_cache.NAME).read_text())["probes"]) == probe_cache.KEPT
    monkeypatch.setattr(probe_cache, "key", lambda *parts: ["b", *real_key(*parts)])
    assert probe_cache.recall(*key_parts) is None
