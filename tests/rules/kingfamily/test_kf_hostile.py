"""Hostile documents: any value anywhere in a King family document gives either the scored
output or RuleViolation with its problems, never another exception."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.rules.problems import RuleViolation
from scoring.rules.systems import system_of_document

from .conftest import sample

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-20, 20)
    | st.floats(allow_nan=False)
    | st.text(max_size=6)
    | st.sampled_from(["Anna", "Bruno", "NQ", "RECUP", "ASTA", "NT", "POSITIVE", "2026-11-22"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(paths(v, (*prefix, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(paths(v, (*prefix, i)))
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["king-classico", "king-internazionale", "le-king"]),
    st.data(),
    json_values,
)
def test_any_value_anywhere_is_scored_or_refused(code, data, value):
    doc = sample(code)
    path = data.draw(st.sampled_from(paths(doc)[1:]))
    target = doc
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    try:
        out = system_of_document(doc).score_document(doc)
    except RuleViolation as exc:
        assert exc.problems
        assert all(p.code and p.message for p in exc.problems)
    else:
        assert out["format"] == "kingclub/v1"
