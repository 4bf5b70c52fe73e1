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

from scoring.rules.problems import Problem


def engine_text(text: Any) -> str:
    """An engine label or message (marked with ``gettext_noop``) in the active language."""
    return gettext(text) if isinstance(text, str) and text else ("" if text is None else str(text))


def localized(problem: Problem) -> Problem:
    """``problem`` with its message in the active language."""
    if problem.template:
        params = dict(problem.params or {})
        if isinstance(params.get("label"), str):
            params["label"] = gettext(params["label"])
        try:
            return replace(problem, message=gettext(problem.template) % params)
        except (KeyError, TypeError, ValueError):  # a translation that lost a value: Italian
            return problem
    return replace(problem, message=engine_text(problem.message))


def localized_all(problems: Iterable[Problem]) -> list[Problem]:
    return [localized(p) for p in problems]
