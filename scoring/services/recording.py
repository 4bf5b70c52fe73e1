"""One recording path: each operation of the ledger is one call, the same for every game system.

What differs between the games is *what the ledger keeps*, which each system declares as data
(:attr:`scoring.rules.systems.BaseSystem.ledger`):

- ``"records"``: each deal's interchange record, as recorded, beside the points the system gave
  (``services/games.py``); the season standing a fold of the closed seats by giornata;
- ``"counts"``: a count row per player per deal (``services/turni.py``) and the season as a chain
  of giornate (series, titles, absences: ``services/season.py``).

:func:`ledger_of` picks the one :class:`Ledger` that keeps a season from that declaration, here
and nowhere else: ``scoring/api.py``, the confirmations, ``check_ledger``, the backup, the
interchange and the rule-set edits call its methods and never ask which game they hold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scoring.models import Penalita, Season, Smazzata, Standing, Turno
from scoring.rules.caf import score_turno
from scoring.rules.caf.interchange import two
from scoring.rules.problems import Problem, RuleViolation
from scoring.selectors import turno_record, turno_with_everything
from scoring.selectors_games import game_record, game_turni
from scoring.services import games as _games
from scoring.services import turni as _turni
from scoring.services.differences import Difference
from scoring.services.ledger_counts import counts_differences


class Ledger:
    """The operations of the ledger on one season's turni (see :func:`ledger_of`)."""

    def smazzata_record(
        self, *, turno: Turno, record: Mapping[str, Any], number: int | None, user: Any
    ) -> Smazzata:
        """Record the next deal of an open turno."""
        raise NotImplementedError

    def smazzata_correct(
        self, *, turno: Turno, number: int, record: Mapping[str, Any], user: Any
    ) -> Smazzata:
        """Replace deal ``number`` of an open turno (every later one checked and scored again)."""
        raise NotImplementedError

    def smazzata_undo(self, *, turno: Turno, user: Any) -> int:
        """Delete the last deal of an open turno; its number."""
        raise NotImplementedError

    def penalita_add(
        self, *, turno: Turno, player: str, points: int, article: str, reason: str, user: Any
    ) -> Penalita:
        """A penalità on a player of an open turno."""
        raise NotImplementedError

    def turno_close(
        self, *, turno: Turno | int, tiebreak: Sequence[str] | None, user: Any
    ) -> Turno:
        """Close a finished turno and recompute the season from its giornata."""
        raise NotImplementedError

    def turno_reopen(self, *, turno: Turno | int, reason: str, user: Any) -> Turno:
        """Reopen a closed turno and recompute the season from its giornata."""
        raise NotImplementedError

    def turno_input(self, turno: Turno, tiebreak: list[str] | None = None) -> Any:
        """The engine's input of ``turno`` as stored (with ``tiebreak`` if given)."""
        raise NotImplementedError

    def check_closable(self, season: Season, record: Any) -> None:
        """RuleViolation if a turno of ``season`` with input ``record`` (:meth:`turno_input`)
        cannot close (unfinished, a tie to draw)."""
        raise NotImplementedError

    def standing(self, season: Season) -> list[dict[str, Any]]:
        """The stored Classifica as :func:`scoring.api.season_standing` returns it."""
        raise NotImplementedError

    def differences(self, season: Season) -> list[Difference]:
        """Every stored value of the season that differs from the engine's replay."""
        raise NotImplementedError


def _problem(code: str, message: str, **kw: Any) -> RuleViolation:
    return RuleViolation([Problem(code, message, **kw)])


def _counts_deal(record: Mapping[str, Any]) -> dict[str, Any]:
    """A counts record (``{"game", "caller", "trump"?, "result"}``) as the service's arguments;
    a clear problem for each missing or mistyped key."""
    if not isinstance(record, Mapping):
        raise _problem("RECORD", "la smazzata deve essere un oggetto JSON", field="record")
    problems = []
    game, caller, result = record.get("game"), record.get("caller"), record.get("result")
    if not isinstance(game, str) or not game:
        problems.append(Problem("GAME_MISSING", "scegliere il gioco", field="game"))
    if not isinstance(caller, str) or not caller:
        problems.append(Problem("CALLER_MISSING", "indicare chi chiama il gioco", field="caller"))
    if not isinstance(result, Mapping):
        problems.append(
            Problem(
                "RESULT_MISSING", "servono le prese (o le carte) di ogni giocatore", field="result"
            )
        )
    trump = record.get("trump")
    if trump is not None and not isinstance(trump, str):
        problems.append(Problem("TRUMP_TYPE", "la briscola va indicata con il seme", field="trump"))
    if problems:
        raise RuleViolation(problems)
    return {"game": game, "caller": caller, "counts": dict(result), "trump": trump}


class CountsLedger(Ledger):
    """A count row per player per deal; the season a chain of giornate (King C.A.F.)."""

    def smazzata_record(
        self, *, turno: Turno, record: Mapping[str, Any], number: int | None, user: Any
    ) -> Smazzata:
        return _turni.smazzata_record(turno=turno, number=number, user=user, **_counts_deal(record))

    def smazzata_correct(
        self, *, turno: Turno, number: int, record: Mapping[str, Any], user: Any
    ) -> Smazzata:
        return _turni.smazzata_correct(
            turno=turno, number=number, user=user, **_counts_deal(record)
        )

    def smazzata_undo(self, *, turno: Turno, user: Any) -> int:
        return _turni.smazzata_undo(turno=turno, user=user)

    def penalita_add(
        self, *, turno: Turno, player: str, points: int, article: str, reason: str, user: Any
    ) -> Penalita:
        return _turni.penalita_add(
            turno=turno, player=player, points=points, article=article, reason=reason, user=user
        )

    def turno_close(
        self, *, turno: Turno | int, tiebreak: Sequence[str] | None, user: Any
    ) -> Turno:
        return _turni.turno_close(turno=turno, tiebreak=tiebreak, user=user)

    def turno_reopen(self, *, turno: Turno | int, reason: str, user: Any) -> Turno:
        return _turni.turno_reopen(turno=turno, reason=reason, user=user)

    def turno_input(self, turno: Turno, tiebreak: list[str] | None = None) -> Any:
        full = turno_with_everything(Turno.objects.filter(pk=turno.pk)).get()
        return turno_record(full, tiebreak=tiebreak)

    def check_closable(self, season: Season, record: Any) -> None:
        score = score_turno(season.ruleset, record, require_complete=True)
        if score.problems:
            raise RuleViolation(score.problems)

    def standing(self, season: Season) -> list[dict[str, Any]]:
        rows = Standing.objects.filter(season=season).select_related("player")
        return [
            {
                "place": st.place,
                "player": st.player.name,
                "league_points": two(st.score),
                "series": st.series,
                "turni": st.turni,
                "absences": st.absences,
                "scudetti": st.scudetti,
            }
            for st in rows.order_by("place", "-scudetti", "player__name")
        ]

    def differences(self, season: Season) -> list[Difference]:
        return counts_differences(season=season)


class RecordsLedger(Ledger):
    """Each deal's interchange record as recorded; the season a fold of the closed seats."""

    def smazzata_record(
        self, *, turno: Turno, record: Mapping[str, Any], number: int | None, user: Any
    ) -> Smazzata:
        return _games.game_smazzata_record(turno=turno, record=record, number=number, user=user)

    def smazzata_correct(
        self, *, turno: Turno, number: int, record: Mapping[str, Any], user: Any
    ) -> Smazzata:
        return _games.game_smazzata_correct(turno=turno, number=number, record=record, user=user)

    def smazzata_undo(self, *, turno: Turno, user: Any) -> int:
        return _games.game_smazzata_undo(turno=turno, user=user)

    def penalita_add(
        self, *, turno: Turno, player: str, points: int, article: str, reason: str, user: Any
    ) -> Penalita:
        return _games.game_penalita_add(
            turno=turno, player=player, points=points, article=article, reason=reason, user=user
        )

    def turno_close(
        self, *, turno: Turno | int, tiebreak: Sequence[str] | None, user: Any
    ) -> Turno:
        return _games.game_turno_close(turno=turno, tiebreak=tiebreak, user=user)

    def turno_reopen(self, *, turno: Turno | int, reason: str, user: Any) -> Turno:
        return _games.game_turno_reopen(turno=turno, reason=reason, user=user)

    def turno_input(self, turno: Turno, tiebreak: list[str] | None = None) -> Any:
        return game_record(game_turni(Turno.objects.filter(pk=turno.pk)).get(), tiebreak=tiebreak)

    def check_closable(self, season: Season, record: Any) -> None:
        season.system.score_turno(season.game_rules, record)

    def standing(self, season: Season) -> list[dict[str, Any]]:
        # tied rows in the order the system ranked them (the refresh writes them in that order)
        rows = Standing.objects.filter(season=season).select_related("player")
        return [
            {"place": st.place, "player": st.player.name, **st.extra}
            for st in rows.order_by("place", "pk")
        ]

    def differences(self, season: Season) -> list[Difference]:
        return _games.game_differences(season)


LEDGERS: dict[str, Ledger] = {"counts": CountsLedger(), "records": RecordsLedger()}


def ledger_of(season: Season) -> Ledger:
    """The ledger that keeps ``season``: the one its game system declares (``system.ledger``)."""
    return LEDGERS[season.system.ledger]
