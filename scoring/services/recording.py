"""One recording path: each operation of the ledger is one call, the same for every game system.

Every game's deals, penalità and sanctions are written by one implementation
(``services/deals.py``: each deal's interchange record, as recorded, beside the points and the
columns its system gives). What still differs is how a season is closed and kept, which each
system declares as data (:attr:`scoring.rules.systems.BaseSystem.ledger`):

- ``"records"``: the season standing a fold of the closed seats by giornata
  (``services/games.py``);
- ``"counts"``: the season as a chain of giornate (series, titles, absences: ``services/turni.py``
  closes, ``services/season.py`` keeps it).

:func:`ledger_of` picks the one :class:`Ledger` that keeps a season from that declaration, here
and nowhere else: ``scoring/api.py``, the confirmations, ``check_ledger``, the backup, the
interchange and the rule-set edits call its methods and never ask which game they hold.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from django.db.models import QuerySet

from scoring.models import (
    Absence,
    Enrollment,
    Giornata,
    PlayerFigures,
    Season,
    Seat,
    Standing,
    Turno,
)
from scoring.rules.caf import score_turno
from scoring.rules.caf.interchange import FORMAT, parse_document, score_document
from scoring.rules.problems import Problem, RuleViolation
from scoring.rules.systems import GameSystem
from scoring.selectors import turno_record, turno_with_everything
from scoring.selectors_games import game_record, game_turni
from scoring.services import deals as _deals
from scoring.services import games as _games
from scoring.services import turni as _turni
from scoring.services import turno_frame
from scoring.services.differences import Difference
from scoring.services.jsonstream import Stream, batched, materialize
from scoring.services.ledger_counts import counts_differences
from scoring.services.season import (
    player_figures_fill,
    seat_figures_fill,
    standing_figures_fill,
)

EXPORT_BATCH = 200  # turni loaded at a time by the streaming export


def turni_in_batches(
    season: Season, include_open: bool, load: Callable[[QuerySet[Turno]], QuerySet[Turno]]
) -> Iterator[Turno]:
    """The season's turni in date order, loaded :data:`EXPORT_BATCH` at a time with ``load``
    (which adds the prefetches): memory holds one batch, whatever the season's size."""
    qs = Turno.objects.filter(season=season)
    if not include_open:
        qs = qs.filter(status=Turno.CHIUSO)
    ids = qs.order_by("giornata__date", "number", "pk").values_list("pk", flat=True)
    for chunk in batched(ids.iterator(chunk_size=2000), EXPORT_BATCH):
        batch = Turno.objects.filter(pk__in=chunk).order_by("giornata__date", "number", "pk")
        yield from load(batch)


class Ledger:
    """The operations of the ledger on one season's turni (see :func:`ledger_of`)."""

    # the writes of an open turno's deals, penalità and sanctions: one implementation for every
    # game (:mod:`.deals`), called with the keywords of :mod:`scoring.api`
    smazzata_record = staticmethod(_deals.smazzata_record)
    smazzata_correct = staticmethod(_deals.smazzata_correct)
    smazzata_undo = staticmethod(_deals.smazzata_undo)
    penalita_add = staticmethod(_deals.penalita_add)
    penalita_remove = staticmethod(_deals.penalita_remove)
    sanction_add = staticmethod(_deals.sanction_add)
    sanction_remove = staticmethod(_deals.sanction_remove)

    def turno_close(
        self, *, turno: Turno | int, tiebreak: Sequence[str] | None, user: Any
    ) -> Turno:
        """Close a finished turno and recompute the season from its giornata (the same for
        every ledger: what a seat keeps is the system's ``seat_keeps``)."""
        return _turni.turno_close(turno=turno, tiebreak=tiebreak, user=user)

    def turno_reopen(self, *, turno: Turno | int, reason: str, user: Any) -> Turno:
        """Reopen a closed turno and recompute the season from its giornata (the same for
        every ledger)."""
        return turno_frame.turno_reopen(turno=turno, reason=reason, user=user)

    #: its ``kingclub/v1`` documents are imported turno by turno as they are read (C.A.F.'s
    #: streaming importer, :func:`scoring.services.interchange.season_import_stream`); False: the
    #: document is read whole and imported by :meth:`import_document`
    streams_import: bool = False

    def import_document(self, data: Mapping[str, Any], *, user: Any, current: bool) -> Season:
        """Load a whole ``kingclub/v1`` document of this ledger's games: all or nothing."""
        raise NotImplementedError

    #: the season's rule table is written in its exported document (C.A.F.'s is not: the
    #: document plays the standard rules, as kingscore reads it)
    exports_rules: bool = True

    def load(self, turni: QuerySet[Turno], system: GameSystem) -> QuerySet[Turno]:
        """``turni`` (of a season of ``system``) with everything :func:`game_record` reads,
        prefetched."""
        return game_turni(turni, sanctions=system.takes_sanctions)  # type: ignore[attr-defined]

    def turno_document(self, turno: Turno) -> dict[str, Any]:
        """A turno loaded by :meth:`load` as its ``kingclub/v1`` input record: its system's
        interchange record, each deal written as the system writes a deal's record
        (:meth:`deal_record`: its keys in the interchange's order, whatever order the database
        returns them in); a deal the system refuses is written as stored."""
        record = game_record(turno)
        system = turno.season.system
        record["smazzate"] = [_deal_record(system, sm) for sm in record["smazzate"]]
        return record

    def turno_input(self, turno: Turno, tiebreak: list[str] | None = None) -> Any:
        """The engine's input of ``turno`` as stored (with ``tiebreak`` if given): its system's
        interchange record."""
        full = self.load(Turno.objects.filter(pk=turno.pk), turno.season.system).get()
        return game_record(full, tiebreak=tiebreak)

    def export_stream(self, season: Season, include_open: bool = False) -> dict[str, Any]:
        """The season as a ``kingclub/v1`` input document whose turni are a :class:`Stream`
        read from the database batch by batch (write it with :func:`jsonstream.write_json`)."""
        roster = list(
            Enrollment.objects.filter(season=season)
            .order_by("player__name")
            .values_list("player__name", flat=True)
        )
        doc: dict[str, Any] = {
            "format": FORMAT,
            "ruleset": season.ruleset_code,
            "season": season.name,
            "roster": roster,
        }
        if self.exports_rules:
            doc["rules"] = season.rules
        turni = turni_in_batches(season, include_open, lambda qs: self.load(qs, season.system))
        doc["turni"] = Stream(self.turno_document(t) for t in turni)
        return doc

    def replay_problems(self, season: Season) -> list[Problem]:
        """What the engine refuses of the season's recorded play, before any stored number is
        compared (a restored backup): the rule set, and what the differences do not report."""
        raise NotImplementedError

    def rescore(self, season: Season) -> None:
        """Every turno of the season scored again with its (edited) rule set, then the season;
        a closed turno the new rules reject stops everything (RuleViolation naming it): the same
        for every ledger."""
        _games.season_turni_rescore(season=season)

    def restored(self, season: Season) -> None:
        """Fill what a backup does not hold, after a restore (derived rows the pages read)."""

    def check_closable(self, season: Season, record: Any) -> None:
        """RuleViolation if a turno of ``season`` with input ``record`` (:meth:`turno_input`)
        cannot close (unfinished, a tie to draw): the system scores it as closed."""
        season.system.score_turno(season.game_rules, record)

    def standing(self, season: Season) -> list[dict[str, Any]]:
        """The stored Classifica as :func:`scoring.api.season_standing` returns it, the same for
        every game: each row's place, player and figures as ``kingscore`` prints them (kept in
        ``Standing.extra`` by the refresh, read in the order of the system's standing columns),
        tied rows in the order the system ranked them (the refresh writes them in that order)
        unless it declares its own (:meth:`BaseSystem.classifica_order`)."""
        system = season.system
        keys = [key for key, _ in system.standing_columns()]  # type: ignore[attr-defined]
        rows = Standing.objects.filter(season=season).order_by("place", "pk")
        return system.classifica_order(  # type: ignore[attr-defined]
            [
                {
                    "place": place,
                    "player": name,
                    **{k: extra[k] for k in keys if k in extra},
                    **extra,
                }
                for place, name, extra in rows.values_list("place", "player__name", "extra")
            ]
        )

    def differences(self, season: Season) -> list[Difference]:
        """Every stored value of the season that differs from the engine's replay."""
        raise NotImplementedError


class CountsLedger(Ledger):
    """The season a chain of giornate (King C.A.F.)."""

    exports_rules = False
    streams_import = True

    def replay_problems(self, season: Season) -> list[Problem]:
        problems: list[Problem] = []
        try:  # the closed turni as a whole season, as kingscore reads its export
            score_document(parse_document(materialize(self.export_stream(season))))
        except RuleViolation as exc:
            problems += exc.problems
        try:  # a rule table the engine refuses (a hostile backup): said, never raised
            rules = season.system.rules(season.rules)
        except RuleViolation as exc:
            return problems + list(exc.problems)
        open_turni = Turno.objects.filter(season=season, status=Turno.IN_CORSO)
        for turno in turno_with_everything(open_turni.order_by("pk")):  # the open ones, one by one
            score = score_turno(rules, turno_record(turno), require_complete=False)
            problems += [p.in_turno(turno.label) for p in score.problems]
        return problems

    def restored(self, season: Season) -> None:
        seat_figures_fill(season=season)
        standing_figures_fill(season=season)  # a backup taken before the rows kept them
        player_figures_fill(
            season.pk, Standing, PlayerFigures, Seat, Absence, Giornata, Turno.CHIUSO
        )

    def differences(self, season: Season) -> list[Difference]:
        return counts_differences(season=season)


class RecordsLedger(Ledger):
    """The season a fold of the closed seats."""

    def import_document(self, data: Mapping[str, Any], *, user: Any, current: bool) -> Season:
        return _games.game_season_import(data=data, user=user, current=current)

    def replay_problems(self, season: Season) -> list[Problem]:
        # every turno, open or closed, is replayed by the differences (a record the engine
        # refuses is one of them): only the rule set is checked first
        try:
            season.system.rules(season.rules)
        except RuleViolation as exc:
            return list(exc.problems)
        return []

    def restored(self, season: Season) -> None:
        pass  # the standing's figures are in the backup (the seats' and the Classifica's)

    def differences(self, season: Season) -> list[Difference]:
        return _games.game_differences(season)


def _deal_record(system: GameSystem, record: Any) -> Any:
    """A stored deal's record (players by name) as ``system`` writes it; as it is if refused
    (``check_ledger`` reports it)."""
    try:
        return system.deal_record(record)  # type: ignore[attr-defined]
    except RuleViolation:
        return record


LEDGERS: dict[str, Ledger] = {"counts": CountsLedger(), "records": RecordsLedger()}


def ledger_for(system: GameSystem) -> Ledger:
    """The ledger that keeps the seasons of ``system``: the one it declares (``ledger``)."""
    return LEDGERS[system.ledger]  # type: ignore[attr-defined]


def ledger_of(season: Season) -> Ledger:
    """The ledger that keeps ``season``."""
    return ledger_for(season.system)
