"""The engine's limits at their exact boundaries: JSON nesting, turno numbers, point values in an
edited rule set, malformed penalità and sanctions in a document, records that cannot be changed
once made, and calls the state must refuse without crashing."""

from __future__ import annotations

import dataclasses

import pytest

from scoring.rules.caf import RuleSet, RuleSetError
from scoring.rules.caf.interchange import (
    MAX_DEPTH,
    MAX_TURNO_NUMBER,
    loads,
    parse_document,
    score_json,
)
from scoring.rules.caf.play import Progress
from scoring.rules.caf.records import Penalty, Sanction, SmazzataRecord, TurnoRecord
from scoring.rules.caf.ruleset import POINT_LIMIT, caf, default_ruleset_dict
from scoring.rules.caf.turno import check_penalties_and_sanctions
from scoring.rules.problems import Problem, RuleViolation
from scoring.rules.systems import get_system, posted_int

PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]


def _nested(depth: int) -> str:
    """A JSON value ``depth`` levels deep: depth 1 is ``0``, depth 2 ``[0]``..."""
    return "[" * (depth - 1) + "0" + "]" * (depth - 1)


def test_json_nested_exactly_to_the_limit_is_read_one_more_level_is_refused():
    assert MAX_DEPTH == 12
    assert loads(_nested(12)) == [[[[[[[[[[[0]]]]]]]]]]]
    with pytest.raises(RuleViolation) as exc:
        loads(_nested(13))
    assert [p.code for p in exc.value.problems] == ["JSON_DEPTH"]
    # objects count like lists
    with pytest.raises(RuleViolation):
        loads('{"a":' * 12 + "0" + "}" * 12)
    assert loads('{"a":' * 11 + "0" + "}" * 11) is not None


def _doc(**turno) -> dict:
    t = {"date": "2026-11-20", "number": 1, "players": PLAYERS, "first_dealer": "Anna"}
    t["smazzate"] = []
    t.update(turno)
    return {"format": "kingclub/v1", "ruleset": "caf", "season": "S", "turni": [t]}


def _problems(doc: dict) -> list[tuple[str, str]]:
    with pytest.raises(RuleViolation) as exc:
        parse_document(doc)
    return [(p.code, p.message) for p in exc.value.problems]


def test_a_turno_the_rules_refuse_is_named_by_its_date_and_number():
    # SPEC §10: every problem names the turno (date and number)
    with pytest.raises(RuleViolation) as exc:
        score_json(_doc(number=2))
    assert [(p.code, p.turno, p.message) for p in exc.value.problems] == [
        ("TURNO_INCOMPLETE", "2026-11-20 #2", "il turno ha 0 smazzate su 19")
    ]


def test_the_largest_turno_number_is_accepted_and_the_next_refused():
    assert MAX_TURNO_NUMBER == 32767
    assert parse_document(_doc(number=32767)).turni[0].number == 32767
    assert _problems(_doc(number=32768)) == [
        ("FORMAT", "number: deve essere un intero da 1 a 32767")
    ]
    assert _problems(_doc(number=0))[0][0] == "FORMAT"
    assert _problems(_doc(number=True))[0][0] == "FORMAT"


@pytest.mark.parametrize(
    "penalty",
    [{"player": 3, "points": -10}, {"player": "Anna", "points": "10"}, {"points": 5}],
)
def test_a_malformed_penalita_is_named(penalty):
    assert _problems(_doc(penalties=[penalty])) == [
        ("FORMAT", "penalties: servono player (testo) e points (intero)")
    ]


def test_a_penalita_keeps_its_article_and_reason():
    doc = _doc(penalties=[{"player": "Anna", "points": -10, "article": "12", "reason": "ritardo"}])
    assert parse_document(doc).turni[0].penalties == (
        Penalty(player="Anna", points=-10, article="12", reason="ritardo"),
    )
    bare = parse_document(_doc(penalties=[{"player": "Anna", "points": -5}])).turni[0]
    assert bare.penalties == (Penalty(player="Anna", points=-5, article="", reason=""),)


@pytest.mark.parametrize("sanction", [{"player": 7}, {"player": "Anna", "kind": 1}, {}])
def test_a_malformed_sanction_is_named(sanction):
    assert _problems(_doc(sanctions=[sanction])) == [
        ("FORMAT", "sanctions: servono player e kind (testi)")
    ]


def test_a_sanction_keeps_its_reason_and_defaults_its_kind():
    doc = _doc(sanctions=[{"player": "Bruno", "reason": "contatore rifiutato"}])
    (sanction,) = parse_document(doc).turni[0].sanctions
    assert (sanction.player, sanction.kind, sanction.reason) == (
        "Bruno",
        "RETROCESSIONE_CONTATORE",
        "contatore rifiutato",
    )


@pytest.mark.parametrize("limit", [POINT_LIMIT, -POINT_LIMIT])
def test_point_values_of_an_edited_rule_set_reach_the_limit_and_stop_there(limit):
    assert POINT_LIMIT == 500
    d = default_ruleset_dict()
    game = next(iter(d["games"]))
    d["games"][game]["per_unit"] = limit
    assert RuleSet.from_dict(d).games[game].per_unit == limit
    d["games"][game]["per_unit"] = limit + (1 if limit > 0 else -1)
    with pytest.raises(RuleSetError):
        RuleSet.from_dict(d)


def test_problems_and_records_cannot_be_changed_once_made():
    problem = Problem("X", "messaggio")
    with pytest.raises(dataclasses.FrozenInstanceError):
        problem.code = "Y"  # type: ignore[misc]
    record = SmazzataRecord("NF", "Anna", {"Anna": 1})
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.caller = "Bruno"  # type: ignore[misc]
    for made, field in (
        (Penalty(player="Anna", points=-5), "points"),
        (Sanction(player="Anna"), "player"),
        (TurnoRecord(players=("Anna", "Bruno"), first_dealer="Anna"), "first_dealer"),
    ):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(made, field, 0)
    assert hash(problem) == hash(Problem("X", "messaggio"))


def test_an_unknown_game_is_refused_and_leaves_the_state_as_it_was():
    progress = Progress(caf(), PLAYERS, "Anna")
    verdict = progress.advance("XX", "Bruno")
    assert [p.code for p in verdict.problems] == ["GAME_UNKNOWN"]
    assert progress.positives_called["Bruno"] == set()
    assert progress.negatives_played == set()


def test_a_call_by_someone_not_at_the_table_is_refused_without_touching_the_players():
    progress = Progress(caf(), PLAYERS, "Anna")
    game = next(g for g, rule in caf().games.items() if rule.phase != "negative")
    verdict = progress.advance(game, "Zeno")
    assert verdict.problems
    assert "Zeno" not in progress.positives_called
    assert all(called == set() for called in progress.positives_called.values())


def test_an_empty_entry_field_is_no_number_and_no_problem():
    problems: list[Problem] = []
    assert posted_int(None, "punti", problems) is None
    assert posted_int("  ", "punti", problems) is None
    assert problems == []
    assert posted_int(" 61 ", "punti", problems) == 61
    assert posted_int("6a", "punti", problems, player="Anna") is None
    assert [(p.code, p.message, p.player) for p in problems] == [
        ("FIELD_TYPE", "punti: «6a» non è un numero intero.", "Anna")
    ]


def test_a_system_is_kept_as_records_unless_it_says_otherwise():
    from scoring.rules.systems import BaseSystem

    assert BaseSystem().ledger == "records"  # the default a seventh game gets
    assert get_system("caf").ledger == "counts"
    assert get_system("ramino-101").ledger == "records"


def test_the_ladder_titles_and_score_decimals_are_declared_features():
    from scoring.rules.systems import BaseSystem

    base, caf_system, skat = BaseSystem(), get_system("caf"), get_system("skat-isko")
    assert (base.series_ladder, base.awards_titles, base.season_score_decimals) == (False, False, 0)
    assert (caf_system.series_ladder, caf_system.awards_titles) == (True, True)
    assert caf_system.season_score_decimals == 2  # league points 15,00
    assert (skat.series_ladder, skat.awards_titles, skat.season_score_decimals) == (False, False, 0)


def test_caf_checks_its_whole_rule_table_as_every_system_does():
    caf_system = get_system("caf")
    assert caf_system.rules(caf_system.default_rules()) == caf()
    assert caf_system.rules(None) == caf()
    with pytest.raises(RuleViolation) as exc:
        caf_system.rules({})  # a season stores the whole table: {} names no game
    assert [(p.code, p.field) for p in exc.value.problems] == [("RULES", "rules")]
    assert exc.value.problems[0].message == "regolamento, code: manca"


def test_a_rule_set_needs_both_negative_and_positive_games():
    d = default_ruleset_dict()
    positives = [c for c, g in d["games"].items() if g["phase"] == "positive"]
    for code in positives:
        del d["games"][code]
    d["game_order"] = list(d["games"])
    with pytest.raises(RuleSetError, match="games: servono giochi negative e giochi positive"):
        RuleSet.from_dict(d)


@pytest.mark.parametrize(
    ("points", "refused"),
    [
        (0, True),
        (1, False),
        (-1, False),
        (9999, False),
        (-9999, False),
        (10000, True),
        (-10000, True),
    ],
)
def test_a_penalita_of_zero_points_is_refused_one_point_is_not(points, refused):
    # and the sanity bound the message names: -9999 to 9999
    turno = TurnoRecord(
        players=tuple(PLAYERS),
        first_dealer="Anna",
        smazzate=(),
        penalties=(Penalty(player="Anna", points=points, article="3"),),
    )
    problems = check_penalties_and_sanctions(turno)
    assert [p.code for p in problems] == (["PENALTY_POINTS"] if refused else [])
    if refused:
        assert problems[0].message == (
            "i punti di una penalità sono un numero intero diverso da zero, tra -9999 e 9999"
        )


def test_a_turno_with_a_broken_header_is_not_complete():
    from scoring.rules.caf import score_turno

    duplicate = TurnoRecord(players=("Anna", "Anna", "Bruno", "Carla"), first_dealer="Anna")
    score = score_turno(caf(), duplicate, require_complete=False)
    assert (score.complete, score.places, score.ratios) == (False, None, None)
    assert "PLAYER_DUPLICATE" in [p.code for p in score.problems]


def test_the_figures_of_a_turno_count_every_call_and_every_point():
    import random

    from scoring.rules.caf import score_turno
    from scoring.rules.caf.simulator import simulate_turno

    record = simulate_turno(caf(), PLAYERS, random.Random(4), first_dealer="Anna")
    score = score_turno(caf(), record, require_complete=True)
    figures = score.player_figures()
    for p in PLAYERS:
        calls = [sm for sm in score.smazzate if sm.caller == p]
        assert figures[p]["calls"] == len(calls)
        assert figures[p]["forced"] == sum(sm.forced for sm in calls)
        assert figures[p]["scazzate"] == sum(sm.scazzata for sm in calls)
        assert figures[p]["cappotti"] == sum(sm.cappotto == p for sm in score.smazzate)
        assert sum(pts for pts, _n in figures[p]["games"].values()) == score.totals[p]
        assert sum(n for _pts, n in figures[p]["games"].values()) == len(score.smazzate)


def test_a_standings_average_is_over_turni_and_absences():
    from decimal import Decimal

    from scoring.rules.caf.records import Standing

    def standing(score, turni, absences):
        return Standing("Anna", Decimal(score), "A", turni, absences, {})

    assert standing("10.00", 2, 1).average == Decimal("3.33")
    assert standing("-1.00", 0, 3).average == Decimal("-0.33")
    assert standing("0", 0, 0).average is None


def test_a_simulated_turno_is_the_first_table_of_its_day_unless_told():
    import random

    from scoring.rules.caf.simulator import simulate_turno

    assert simulate_turno(caf(), PLAYERS, random.Random(1)).number == 1
    assert simulate_turno(caf(), PLAYERS, random.Random(1), number=3).number == 3


def test_a_played_domino_deal_cannot_be_changed_afterwards():
    import random

    from scoring.rules.caf.simulator import deal, play_domino

    rng = random.Random(2)
    game = play_domino(PLAYERS, "Anna", deal(caf(), PLAYERS, rng), rng)
    assert game.left[game.winner] == 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.winner = "Bruno"  # type: ignore[misc]
