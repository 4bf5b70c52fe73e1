"""King C.A.F. (``caf``) as one implementation of the game-system protocol (:mod:`.systems`).

Each method delegates to the C.A.F. engine (:mod:`.turno`, :mod:`.season`, :mod:`.interchange`,
:mod:`.simulator`); nothing here computes a point of its own.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from ..problems import Problem, RuleViolation, gettext_noop
from ..systems import BaseSystem, Column, register
from . import fold, interchange
from .records import SANCTION_CONTATORE, SeasonState, SmazzataRecord, TurnoRecord
from .ruleset import (
    GAME_TEXT,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    TITLE_LABELS,
    TITLE_ORDER,
    TITLE_SHORT,
    RuleSet,
    RuleSetError,
    caf,
)
from .season import check_giornate, play_season
from .simulator import simulate_turno
from .turno import check_smazzata, check_turno_header, progress_of, rank
from .turno import score_turno as score_caf_turno


def _dated(turno: Mapping[str, Any]) -> dict[str, Any]:
    """The turno record with a date (a turno in progress may not have one yet)."""
    return {**turno, "date": turno.get("date") or dt.date.today().isoformat()}


def _turno_record(turno: Mapping[str, Any]) -> TurnoRecord:
    """A turno input record (interchange shape) as the engine's TurnoRecord."""
    data = _dated(turno)
    doc = interchange.parse_document(
        {"format": interchange.FORMAT, "ruleset": "caf", "turni": [data]}, rules=caf()
    )
    return doc.turni[0]


class CafSystem(BaseSystem):
    code = "caf"
    label = "King C.A.F."
    ledger = "counts"  # the season a chain of giornate: series, titles, absences (SPEC §8)
    player_fields = ("caller", "result.*")  # where a deal's record names a player (SPEC §10)
    one_turno_a_day = True  # a member plays one turno a giornata (SPEC §8.1)
    takes_penalties = True  # penalità count in the turno total (SPEC §5)
    takes_sanctions = True  # the Retrocessione per contatore acts at the close (SPEC §7)
    seat_keeps = ("ratio",)  # league points: the season chain's (SPEC §8), written by its replay
    series_ladder = True  # Serie A, B, ... (SPEC §7)
    awards_titles = True  # Scudetto, Coppa dei Campioni, Intercontinentale (SPEC §7)
    giornata_chained = True  # series, absences and a late joiner's lowest score (SPEC §8)
    open_tables_excuse = True  # a member at a table in corso is not absent (SPEC §8.1)
    season_score_decimals = 2  # league points: 15,00 (SPEC §8.3)
    direction = "counterclockwise"  # SPEC §3.1

    entry_form = "calls"  # the chiamante, the games still open to them, the counts (SPEC §3.2)
    # the games as the club writes them, in every language: NJ, NQ♠, N♥, Domino, Briscola
    game_names = {
        code: text + SUIT_SYMBOLS.get(suit, "") for code, (text, suit) in GAME_TEXT.items()
    }
    game_names_translated = False
    deal_chosen_by = gettext_noop("%(game)s, chiamante %(caller)s")
    deal_counts = "result"  # each player's count, by seat (SPEC §10), shown in the audit trail

    @staticmethod
    def count_check(rules: RuleSet, step: Mapping[str, Any], seats: int) -> dict[str, Any]:
        """The running check of the counts, as data (the King family's shape): the check of
        each game of ``step["games"]`` (:meth:`GameRule.check`), chosen by the "game" field."""
        deck = rules.deck(seats)
        return {"by": "game", "checks": {g: rules.games[g].check(deck) for g in step["games"]}}

    def deals_total(self, rules: RuleSet, players: int) -> int | None:
        return rules.smazzate_count(players) if players in rules.decks else None  # 7 + 3N

    def check_table(
        self, rules: RuleSet, players: Sequence[str], first_dealer: str
    ) -> list[Problem]:
        return check_turno_header(rules, list(players), first_dealer)

    def table_sizes(self, rules: RuleSet) -> tuple[int, ...]:
        return tuple(range(rules.min_players, rules.max_players + 1))

    def default_rules(self) -> dict[str, Any]:
        return caf().to_dict()  # every key written out, as a season stores it

    def rules(self, edits: Mapping[str, Any] | None = None) -> RuleSet:
        """C.A.F.'s rule set; a season stores the whole table, so ``edits`` is one (``{}``
        names no deck nor game and is refused)."""
        if edits is None:
            return caf()
        try:
            return RuleSet.from_dict(dict(edits))
        except RuleSetError as exc:
            raise RuleViolation([exc.problem(field="rules")]) from None

    def next_step(self, rules: RuleSet, turno: Mapping[str, Any]) -> dict[str, Any]:
        progress = progress_of(rules, _turno_record(turno))
        return {
            "number": progress.number,
            "dealer": progress.dealer,
            "complete": progress.complete,
            "calling_order": list(progress.calling_order()),
            "callable": {p: list(progress.callable_games(p)) for p in progress.players},
        }

    def deal_record(self, record: Any) -> dict[str, Any]:
        """``{"game", "caller", "trump"?, "result"}`` in that order (SPEC §10), a clear problem
        for each missing or mistyped key."""
        if not isinstance(record, Mapping):
            message = "la smazzata deve essere un oggetto JSON"
            raise RuleViolation([Problem("RECORD", message, field="record")])
        problems = []
        game, caller, result = record.get("game"), record.get("caller"), record.get("result")
        if not isinstance(game, str) or not game:
            problems.append(Problem("GAME_MISSING", "scegliere il gioco", field="game"))
        if not isinstance(caller, str) or not caller:
            problems.append(
                Problem("CALLER_MISSING", "indicare chi chiama il gioco", field="caller")
            )
        if not isinstance(result, Mapping):
            problems.append(
                Problem.said(
                    "RESULT_MISSING",
                    gettext_noop("servono le prese (o le carte) di ogni giocatore"),
                    field="result",
                )
            )
        trump = record.get("trump")
        if trump is not None and not isinstance(trump, str):
            message = gettext_noop("la briscola va indicata con il seme")
            problems.append(Problem.said("TRUMP_TYPE", message, field="trump"))
        if problems:
            raise RuleViolation(problems)
        assert isinstance(game, str) and isinstance(caller, str) and isinstance(result, Mapping)
        return interchange.smazzata_to_input(
            SmazzataRecord(game=game, caller=caller, result=dict(result), trump=trump or None)
        )

    def check_smazzata(
        self, rules: RuleSet, turno: Mapping[str, Any], smazzata: Mapping[str, Any]
    ) -> list[Problem]:
        record = _turno_record({**turno, "smazzate": [*turno.get("smazzate", []), smazzata]})
        head = _turno_record(turno)
        problems, _forced = check_smazzata(rules, head, record.smazzate[-1])
        return problems

    def score_turno(
        self,
        rules: RuleSet,
        turno: Mapping[str, Any],
        before: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The turno as ``kingscore`` writes it. Its series, titles and league points are those
        of a season standing as ``before`` says after the giornata before the turno's (``{"series":
        {player: code}, "streak": {player: Scudetti in a row}}``, SeasonState's dict; a player it
        does not name starts at the rule set's start series); None: the season's first giornata."""
        doc = interchange.parse_document(
            {
                "format": interchange.FORMAT,
                "ruleset": "caf",
                "roster": [],
                "turni": [_dated(turno)],
            },
            rules=rules,
        )
        scorer = interchange.SeasonScorer(rules)
        scores = [scorer.add(t) for t in doc.turni]
        if scorer.problems:
            raise RuleViolation(scorer.problems)
        start = SeasonState.from_dict(before) if before is not None else None
        season = play_season(rules, [], scorer.tables, start)
        scored = interchange.ScoredDocument(doc, scores, season)
        return interchange.output_document(scored)["turni"][0]

    def standing(
        self,
        rules: RuleSet,
        roster: Sequence[str],
        turni: Sequence[Mapping[str, Any]],
        start: Mapping[str, str] | None = None,
        checkpoint: tuple[dt.date, Mapping[str, Any]] | None = None,
    ) -> list[dict[str, Any]]:
        """The Classifica rows (``kingscore``'s keys, and ``titles``: every title's count) from
        the season's recorded turni (input records, in date order): each turno scored, its seats
        (:meth:`seat_results`) folded giornata by giornata (:mod:`.fold`). ``start``: the series
        carried over from the season before; ``checkpoint``: ``(date, state)``, the fold's state
        after the giornata of ``date`` (:meth:`standing_states`), so only the turni after it are
        played again. RuleViolation lists every problem of the turni and the giornate."""
        state = self.standing_start(rules, start) if checkpoint is None else checkpoint[1]
        after = "" if checkpoint is None else checkpoint[0].isoformat()
        states = self.standing_states(
            rules, [t for t in turni if str(t.get("date")) > after], state
        )
        return fold.rank(rules, roster, states[-1][1] if states else state)

    def standing_start(self, rules: RuleSet, series: Mapping[str, str] | None = None) -> dict:
        """The fold's state before the season's first giornata (:func:`.fold.start`)."""
        return fold.start(rules, series)

    def standing_states(
        self,
        rules: RuleSet,
        turni: Sequence[Mapping[str, Any]],
        state: Mapping[str, Any] | None = None,
    ) -> list[tuple[dt.date, dict[str, Any]]]:
        """The fold's state after each giornata of ``turni`` (input records, players by name),
        from ``state`` (the season's start when None): the ledger's checkpoints."""
        doc = interchange.parse_document(
            {"format": interchange.FORMAT, "ruleset": "caf", "turni": list(turni)}, rules=rules
        )
        scorer = interchange.SeasonScorer(rules)
        scores = [scorer.add(t) for t in doc.turni]
        problems = [*scorer.problems, *check_giornate(scorer.tables)]
        if problems:
            raise RuleViolation(problems)
        by_date: dict[dt.date, list[dict[str, dict[str, Any]]]] = {}
        for t, score in sorted(
            zip(doc.turni, scores, strict=True), key=lambda ts: (ts[0].date, ts[0].number)
        ):
            assert t.date is not None and score.places is not None and score.ratios is not None
            sanctioned = {s.player for s in t.sanctions if s.kind == SANCTION_CONTATORE}
            by_date.setdefault(t.date, []).append(
                {
                    p: {
                        "total": score.totals[p],
                        "place": score.places[p],
                        "extra": {
                            "ratio": interchange.two(score.ratios[p]),
                            "titles": [SANCTION_CONTATORE] if p in sanctioned else [],
                        },
                    }
                    for p in t.players
                }
            )
        out = []
        now = dict(state) if state is not None else self.standing_start(rules)
        for date, day in by_date.items():
            now = self.standing_fold(now, day, rules=rules)
            out.append((date, now))
        return out

    def standing_fold(
        self,
        state: Mapping[str, Any],
        turni: Sequence[Mapping[str, Mapping[str, Any]]],
        *,
        rules: RuleSet | None = None,
    ) -> dict[str, Any]:
        """``state`` with ONE giornata played: its turni, each player key -> seat (``{"total",
        "place", "extra"}`` as :meth:`seat_results` gives; a seat without a place: a turno still
        open, whose players are excused). The ledger calls it once per giornata, in date order,
        with the season's ``rules`` (the defaults when None). ``state`` is not changed."""
        return fold.play(rules or caf(), state, turni)[0]

    def standing_chain(self, state: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The series and streaks of the fold's ``state``: :meth:`score_turno`'s ``before``."""
        return fold.chain(state)

    def giornata_outcomes(
        self,
        rules: RuleSet,
        state: Mapping[str, Any],
        turni: Sequence[Mapping[str, Mapping[str, Any]]],
    ) -> list[dict[str, dict[str, Any]]]:
        """What one giornata's closed turni (as :meth:`standing_fold` reads them) give each seat
        from ``state``: series before and after, titles, league points (Decimal): what a
        close or reopen rewrites on the seats of its giornata and of every later one."""
        return fold.play(rules, state, turni)[1]

    def standing_rank(
        self, rules: RuleSet, roster: Sequence[str], state: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        """The Classifica rows from the fold's ``state`` with its players keyed by name (unlike
        the other games' ``figures``: the absences need the season's giornate, which the state
        counts)."""
        return fold.rank(rules, roster, state)

    def score_document(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return interchange.score_json(data)

    def random_turno(
        self, rng: random.Random, players: Sequence[str], rules: RuleSet
    ) -> dict[str, Any]:
        return interchange.turno_to_input(simulate_turno(rules, players, rng))

    # -- the ledger's side (what the live screen, the Verbale and the Classifica ask) ------------
    # The one recording path (services/deals.py) writes C.A.F.'s deals with these; what it stores
    # is checked against them on random turni by tests/property/test_caf_system.py.

    def score_running(self, rules: RuleSet, turno: Mapping[str, Any]) -> dict[str, Any]:
        """A turno in progress scored so far (a tie still to draw is no problem yet)."""
        score = score_caf_turno(rules, _turno_record(turno), require_complete=False)
        problems = [p for p in score.problems if p.field != "tiebreak"]
        if problems:
            raise RuleViolation(problems)
        return {
            "smazzate": [
                {
                    "number": sm.number,
                    "dealer": sm.dealer,
                    "caller": sm.caller,
                    "game": sm.game,
                    "forced": sm.forced,
                    "trump": sm.trump,
                    "result": dict(sm.result),
                    "points": dict(sm.points),
                    "scazzata": sm.scazzata,
                    "cappotto": sm.cappotto,
                }
                for sm in score.smazzate
            ],
            "totals": dict(score.totals),
            "penalties": dict(score.penalties),
        }

    def ties(self, rules: RuleSet, turno: Mapping[str, Any]) -> list[list[str]]:
        """The groups of a finished turno with equal totals that no spareggio settles yet."""
        score = score_caf_turno(rules, _turno_record(turno), require_complete=False)
        if not score.complete:
            return []
        _places, problems, tied = rank(score.totals, list(turno.get("tiebreak") or ()))
        if not any(p.code == "TIE_UNRESOLVED" for p in problems):
            return []
        seat = {p: i for i, p in enumerate(score.players)}
        return [sorted(group, key=seat.__getitem__) for group in tied]

    def seat_results(self, scored: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """Per player of a closed turno (:meth:`score_turno`): total, place, the ratio (Decimal)
        and the league points as ``score`` (Decimal: ratio + titles; the season's chain decides
        the titles, see ``before``), and as stored (JSON) in ``extra``: penalità, ratio, series
        before and after, titles (a Retrocessione per contatore among them is the sanction the
        season fold reads back), league points."""
        return {
            p: {
                "total": scored["totals"][p],
                "place": scored["places"][p],
                "ratio": Decimal(scored["ratios"][p]),
                "score": Decimal(scored["league_points"][p]),
                "extra": {
                    "penalties": scored["penalties"][p],
                    "ratio": scored["ratios"][p],
                    "series_before": scored["series_before"][p],
                    "series_after": scored["series_after"][p],
                    "titles": list(scored["titles"][p]),
                    "league_points": scored["league_points"][p],
                },
            }
            for p in scored["totals"]
        }

    def player_notes(self, rules: RuleSet, turno: Mapping[str, Any]) -> dict[str, str]:
        progress = progress_of(rules, _turno_record(turno))
        return {progress.dealer: "mazziere"} if progress.dealer and not progress.complete else {}

    def smazzata_keys(self, scored: Mapping[str, Any]) -> dict[str, Any]:
        """What the counts ledger indexes of a deal (:meth:`score_running`'s smazzata): game,
        caller, trump (None without one), forced, scazzata, cappotto (the player or None)."""
        return {
            "game": scored["game"],
            "caller": scored["caller"],
            "trump": scored.get("trump") or None,
            "forced": scored["forced"],
            "scazzata": scored["scazzata"],
            "cappotto": scored["cappotto"],
        }

    def describe(self, smazzata: Mapping[str, Any]) -> str:
        games = caf().games
        game = smazzata["game"]
        parts = [f"{smazzata['caller']} chiama {games[game].name if game in games else game}"]
        if smazzata.get("trump"):
            parts.append(f"briscola {SUIT_NAMES.get(smazzata['trump'], smazzata['trump'])}")
        if smazzata.get("forced"):
            parts.append("obbligato")
        if smazzata.get("scazzata"):
            parts.append("scazzata")
        if smazzata.get("cappotto"):
            parts.append(f"cappotto di {smazzata['cappotto']}")
        return ", ".join(parts)

    def turno_columns(self) -> list[tuple[str, str]]:
        return [
            ("penalties", gettext_noop("Penalità")),
            ("ratio", gettext_noop("Rapporto")),
            ("series_before", gettext_noop("Serie prima")),
            ("series_after", gettext_noop("Serie dopo")),
            ("titles", gettext_noop("Titoli")),
            ("league_points", gettext_noop("Punti classifica")),
        ]

    def standing_columns(self) -> list[tuple[str, str]]:
        return [
            ("league_points", gettext_noop("Punti classifica")),
            ("series", gettext_noop("Serie")),
            ("turni", gettext_noop("Turni")),
            ("absences", gettext_noop("Assenze")),
            ("scudetti", gettext_noop("Scudetti")),
        ]

    classifica_notes = (
        gettext_noop(
            "Pos.: a pari punti si condivide il posto (più Scudetti prima, poi per nome)."
        ),
        gettext_noop("Mov.: posti guadagnati o persi dalla giornata precedente."),
        gettext_noop("Media: punti per giornata, assenze comprese."),
    )

    def classifica_order(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Equal places: more Scudetti first, then by name (SPEC §8.4), whatever the order the
        rows were written in (a member renamed since)."""
        return sorted(rows, key=lambda r: (r["place"], -r["scudetti"], r["player"]))

    def classifica_columns(self) -> list[Column]:
        """The series and the league points, the movement and the Scudetti, the turni, the
        absences and the average, then the other titles (SPEC §8.4)."""
        return [
            Column("series", gettext_noop("Serie"), "series"),
            Column("score", gettext_noop("Punti"), "score"),
            Column("movement", gettext_noop("Mov."), "movement"),
            Column("title_SCUDETTO", gettext_noop("Scudetti"), "count"),
            Column("turni", gettext_noop("Turni"), narrow=True),
            Column("absences", gettext_noop("Assenze"), narrow=True),
            Column("average", gettext_noop("Media"), "average", narrow=True),
            *(
                Column(f"title_{code}", TITLE_LABELS[code], "count", True, TITLE_SHORT[code])
                for code in TITLE_ORDER
                if code != "SCUDETTO"
            ),
        ]


register(CafSystem())
