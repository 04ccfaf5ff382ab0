"""Is dumps_indented json.dumps(indent=2, ensure_ascii=False) to the byte, for reports and for any JSON value?"""
from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder.report.json_indent import dumps_indented
from autograder.report.json_report import report_dict
from test_every_report_renders import reports


def standard(value, indent: int = 2) -> str:
    return json.dumps(value, indent=indent, ensure_ascii=False)


scalars = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True)
           | st.text() | st.sampled_from(["\x1b[2J", "\u202e", "\ud800", "\x00\x9b", "", "\"\\/", "✓ 李"]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.lists(inner, max_size=3).map(tuple)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(values)
def test_is_any_json_value_written_as_json_dumps_writes_it(value):
    assert dumps_indented(value) == standard(value)


@settings(max_examples=60, deadline=None)
@given(reports())
def test_is_every_kind_of_report_written_as_json_dumps_writes_it(report):
    data = report_dict(report)
    assert dumps_indented(data) == standard(data)


@pytest.mark.parametrize("value", [
    {}, [], {"a": {}, "b": [], "c": [[]], "d": [{}]}, {1: "int key", 2.5: "float", True: "t", None: "n"},
    [math.nan, math.inf, -math.inf, -0.0, 1e300, 5e-324], 10 ** 40, {"nested": [[[[1]]]]}])
def test_are_the_corners_of_json_written_the_same(value):
    assert dumps_indented(value) == standard(value)


@pytest.mark.parametrize("indent", [0, 1, 4])
def test_does_another_indent_match_too(indent):
    value = {"a": [1, {"b": None}], "c": "x"}
    assert dumps_indented(value, indent) == standard(value, indent)


def test_does_what_json_refuses_still_raise_as_json_dumps_raises():
    with pytest.raises(TypeError):
        dumps_indented({"a": {1, 2}})
    with pytest.raises(TypeError):
        dumps_indented({(1, 2): "tuple key"})


def test_is_a_reports_json_written_without_jsons_pure_python_encoder(monkeypatch):
    """json.dumps(indent=...) runs json's generator chain in Python (~3 ms a report); does render_json avoid it?"""
    import json.encoder

    from autograder.report.json_report import render_json
    from report_fakes import case, report, task

    def refuse(*args, **kwargs):
        raise AssertionError("json's pure-Python encoder was used")

    monkeypatch.setattr(json.encoder, "_make_iterencode", refuse)
    r = report("ana", task("mul", case("m1", "failed", message="got 2")))
    assert json.loads(render_json(r))["submission"] == "ana"
