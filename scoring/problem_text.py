"""The engine's texts in the reader's language.

The engine (:mod:`scoring.rules`) is pure Python: it writes its messages and labels in Italian and
marks them with its own ``gettext_noop``, so that ``makemessages`` collects them. A problem with a
``template`` carries its values apart (``params``): here the template is translated and the values
put in again, the field's ``label`` translated too. Any other engine text is looked up as it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from django.utils.translation import gettext

from scoring.rules.problems import Problem, Said


def engine_text(text: Any) -> str:
    """An engine label or message (marked with ``gettext_noop``) in the active language; a
    :class:`~scoring.rules.problems.Said` is said again from its translated template, its
    ``Said`` values translated the same way."""
    if isinstance(text, Said):
        return _said(text)
    return gettext(text) if isinstance(text, str) and text else ("" if text is None else str(text))


def _said(text: Said) -> str:
    if not text.template:
        return ""
    params = {k: _said(v) if isinstance(v, Said) else v for k, v in text.params.items()}
    try:
        return gettext(text.template) % params if params else gettext(text.template)
    except (KeyError, TypeError, ValueError):  # a translation that lost a value: Italian
        return str(text)


def localized(problem: Problem) -> Problem:
    """``problem`` with its message in the active language."""
    if problem.template:
        params = dict(problem.params or {})
        label = params.get("label")
        params = {k: _said(v) if isinstance(v, Said) else v for k, v in params.items()}
        if isinstance(label, str) and not isinstance(label, Said):
            params["label"] = gettext(label)
        try:
            return replace(problem, message=gettext(problem.template) % params)
        except (KeyError, TypeError, ValueError):  # a translation that lost a value: Italian
            return problem
    return replace(problem, message=engine_text(problem.message))


def localized_all(problems: Iterable[Problem]) -> list[Problem]:
    return [localized(p) for p in problems]


def described(problem: Problem) -> str:
    """:meth:`Problem.describe`'s line (turno, smazzata, player, rule broken) in the active
    language: what the commands print for each problem."""
    return localized(problem).describe(gettext)
