"""What ``check_ledger`` reports: one stored value that a replay of the facts does not give.

Shared by both ledgers' checks (:mod:`.ledger` for C.A.F., :func:`.games.game_differences` for
the other games), below both.

A difference keeps its parts apart: the season, where (a :class:`~scoring.rules.problems.Said`
when it has values, "turno %(turno)s, %(player)s"; else one of :data:`WORDS`), the field (one
of :data:`WORDS`, or a code such as ``points``), the stored and the expected value (a value
that is a ``Said``, or a list of them, is a text). ``str()`` is the Italian line;
:meth:`Difference.text` says it in the active language (``check_ledger --language en``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, pgettext_lazy

from scoring.problem_text import engine_text
from scoring.rules.problems import (
    AT_PLAYER,
    AT_SMAZZATA,
    AT_TURNO,
    Problem,
    RuleViolation,
    Said,
    gettext_noop,
    said,
    said_joined,
)

LINE = gettext_noop(
    "%(season)s · %(where)s · %(field)s: registrato %(stored)s, atteso %(expected)s"
)

# Where a difference is, when it has values (a place without values is one of WORDS)
AT_TURNO_SMAZZATA = gettext_noop("turno %(turno)s, smazzata %(number)s")
AT_SMAZZATA_PLAYER = gettext_noop("turno %(turno)s, smazzata %(number)s, %(player)s")
AT_TURNO_PLAYER = gettext_noop("turno %(turno)s, %(player)s")
AT_GIORNATA = gettext_noop("giornata %(date)s")
AT_CLASSIFICA = gettext_noop("classifica, %(player)s")

# The ledger's words (fields, and places without values), said in their own context: "posto"
# is a turno's place here, not a seat as elsewhere. A word not here (a generic game's code,
# ``points``; a player's name) is printed as it is.
WORDS = {
    "andamento in classifica": pgettext_lazy("check_ledger", "andamento in classifica"),
    "assegnazioni": pgettext_lazy("check_ledger", "assegnazioni"),
    "assenza": pgettext_lazy("check_ledger", "assenza"),
    "assenze": pgettext_lazy("check_ledger", "assenze"),
    "cappotto": pgettext_lazy("check_ledger", "cappotto"),
    "cifre del giocatore": pgettext_lazy("check_ledger", "cifre del giocatore"),
    "cifre della stagione": pgettext_lazy("check_ledger", "cifre della stagione"),
    "cifre prima della data": pgettext_lazy("check_ledger", "cifre prima della data"),
    "classifica": pgettext_lazy("check_ledger", "classifica"),
    "colonne": pgettext_lazy("check_ledger", "colonne"),
    "esito di un turno aperto": pgettext_lazy("check_ledger", "esito di un turno aperto"),
    "giocatori seduti non iscritti": pgettext_lazy("check_ledger", "giocatori seduti non iscritti"),
    "iscrizioni": pgettext_lazy("check_ledger", "iscrizioni"),
    "mazziere": pgettext_lazy("check_ledger", "mazziere"),
    "motivazione presente": pgettext_lazy("check_ledger", "motivazione presente"),
    "numerazione": pgettext_lazy("check_ledger", "numerazione"),
    "obbligata": pgettext_lazy("check_ledger", "obbligata"),
    "penalità": pgettext_lazy("check_ledger", "penalità"),
    "posto": pgettext_lazy("check_ledger", "posto"),
    "posto precedente": pgettext_lazy("check_ledger", "posto precedente"),
    "punteggio": pgettext_lazy("check_ledger", "punteggio"),
    "punteggio più basso": pgettext_lazy("check_ledger", "punteggio più basso"),
    "punti": pgettext_lazy("check_ledger", "punti"),
    "punti di lega": pgettext_lazy("check_ledger", "punti di lega"),
    "punti per giornata giocata": pgettext_lazy("check_ledger", "punti per giornata giocata"),
    "rapporto": pgettext_lazy("check_ledger", "rapporto"),
    "registrazione rigiocabile": pgettext_lazy("check_ledger", "registrazione rigiocabile"),
    "riga": pgettext_lazy("check_ledger", "riga"),
    "scazzata": pgettext_lazy("check_ledger", "scazzata"),
    "scudetti": pgettext_lazy("check_ledger", "scudetti"),
    "serie": pgettext_lazy("check_ledger", "serie"),
    "serie di partenza": pgettext_lazy("check_ledger", "serie di partenza"),
    "serie di scudetti": pgettext_lazy("check_ledger", "serie di scudetti"),
    "serie dopo": pgettext_lazy("check_ledger", "serie dopo"),
    "serie finali riportate": pgettext_lazy("check_ledger", "serie finali riportate"),
    "serie precedente": pgettext_lazy("check_ledger", "serie precedente"),
    "serie prima": pgettext_lazy("check_ledger", "serie prima"),
    "smazzata": pgettext_lazy("check_ledger", "smazzata"),
    "spareggio (posizioni)": pgettext_lazy("check_ledger", "spareggio (posizioni)"),
    "stagione di provenienza": pgettext_lazy("check_ledger", "stagione di provenienza"),
    "stagione di provenienza chiusa": pgettext_lazy(
        "check_ledger", "stagione di provenienza chiusa"
    ),
    "stato dopo": pgettext_lazy("check_ledger", "stato dopo"),
    "titoli": pgettext_lazy("check_ledger", "titoli"),
    "titoli assegnati a un'altra stagione": pgettext_lazy(
        "check_ledger", "titoli assegnati a un'altra stagione"
    ),
    "totale": pgettext_lazy("check_ledger", "totale"),
    "totali dopo": pgettext_lazy("check_ledger", "totali dopo"),
    "turni": pgettext_lazy("check_ledger", "turni"),
    "turno chiuso valido": pgettext_lazy("check_ledger", "turno chiuso valido"),
    "verbale assegnato": pgettext_lazy("check_ledger", "verbale assegnato"),
    "verbali": pgettext_lazy("check_ledger", "verbali"),
    "vincitore": pgettext_lazy("check_ledger", "vincitore"),
    "vincitore di un turno aperto": pgettext_lazy("check_ledger", "vincitore di un turno aperto"),
}


def problem_said(problem: Problem) -> Said:
    """A problem's message as a :class:`Said` (its template and values, else the marked
    message): said again in the reader's language wherever it is put in."""
    params = dict(problem.params or {})
    label = params.get("label")
    if isinstance(label, str) and not isinstance(label, Said):
        params["label"] = Said(label)  # a field's label, marked: translated as the problem's
    return Said(problem.template or problem.message, params)


def described_said(problem: Problem) -> Said:
    """:meth:`Problem.describe`'s line (turno, smazzata, player, rule broken) as a ``Said``."""
    parts: list[Any] = []
    if problem.turno:
        parts.append(Said(AT_TURNO, {"turno": problem.turno}))
    if problem.smazzata is not None:
        parts.append(Said(AT_SMAZZATA, {"number": problem.smazzata}))
    if problem.player is not None:
        parts.append(Said(AT_PLAYER, {"player": problem.player}))
    line = {"code": problem.code, "message": problem_said(problem)}
    if not parts:
        return Said("[%(code)s] %(message)s", line)
    where = said_joined(", ", parts)
    return Said("%(where)s: [%(code)s] %(message)s", {"where": where, **line})


def _word(text: object) -> str:
    if isinstance(text, Said):
        return engine_text(text)
    return str(WORDS.get(text, text)) if isinstance(text, str) else str(text)


def _value(value: object) -> str:
    if isinstance(value, Said):
        return repr(engine_text(value))
    if isinstance(value, list) and any(isinstance(v, Said) for v in value):
        return repr([engine_text(v) if isinstance(v, Said) else v for v in value])
    return repr(value)


@dataclass(frozen=True)
class Difference:
    """One stored value that is not what the engine's replay gives."""

    season: str
    where: str
    field: str
    stored: object
    expected: object

    def __str__(self) -> str:
        """The line in Italian (the club's words, whatever the active language)."""
        return LINE % {
            "season": self.season,
            "where": str(self.where),
            "field": str(self.field),
            "stored": repr(self.stored),
            "expected": repr(self.expected),
        }

    def text(self) -> str:
        """The line in the active language: what ``check_ledger`` prints."""
        return gettext(LINE) % {
            "season": self.season,
            "where": _word(self.where),
            "field": _word(self.field),
            "stored": _value(self.stored),
            "expected": _value(self.expected),
        }


# what a replay of stored records may raise when a record is not one the engine accepts (a
# name no longer at the table, a field of the wrong type): check_ledger reports it as a difference
REPLAY_ERRORS = (RuleViolation, KeyError, ValueError, TypeError, IndexError, AttributeError)
REPLAY_FIELD = "registrazione rigiocabile"
REPLAY_OK = said(gettext_noop("una registrazione che il regolamento accetta"))


def unreplayable(season: str, where: str, exc: Exception) -> Difference:
    """The difference of a record the engine cannot replay (``exc``: what the replay raised)."""
    if isinstance(exc, RuleViolation):
        error: str = said_joined("; ", [described_said(p) for p in exc.problems])
    else:
        error = f"{type(exc).__name__}: {exc}"
    return Difference(season, where, REPLAY_FIELD, error, REPLAY_OK)
