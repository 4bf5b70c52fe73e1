"""The ``kingclub/v1`` JSON interchange format (SPEC §10): parse, score, write.

Pure Python: the stateless ``kingscore`` command, the importer and the exporter all use it.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from ..problems import (
    NOT_AN_OBJECT,
    TOO_DEEP,
    TURNI_NOT_A_LIST,
    Problem,
    RuleViolation,
    gettext_noop,
    not_utf8,
    wrong_format,
)
from ..text import TextError, clean_text
from .records import (
    Penalty,
    Sanction,
    SeasonResult,
    SmazzataRecord,
    Standing,
    TableResult,
    TurnoRecord,
    TurnoScore,
)
from .ruleset import RuleSet, RuleSetError, get_ruleset
from .season import check_giornate, play_season
from .turno import score_turno

FORMAT = "kingclub/v1"
MAX_DEPTH = 12
MAX_TURNO_NUMBER = 32767  # tables in one giornata: far beyond any club, within a small int


@dataclass
class SeasonDocument:
    ruleset_code: str
    season: str
    roster: list[str]
    turni: list[TurnoRecord]
    rules: RuleSet
    extra: dict[str, Any] = field(default_factory=dict)


def two(d: Decimal) -> str:
    """A decimal as a string with exactly two decimals."""
    return str(d.quantize(Decimal("0.01")))


def depth(obj: Any, limit: int = MAX_DEPTH) -> int:
    """How deeply ``obj`` nests (a scalar is 1); stops counting past ``limit``."""
    stack = [(obj, 1)]
    deepest = 0
    while stack:
        o, d = stack.pop()
        deepest = max(deepest, d)
        if d > limit:
            return d
        if isinstance(o, dict):
            stack.extend((v, d + 1) for v in o.values())
        elif isinstance(o, list):
            stack.extend((v, d + 1) for v in o)
    return deepest


def loads(text: str | bytes) -> Any:
    """Parse JSON, refusing non-UTF-8 text and absurd nesting with a clear problem."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RuleViolation([not_utf8(exc.start)]) from None
    try:
        data = json.loads(text)
    except RecursionError:
        raise RuleViolation([TOO_DEEP]) from None
    except json.JSONDecodeError as exc:
        invalid = gettext_noop("JSON non valido: %(error)s (riga %(line)s)")
        values = {"error": exc.msg, "line": exc.lineno}
        raise RuleViolation([Problem.said("JSON_SYNTAX", invalid, values)]) from None
    if depth(data) > MAX_DEPTH:
        raise RuleViolation([TOO_DEEP])
    return data


def _text(
    value: Any, what: str, problems: list[Problem], turno: str | None, required: bool = True
) -> str:
    """A name or a reason as the club stores it (:func:`~.text.clean_text`), or a problem."""
    try:
        return clean_text(value, required=required)
    except TextError as exc:
        problems.append(exc.problem("TEXT_INVALID", what, turno=turno, field=what))
        return ""


def _str_list(value: Any, what: str, problems: list[Problem], turno: str | None) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        names = gettext_noop("%(what)s: deve essere una lista di nomi")
        problems.append(Problem.said("FORMAT", names, {"what": what}, turno=turno))
        return []
    return [_text(v, what, problems, turno) for v in value]


def _items(value: Any, what: str, problems: list[Problem], turno: str) -> list[dict]:
    """A list of objects (penalties, sanctions); anything else is a FORMAT problem."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        objects = gettext_noop("%(what)s: deve essere una lista di oggetti")
        problems.append(Problem.said("FORMAT", objects, {"what": what}, turno=turno))
        return []
    return value


def parse_header(
    data: Mapping[str, Any], problems: list[Problem], rules: RuleSet | None = None
) -> tuple[str, str, list[str], RuleSet | None]:
    """The document's fields other than its turni: (ruleset code, season, roster, rules).

    Problems are appended to ``problems``; the rules are None when they cannot be known.
    """
    if data.get("format") != FORMAT:
        problems.append(wrong_format(data.get("format"), FORMAT))
    code = data.get("ruleset", "caf")
    if rules is None and isinstance(data.get("rules"), dict):
        try:
            rules = RuleSet.from_dict(data["rules"])
        except RuleSetError as exc:
            problems.append(exc.problem("RULESET"))
    if rules is None and not problems:
        try:
            rules = get_ruleset(code) if isinstance(code, str) else None
        except RuleSetError:
            rules = None
        if rules is None:
            unknown = gettext_noop("regolamento sconosciuto: %(code)s")
            problems.append(Problem.said("RULESET", unknown, {"code": repr(code)}))
    season = data.get("season", "")
    if not isinstance(season, str):
        problems.append(Problem("FORMAT", gettext_noop("season: deve essere un testo")))
        season = ""
    season = _text(season, "season", problems, None, required=False)
    roster = _str_list(data.get("roster"), "roster", problems, None)
    return str(code), season, roster, rules


def parse_document(data: Any, rules: RuleSet | None = None) -> SeasonDocument:
    """A ``kingclub/v1`` input document as engine records; raises RuleViolation on any problem.

    Only the shape is checked here; the rules are checked by :func:`score_document`.
    """
    problems: list[Problem] = []
    if not isinstance(data, dict):
        raise RuleViolation([NOT_AN_OBJECT])
    code, season, roster, rules = parse_header(data, problems, rules)
    raw_turni = data.get("turni")
    if not isinstance(raw_turni, list):
        problems.append(TURNI_NOT_A_LIST)
        raw_turni = []
    turni: list[TurnoRecord] = []
    for i, t in enumerate(raw_turni, start=1):
        rec = parse_turno(t, i, problems)
        if rec is not None:
            turni.append(rec)
    if problems:
        raise RuleViolation(problems)
    assert rules is not None
    return SeasonDocument(code, season, roster, turni, rules)


def parse_turno(t: Any, index: int, problems: list[Problem]) -> TurnoRecord | None:
    """The ``index``-th turno of a document (from 1) as a record; its problems appended."""
    if not isinstance(t, dict):
        not_object = gettext_noop("turni[%(index)s]: deve essere un oggetto")
        problems.append(Problem.said("FORMAT", not_object, {"index": index}))
        return None
    number = t.get("number", 1)
    try:
        date = dt.date.fromisoformat(t.get("date"))
    except (TypeError, ValueError):
        date = None
    label = f"{t.get('date')!s} #{number}"
    if date is None:
        problems.append(
            Problem("FORMAT", gettext_noop("date: data non valida (AAAA-MM-GG)"), turno=label)
        )
    if (
        not isinstance(number, int)
        or isinstance(number, bool)
        or not 1 <= number <= MAX_TURNO_NUMBER
    ):
        label = f"{t.get('date')!s} #?"
        problems.append(
            Problem.said(
                "FORMAT",
                gettext_noop("number: deve essere un intero da 1 a %(high)s"),
                {"high": MAX_TURNO_NUMBER},
                turno=label,
            )
        )
        number = 1
    players = _str_list(t.get("players"), "players", problems, label)
    first_dealer = t.get("first_dealer")
    if not isinstance(first_dealer, str):
        problems.append(
            Problem("FORMAT", gettext_noop("first_dealer: manca il primo mazziere"), turno=label)
        )
        first_dealer = ""
    else:
        first_dealer = _text(first_dealer, "first_dealer", problems, label)
    smazzate: list[SmazzataRecord] = []
    raw = t.get("smazzate")
    if not isinstance(raw, list):
        problems.append(
            Problem("FORMAT", gettext_noop("smazzate: deve essere una lista"), turno=label)
        )
        raw = []
    for k, s in enumerate(raw, start=1):
        if not isinstance(s, dict) or not isinstance(s.get("result"), dict):
            problems.append(
                Problem(
                    "FORMAT",
                    gettext_noop("smazzata senza gioco/chiamante/risultato"),
                    smazzata=k,
                    turno=label,
                )
            )
            continue
        game, caller, trump = s.get("game"), s.get("caller"), s.get("trump")
        if not isinstance(game, str) or not isinstance(caller, str):
            problems.append(
                Problem(
                    "FORMAT",
                    gettext_noop("game e caller devono essere testi"),
                    smazzata=k,
                    turno=label,
                )
            )
            continue
        if trump is not None and not isinstance(trump, str):
            problems.append(
                Problem("TRUMP_INVALID", gettext_noop("seme non valido"), smazzata=k, turno=label)
            )
            trump = None
        result = {_text(n, "result", problems, label): c for n, c in s["result"].items()}
        caller = _text(caller, "caller", problems, label)
        smazzate.append(SmazzataRecord(game, caller, result, trump))
    penalties: list[Penalty] = []
    for p in _items(t.get("penalties"), "penalties", problems, label):
        if not isinstance(p.get("player"), str) or not isinstance(p.get("points"), int):
            problems.append(
                Problem(
                    "FORMAT",
                    gettext_noop("penalties: servono player (testo) e points (intero)"),
                    turno=label,
                )
            )
            continue
        penalties.append(
            Penalty(
                player=_text(p["player"], "penalties.player", problems, label),
                points=p["points"],
                article=_text(
                    str(p.get("article") or ""), "penalties.article", problems, label, False
                ),
                reason=_text(
                    str(p.get("reason") or ""), "penalties.reason", problems, label, False
                ),
            )
        )
    sanctions: list[Sanction] = []
    for s in _items(t.get("sanctions"), "sanctions", problems, label):
        if not isinstance(s.get("player"), str) or not isinstance(
            s.get("kind", "RETROCESSIONE_CONTATORE"), str
        ):
            problems.append(
                Problem(
                    "FORMAT", gettext_noop("sanctions: servono player e kind (testi)"), turno=label
                )
            )
            continue
        sanctions.append(
            Sanction(
                player=_text(s["player"], "sanctions.player", problems, label),
                kind=s.get("kind", "RETROCESSIONE_CONTATORE"),
                reason=_text(
                    str(s.get("reason") or ""), "sanctions.reason", problems, label, False
                ),
            )
        )
    tiebreak = _str_list(t.get("tiebreak"), "tiebreak", problems, label)
    if date is None:
        return None
    return TurnoRecord(
        players=tuple(players),
        first_dealer=first_dealer,
        smazzate=tuple(smazzate),
        penalties=tuple(penalties),
        tiebreak=tuple(tiebreak),
        sanctions=tuple(sanctions),
        date=date,
        number=number,
    )


@dataclass
class ScoredDocument:
    doc: SeasonDocument
    scores: list[TurnoScore]  # same order as doc.turni
    season: SeasonResult


class SeasonScorer:
    """Scores a season's turni one at a time and then the season, keeping of each turno only
    what the season needs (:class:`TableResult`: its order, ratios and sanctions).

    :func:`score_document` feeds it a whole document; the importer feeds it a file turno by
    turno, so the smazzate of a long season are never all in memory.
    """

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.tables: list[TableResult] = []
        self.problems: list[Problem] = []

    def add(self, t: TurnoRecord) -> TurnoScore:
        """Score the next turno: its problems (named with the turno) and its table kept."""
        assert t.date is not None
        score = score_turno(self.rules, t, require_complete=True)
        self.problems.extend(p.in_turno(t.label) for p in score.problems)
        self.tables.append(
            TableResult(
                key=len(self.tables),
                date=t.date,
                number=t.number,
                order=score.order() if score.places else tuple(t.players),
                ratios=score.ratios or {},
                sanctions=t.sanctions,
            )
        )
        return score

    def play(self, roster: list[str]) -> SeasonResult:
        """The whole season from the turni added (their keys: 0, 1, ... in the order added);
        raises RuleViolation listing every problem of the turni and of the giornate."""
        problems = [*self.problems, *check_giornate(self.tables)]
        if problems:
            raise RuleViolation(problems)
        return play_season(self.rules, roster, self.tables)


def score_document(doc: SeasonDocument) -> ScoredDocument:
    """Score every turno and the season; raises RuleViolation listing every problem."""
    scorer = SeasonScorer(doc.rules)
    scores = [scorer.add(t) for t in doc.turni]
    return ScoredDocument(doc, scores, scorer.play(doc.roster))


def output_document(scored: ScoredDocument) -> dict[str, Any]:
    """The output document of SPEC §10, in the input's order."""
    turni_out = []
    for i, (t, s) in enumerate(zip(scored.doc.turni, scored.scores, strict=True)):
        o = scored.season.tables[i]
        assert s.places is not None and s.ratios is not None
        turni_out.append(
            {
                "date": t.date.isoformat(),
                "number": t.number,
                "smazzate": [
                    {
                        "number": sm.number,
                        "game": sm.game,
                        "dealer": sm.dealer,
                        "caller": sm.caller,
                        "forced": sm.forced,
                        "scazzata": sm.scazzata,
                        "cappotto": sm.cappotto,
                        "points": dict(sm.points),
                    }
                    for sm in s.smazzate
                ],
                "penalties": dict(s.penalties),
                "totals": dict(s.totals),
                "places": dict(s.places),
                "ratios": {p: two(r) for p, r in s.ratios.items()},
                "series_before": dict(o.series_before),
                "series_after": dict(o.series_after),
                "titles": {p: list(o.titles[p]) for p in t.players},
                "league_points": {p: two(o.league_points[p]) for p in t.players},
            }
        )
    absences = [
        {"date": g.date.isoformat(), "players": {p: two(v) for p, v in g.absences.items()}}
        for g in scored.season.giornate
        if g.absences
    ]
    classifica = [classifica_row(place, st) for place, st in scored.season.classifica]
    return {"format": FORMAT, "turni": turni_out, "absences": absences, "classifica": classifica}


def classifica_row(place: int, st: Standing) -> dict[str, Any]:
    """A Classifica row with the keys ``kingscore`` prints (``league_points`` with two
    decimals)."""
    figures = classifica_figures(st.score, st.series, st.turni, st.absences, st.scudetti)
    return {"place": place, "player": st.player, **figures}


def classifica_figures(
    score: Decimal, series: str, turni: int, absences: int, scudetti: int
) -> dict[str, Any]:
    """The figures of a Classifica row after place and player, as ``kingscore`` prints them:
    what the ledger keeps of the row beside its columns (``Standing.extra``, as every game's)."""
    return {
        "league_points": two(score),
        "series": series,
        "turni": turni,
        "absences": absences,
        "scudetti": scudetti,
    }


def smazzata_to_input(s: SmazzataRecord) -> dict[str, Any]:
    """A smazzata record as the input document writes it, and as the ledger stores it (players
    by seat there, :mod:`scoring.records`): ``{"game", "caller", "trump"?, "result"}``."""
    return {
        "game": s.game,
        "caller": s.caller,
        **({"trump": s.trump} if s.trump else {}),
        "result": dict(s.result),
    }


def turno_to_input(t: TurnoRecord) -> dict[str, Any]:
    """A turno record as the input document writes it (export, backup)."""
    return {
        "date": t.date.isoformat() if t.date else None,
        "number": t.number,
        "players": list(t.players),
        "first_dealer": t.first_dealer,
        "smazzate": [smazzata_to_input(s) for s in t.smazzate],
        "penalties": [
            {"player": p.player, "points": p.points, "article": p.article, "reason": p.reason}
            for p in t.penalties
        ],
        "tiebreak": list(t.tiebreak),
        "sanctions": [
            {"player": s.player, "kind": s.kind, "reason": s.reason} for s in t.sanctions
        ],
    }


def input_document(
    season: str, roster: list[str], turni: list[TurnoRecord], ruleset: str = "caf"
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "ruleset": ruleset,
        "season": season,
        "roster": roster,
        "turni": [turno_to_input(t) for t in turni],
    }


def score_json(data: Mapping[str, Any]) -> dict[str, Any]:
    """Parse, score and write in one call (the stateless command)."""
    return output_document(score_document(parse_document(data)))
