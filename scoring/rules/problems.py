"""Validation problems: every rule broken, named precisely, with a stable code per kind."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from dataclasses import field as dc_field
from typing import Any


def gettext_noop(message: str) -> str:
    """Marks an engine text for translation and returns it unchanged: the engine stays free of
    Django, and ``makemessages`` (which knows the name ``gettext_noop``) collects the text into
    the catalogues; the frame translates it when it shows it (:mod:`scoring.problem_text`)."""
    return message


class Said(str):
    """An engine text for people (a deal's line on the Verbale, a note on the live screen): the
    Italian sentence itself (a ``str``: stored, joined, compared and printed as the Italian),
    carrying its template (marked with :func:`gettext_noop`) and its values apart, so that the
    frame says it in the reader's language (:func:`scoring.problem_text.engine_text`). A value
    that is itself a ``Said`` (a game's name, a part of a line) is translated too; any other
    value (a player's name, a number) is put in as it is."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, params: Mapping[str, Any] | None = None) -> Said:
        values = dict(params or {})
        obj = super().__new__(cls, template % values if values else template)
        obj.template = template
        obj.params = values
        return obj


def said(template: str, **params: Any) -> Said:
    """``template % params`` as a :class:`Said` (the template marked with gettext_noop)."""
    return Said(template, params)


def said_joined(separator: str, parts: list[Any]) -> Said:
    """The parts of a line joined by ``separator``, each translated on its own."""
    if not parts:
        return Said("")
    template = separator.join(f"%(p{i})s" for i in range(len(parts)))
    return Said(template, {f"p{i}": part for i, part in enumerate(parts)})


# where a problem is, in :meth:`Problem.describe`'s line
AT_TURNO = gettext_noop("turno %(turno)s")
AT_SMAZZATA = gettext_noop("smazzata %(number)s")
AT_PLAYER = gettext_noop("giocatore %(player)s")


@dataclass(frozen=True)
class Problem:
    """One broken rule.

    ``code`` is stable (tests and the UI key on it); ``message`` is Italian, for the segretario.
    ``smazzata`` is the 1-based number of the smazzata, ``player`` the player concerned, ``field``
    the input field the problem belongs to (``game``, ``caller``, ``trump``, ``result``,
    ``penalties``, ``tiebreak``, ``sanctions``, ``players``, ``first_dealer``...).
    """

    code: str
    message: str
    smazzata: int | None = None
    player: str | None = None
    field: str | None = None
    turno: str | None = None  # "2026-11-20 #1", set when a season is checked
    # the message before its values were put in (marked with :func:`gettext_noop`) and the
    # values: the frame translates the template and puts the values in again
    template: str | None = dc_field(default=None, compare=False)
    params: Mapping[str, Any] | None = dc_field(default=None, compare=False)

    @classmethod
    def said(cls, code: str, template: str, params: Mapping[str, Any] | None = None, **kw: Any):
        """A problem whose message is ``template % params`` (a translatable sentence)."""
        message = template % params if params else template
        return cls(code, message, template=template, params=dict(params or {}), **kw)

    def in_turno(self, label: str) -> Problem:
        return replace(self, turno=label)

    def describe(self, say: Callable[[str], str] = str) -> str:
        """One line naming the turno, the smazzata, the player and the rule broken; ``say``
        translates the words of the line (the frame passes gettext, with the message already
        in the reader's language: :func:`scoring.problem_text.described`)."""
        parts = []
        if self.turno:
            parts.append(say(AT_TURNO) % {"turno": self.turno})
        if self.smazzata is not None:
            parts.append(say(AT_SMAZZATA) % {"number": self.smazzata})
        if self.player is not None:
            parts.append(say(AT_PLAYER) % {"player": self.player})
        where = ", ".join(parts)
        return (
            f"{where}: [{self.code}] {self.message}" if where else f"[{self.code}] {self.message}"
        )


class RuleViolation(ValueError):
    """Raised when input breaks the rules; carries every problem found."""

    def __init__(self, problems: list[Problem] | tuple[Problem, ...]):
        self.problems = tuple(problems)
        super().__init__("; ".join(p.describe() for p in self.problems))


# The problems of a JSON document's shape, the same words for every game and every reader.
NOT_AN_OBJECT = Problem.said("FORMAT", gettext_noop("il documento deve essere un oggetto JSON"))
TURNI_NOT_A_LIST = Problem.said("FORMAT", gettext_noop("turni: deve essere una lista"))
TOO_DEEP = Problem.said(
    "JSON_DEPTH",
    gettext_noop("JSON annidato troppo in profondità (al massimo %(levels)s livelli)"),
    {"levels": 12},  # interchange.MAX_DEPTH
)


def wrong_format(found: Any, expected: str) -> Problem:
    """The document's ``format`` is not this reader's."""
    return Problem.said(
        "FORMAT",
        gettext_noop("formato %(format)s non riconosciuto (atteso %(expected)s)"),
        {"format": repr(found), "expected": expected},
    )


def wrong_ruleset(found: Any, expected: str) -> Problem:
    """The document's ``ruleset`` is not the one this reader scores."""
    return Problem.said(
        "FORMAT",
        gettext_noop("regolamento %(code)s: atteso %(expected)s"),
        {"code": repr(found), "expected": repr(expected)},
    )


def not_utf8(at: int) -> Problem:
    """The document's byte ``at`` (from 0) is not UTF-8."""
    return Problem.said(
        "JSON_ENCODING", gettext_noop("il file non è UTF-8 valido (byte %(at)s)"), {"at": at}
    )
