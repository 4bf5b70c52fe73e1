"""Validation and scoring of smazzate and turni (SPEC §2, §4-§7)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import groupby, pairwise

from ..problems import Problem, Said, gettext_noop
from ..text import is_visible
from .play import Progress
from .records import (
    SANCTION_CONTATORE,
    ScoredSmazzata,
    SmazzataRecord,
    TurnoRecord,
    TurnoScore,
)
from .ruleset import COUNT_CARDS_LEFT, SUITS, RuleSet

# A sanity bound on one penalità (a turno's totals stay within about ±150 points).
PENALTY_LIMIT = 9999

# the header's, the penalties' and the sanctions' messages (values apart, for the reader's language)
EMPTY_NAME = gettext_noop("nome di giocatore vuoto")
NO_RESULT = gettext_noop("manca il risultato della smazzata")
PENALTY_STRANGER = gettext_noop("penalità per %(player)s, che non siede a questo tavolo")
PENALTY_POINTS = gettext_noop(
    "i punti di una penalità sono un numero intero diverso da zero, tra -%(limit)s e %(limit)s"
)
PENALTY_ARTICLE = gettext_noop(
    "una penalità deve citare l'articolo dello Statuto (6, 9, 15, 16 o altro)"
)
SANCTION_STRANGER = gettext_noop("sanzione per %(player)s, che non siede a questo tavolo")
SANCTION_KIND = gettext_noop("sanzione sconosciuta: %(kind)s (solo %(known)s)")
SANCTION_REASON = gettext_noop("la retrocessione per contatore richiede una motivazione")
SANCTION_TWICE = gettext_noop("%(player)s ha già una retrocessione per contatore in questo turno")


@dataclass(frozen=True)
class SmazzataPoints:
    points: dict[str, int]
    scazzata: bool
    cappotto: str | None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_result(
    rules: RuleSet,
    players: Sequence[str],
    game: str,
    result: Mapping[str, object],
    trump: str | None = None,
    number: int | None = None,
) -> list[Problem]:
    """Every problem with the recorded counts (and trump) of one smazzata of ``game``."""
    problems: list[Problem] = []
    rule = rules.games.get(game)
    if rule is None:
        return problems  # the call check reports the unknown game
    n = len(players)
    if n not in rules.decks:
        return problems  # the turno check reports the player count
    deck = rules.deck(n)

    def add(
        code: str, message: str, who: str | None = None, field: str = "result", **params: object
    ) -> None:
        """A problem; ``message`` marked with gettext_noop, its values in ``params``."""
        problems.append(
            Problem.said(code, message, params or None, smazzata=number, player=who, field=field)
        )

    game_name = rule.name  # the rule set's own name of the game (data, put in as it is)
    if rule.trump:
        if trump is None or trump == "":
            add(
                "TRUMP_MISSING",
                gettext_noop("%(game)s: manca il seme di briscola"),
                field="trump",
                game=game_name,
            )
        elif trump not in SUITS:
            add(
                "TRUMP_INVALID",
                gettext_noop("seme di briscola non valido: %(value)s (S, H, D o C)"),
                field="trump",
                value=repr(trump),
            )
    elif trump not in (None, ""):
        add(
            "TRUMP_UNEXPECTED",
            gettext_noop("%(game)s non ha un seme di briscola"),
            field="trump",
            game=game_name,
        )

    for name in result:
        if name not in players:
            add(
                "RESULT_PLAYER_UNKNOWN",
                gettext_noop("%(player)s non siede a questo tavolo"),
                str(name),
                player=repr(name),
            )
    counts: dict[str, int] = {}
    for p in players:
        if p not in result:
            add("RESULT_MISSING", gettext_noop("manca il risultato di %(player)s"), p, player=p)
            continue
        value = result[p]
        if not _is_int(value):
            add(
                "COUNT_NOT_INTEGER",
                gettext_noop("il risultato di %(player)s deve essere un numero intero"),
                p,
                player=p,
            )
            continue
        counts[p] = value  # type: ignore[assignment]

    total = deck.count_of(rule.counts)
    if rule.counts == COUNT_CARDS_LEFT:
        for p, c in counts.items():
            if not 0 <= c <= deck.hand:
                add(
                    "COUNT_RANGE",
                    gettext_noop(
                        "%(game)s: %(player)s ha %(count)s carte in mano, ma con %(n)s giocatori "
                        "le carte in mano vanno da 0 a %(hand)s"
                    ),
                    p,
                    game=game_name,
                    player=p,
                    count=c,
                    n=n,
                    hand=deck.hand,
                )
        if len(counts) == n:
            winners = [p for p, c in counts.items() if c == 0]
            if len(winners) != 1:
                add(
                    "DOMINO_WINNER",
                    gettext_noop(
                        "%(game)s: deve esserci esattamente un vincitore con 0 carte in mano "
                        "(ce ne sono %(n)s)"
                    ),
                    game=game_name,
                    n=len(winners),
                )
        return problems

    unit = Said(_unit_name(rule.counts))
    for p, c in counts.items():
        if not 0 <= c <= total:
            add(
                "COUNT_RANGE",
                gettext_noop("%(game)s: %(player)s ha %(count)s %(unit)s, ma il massimo è %(max)s"),
                p,
                game=game_name,
                player=p,
                count=c,
                unit=unit,
                max=total,
            )
    if len(counts) == n and all(0 <= c <= total for c in counts.values()):
        got = sum(counts.values())
        if got != total:
            add(
                "COUNT_SUM",
                gettext_noop(
                    "%(game)s: la somma dei risultati è %(sum)s, ma deve essere %(total)s "
                    "(%(unit)s in un mazzo da %(cards)s carte)"
                ),
                game=game_name,
                sum=got,
                total=total,
                unit=unit,
                cards=len(deck.cards),
            )
    return problems


_UNITS = {
    "jacks": gettext_noop("fanti"),
    "kings": gettext_noop("re"),
    "jacks_kings": gettext_noop("fanti e re"),
    "queen_spades": gettext_noop("donne di picche"),
    "hearts": gettext_noop("cuori"),
    "last_two_tricks": gettext_noop("delle ultime due mani"),
    "tricks": gettext_noop("mani"),
    "cards_left": gettext_noop("carte in mano"),
}


def _unit_name(counts: str) -> str:
    return _UNITS.get(counts, counts)


def score_smazzata(
    rules: RuleSet,
    players: Sequence[str],
    game: str,
    caller: str,
    forced: bool,
    result: Mapping[str, int],
) -> SmazzataPoints:
    """Points of a valid smazzata: base points, cappotto, scazzata (SPEC §4-§6)."""
    rule = rules.games[game]
    deck = rules.deck(len(players))
    points: dict[str, int] = {}
    if rule.counts == COUNT_CARDS_LEFT:
        for p in players:
            c = result[p]
            points[p] = (rule.winner_points or 0) if c == 0 else rule.per_unit * c
    else:
        for p in players:
            points[p] = rule.per_unit * result[p]
    cappotto = None
    if rule.cappotto is not None:
        total = deck.count_of(rule.counts)
        takers = [p for p in players if result[p] == total]
        if total > 0 and len(takers) == 1:
            cappotto = takers[0]
            points = {p: (0 if p == cappotto else rule.cappotto) for p in players}
    scazzata = False
    if (
        not forced
        and cappotto is None
        and rule.scazzata is not None
        and caller in result
        and rule.scazzata.reached(result[caller], deck.hand)
    ):
        scazzata = True
        points[caller] = rule.scazzata.points(result[caller])
    return SmazzataPoints(points, scazzata, cappotto)


def _about(code: str, message: str, who: object, field: str, **params: object) -> Problem:
    """A problem of the player named in ``field`` (the name as written, even when no string);
    ``message`` marked with gettext_noop, its values in ``params``."""
    return Problem.said(code, message, params or None, player=str(who), field=field)


def check_turno_header(rules: RuleSet, players: Sequence[str], first_dealer: str) -> list[Problem]:
    problems: list[Problem] = []
    n = len(players)
    if not rules.min_players <= n <= rules.max_players:
        problems.append(
            Problem.said(
                "TURNO_PLAYERS_COUNT",
                gettext_noop("un turno ha da %(low)s a %(high)s giocatori, non %(n)s"),
                {"low": rules.min_players, "high": rules.max_players, "n": n},
                field="players",
            )
        )
    seen: set[str] = set()
    for p in players:
        if not isinstance(p, str) or not p.strip():
            problems.append(Problem.said("PLAYER_NAME", EMPTY_NAME, field="players"))
        elif p in seen:
            message = gettext_noop("%(player)s compare due volte al tavolo")
            problems.append(_about("PLAYER_DUPLICATE", message, p, "players", player=p))
        seen.add(p)
    if first_dealer not in players:
        problems.append(
            _about(
                "FIRST_DEALER",
                gettext_noop("il primo mazziere %(player)s non siede a questo tavolo"),
                first_dealer,
                "first_dealer",
                player=repr(first_dealer),
            )
        )
    return problems


def ratios(rules: RuleSet, totals: Mapping[str, int]) -> dict[str, Decimal]:
    """The rapporto of every player to the winner's total, rounded per the rule set (SPEC §7)."""
    w = max(totals.values())
    quantum = Decimal(1).scaleb(-rules.ratio_places)
    out: dict[str, Decimal] = {}
    for p, t in totals.items():
        if w > 0:
            r = Decimal(t) / Decimal(w)
        elif w < 0:
            if rules.ratio_negative_winner == "inverse":
                r = Decimal(w) / Decimal(t)
            else:  # "direct": total / W, clamped as computed
                r = Decimal(t) / Decimal(w)
        else:
            r = Decimal(1) if t == 0 else Decimal(0)
        out[p] = r.quantize(quantum, rounding=rules.ratio_rounding)
    return out


def rank(
    totals: Mapping[str, int], tiebreak: Sequence[str]
) -> tuple[dict[str, int] | None, list[Problem], tuple[tuple[str, ...], ...]]:
    """Places 1..N by total, ties settled by the recorded spareggio order (SPEC §7).

    Returns (places or None, problems, groups of tied players).
    """
    problems: list[Problem] = []
    players = list(totals)
    position = {}
    for i, p in enumerate(tiebreak):
        if p not in totals:
            problems.append(
                _about(
                    "TIEBREAK_PLAYER",
                    gettext_noop("lo spareggio nomina %(player)s, che non siede a questo tavolo"),
                    p,
                    "tiebreak",
                    player=repr(p),
                )
            )
        elif p in position:
            problems.append(
                _about(
                    "TIEBREAK_DUPLICATE",
                    gettext_noop("%(player)s compare due volte nello spareggio"),
                    p,
                    "tiebreak",
                    player=p,
                )
            )
        else:
            position[p] = i
    listed = [p for p in tiebreak if p in totals]
    for a, b in pairwise(listed):
        if totals[a] < totals[b]:
            problems.append(
                _about(
                    "TIEBREAK_ORDER",
                    gettext_noop(
                        "lo spareggio mette %(first)s (%(first_total)s) prima di %(second)s "
                        "(%(second_total)s), contro i punteggi"
                    ),
                    a,
                    "tiebreak",
                    first=a,
                    first_total=totals[a],
                    second=b,
                    second_total=totals[b],
                )
            )
    by_total = sorted(players, key=lambda p: -totals[p])
    tied = tuple(
        tuple(group)
        for _, g in groupby(by_total, key=lambda p: totals[p])
        if len(group := list(g)) > 1
    )
    for group in tied:
        missing = [p for p in group if p not in position]
        if missing:
            names = ", ".join(group)
            problems.append(
                _about(
                    "TIE_UNRESOLVED",
                    gettext_noop(
                        "parità a %(points)s punti tra %(names)s: registrare lo spareggio "
                        "(carta più alta al meglio delle 5 prove)"
                    ),
                    missing[0],
                    "tiebreak",
                    points=totals[group[0]],
                    names=names,
                )
            )
    if problems:
        return None, problems, tied
    order = sorted(players, key=lambda p: (-totals[p], position.get(p, 0)))
    return {p: i + 1 for i, p in enumerate(order)}, problems, tied


def _not_seated(code: str, message: str, who: object, field: str) -> Problem:
    """``message`` names the player not seated as ``%(player)s`` (written as a value)."""
    return _about(code, message, who, field, player=repr(who))


def check_penalties_and_sanctions(turno: TurnoRecord) -> list[Problem]:
    problems: list[Problem] = []
    for pen in turno.penalties:
        if pen.player not in turno.players:
            problems.append(
                _not_seated("PENALTY_PLAYER", PENALTY_STRANGER, pen.player, "penalties")
            )
        if not _is_int(pen.points) or pen.points == 0 or abs(pen.points) > PENALTY_LIMIT:
            problems.append(
                _about(
                    "PENALTY_POINTS", PENALTY_POINTS, pen.player, "penalties", limit=PENALTY_LIMIT
                )
            )
        if not is_visible(str(pen.article or "")):
            problems.append(_about("PENALTY_ARTICLE", PENALTY_ARTICLE, pen.player, "penalties"))
    seen: set[str] = set()
    for s in turno.sanctions:
        if s.player not in turno.players:
            problems.append(
                _not_seated("SANCTION_PLAYER", SANCTION_STRANGER, s.player, "sanctions")
            )
        if s.kind != SANCTION_CONTATORE:
            problems.append(
                _about(
                    "SANCTION_KIND",
                    SANCTION_KIND,
                    s.player,
                    "sanctions",
                    kind=repr(s.kind),
                    known=SANCTION_CONTATORE,
                )
            )
        if not is_visible(str(s.reason or "")):
            problems.append(_about("SANCTION_REASON", SANCTION_REASON, s.player, "sanctions"))
        if s.player in seen:
            problems.append(
                _about("SANCTION_DUPLICATE", SANCTION_TWICE, s.player, "sanctions", player=s.player)
            )
        seen.add(s.player)
    return problems


def score_turno(rules: RuleSet, turno: TurnoRecord, *, require_complete: bool = True) -> TurnoScore:
    """Validate and score a turno; every problem is reported at once in ``problems``.

    With ``require_complete=False`` (a turno in progress) a missing smazzata is not a problem and
    places are computed only once the turno is complete.
    """
    players = tuple(turno.players)
    problems = check_turno_header(rules, players, turno.first_dealer)
    if any(p.code in ("TURNO_PLAYERS_COUNT", "PLAYER_DUPLICATE", "PLAYER_NAME") for p in problems):
        return TurnoScore(players, (), {}, {}, False, None, None, tuple(problems))

    progress = Progress(rules, players, turno.first_dealer)
    scored: list[ScoredSmazzata] = []
    totals = dict.fromkeys(players, 0)
    for i, sm in enumerate(turno.smazzate, start=1):
        dealer = progress.dealer
        call = progress.advance(sm.game, sm.caller)
        result = dict(sm.result) if isinstance(sm.result, Mapping) else {}
        if not isinstance(sm.result, Mapping):
            problems.append(Problem.said("RESULT_MISSING", NO_RESULT, smazzata=i))
        count_problems = check_result(rules, players, sm.game, result, sm.trump, number=i)
        problems.extend(call.problems)
        problems.extend(count_problems)
        if call.problems or count_problems or not isinstance(sm.result, Mapping):
            continue
        pts = score_smazzata(rules, players, sm.game, sm.caller, call.forced, result)
        for p in players:
            totals[p] += pts.points[p]
        scored.append(
            ScoredSmazzata(
                number=i,
                game=sm.game,
                dealer=dealer,
                caller=sm.caller,
                forced=call.forced,
                trump=sm.trump if rules.games[sm.game].trump else None,
                result=result,
                points=pts.points,
                scazzata=pts.scazzata,
                cappotto=pts.cappotto,
            )
        )

    complete = progress.complete and len(turno.smazzate) == progress.total
    # too many smazzate is TURNO_TOO_MANY_SMAZZATE (from the call check), not "incomplete"
    if require_complete and not complete and len(turno.smazzate) < progress.total:
        problems.append(
            Problem.said(
                "TURNO_INCOMPLETE",
                gettext_noop("il turno ha %(played)s smazzate su %(total)s"),
                {"played": len(turno.smazzate), "total": progress.total},
            )
        )

    problems.extend(check_penalties_and_sanctions(turno))
    penalties = dict.fromkeys(players, 0)
    for pen in turno.penalties:
        if pen.player in penalties and _is_int(pen.points):
            penalties[pen.player] += pen.points
    for p in players:
        totals[p] += penalties[p]

    places = ratio = None
    tied: tuple[tuple[str, ...], ...] = ()
    if complete and not problems:
        places, rank_problems, tied = rank(totals, turno.tiebreak)
        problems.extend(rank_problems)
        if places is not None:
            ratio = ratios(rules, totals)
    elif complete:
        _, _, tied = rank(totals, ())
    return TurnoScore(
        players=players,
        smazzate=tuple(scored),
        penalties=penalties,
        totals=totals,
        complete=complete,
        places=places,
        ratios=ratio,
        problems=tuple(problems),
        tied=tied,
    )


def progress_of(rules: RuleSet, turno: TurnoRecord) -> Progress:
    """The "what next" state of a turno in progress (its smazzate taken as recorded)."""
    return Progress.after(
        rules, turno.players, turno.first_dealer, ((s.game, s.caller) for s in turno.smazzate)
    )


def check_smazzata(
    rules: RuleSet, turno: TurnoRecord, smazzata: SmazzataRecord
) -> tuple[list[Problem], bool]:
    """Check one more smazzata for a turno in progress: (problems, forced)."""
    progress = progress_of(rules, turno)
    number = progress.number
    call = progress.check(smazzata.game, smazzata.caller, number)
    problems = list(call.problems)
    problems += check_result(
        rules, turno.players, smazzata.game, smazzata.result, smazzata.trump, number=number
    )
    return problems, call.forced
