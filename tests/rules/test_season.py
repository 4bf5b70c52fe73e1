"""The season (SPEC §8): series ladder, titles, absences, several tables, the Classifica Generale.

Ratios are given (they come from the turni); league points = ratio + titles, computed by hand.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from scoring.rules.caf.records import Sanction, SeasonState, Standing, TableResult
from scoring.rules.caf.ruleset import caf
from scoring.rules.caf.season import (
    add_figures,
    check_giornate,
    league_line,
    play_giornate,
    play_season,
    play_table,
    rank_classifica,
    season_figures,
)

RULES = caf()
D1, D2, D3, D4 = (
    dt.date(2026, 11, 20),
    dt.date(2026, 11, 27),
    dt.date(2026, 12, 4),
    dt.date(2026, 12, 11),
)
FOUR = ("Anna", "Bruno", "Carla", "Dario")


def table(key, date, order, ratios, number=1, sanctions=()):
    return TableResult(
        key=key,
        date=date,
        number=number,
        order=tuple(order),
        ratios={p: Decimal(r) for p, r in zip(order, ratios, strict=True)},
        sanctions=tuple(sanctions),
    )


def dec(d):
    return {p: Decimal(v) for p, v in d.items()}


def one(order, ratios, series=None, streak=None, sanctions=()):
    """Play a single table from a given state: (outcome, state after)."""
    t = table("t", D1, order, ratios, sanctions=sanctions)
    state = SeasonState(series=dict(series or {}), streak=dict(streak or {}))
    outcomes, _, after = play_giornate(RULES, order, [t], state)
    return outcomes["t"], after


def standing(result, player):
    return next(s for _, s in result.classifica if s.player == player)


# G1: Anna 1.00, Bruno 0.50, Carla 0.25, Dario -0.10, everyone in A
G1 = table("g1", D1, FOUR, ["1.00", "0.50", "0.25", "-0.10"])
# G2: Dario is in B now
G2 = table("g2", D2, ("Anna", "Dario", "Bruno", "Carla"), ["1.00", "0.60", "0.40", "0.10"])
# G3: Carla is in B too
G3 = table("g3", D3, ("Anna", "Carla", "Dario", "Bruno"), ["1.00", "0.70", "0.30", "-0.50"])


def test_source_example_and_three_straight_scudetti():
    result = play_season(RULES, FOUR, [G1, G2, G3])
    g1, g2, g3 = (result.tables[k] for k in ("g1", "g2", "g3"))

    # G1: winner 1 + Scudetto 1 = 2; second in A: UEFA 0.50+0.3; third in A (not last):
    # Coppa Italia 0.25+0.1; last: Retrocessione -0.10-0.1 and down to B
    assert g1.titles == {
        "Anna": ("SCUDETTO",),
        "Bruno": ("UEFA",),
        "Carla": ("COPPA_ITALIA",),
        "Dario": ("RETROCESSIONE",),
    }
    assert g1.league_points == dec(
        {"Anna": "2.00", "Bruno": "0.80", "Carla": "0.35", "Dario": "-0.20"}
    )
    assert g1.series_before == dict.fromkeys(FOUR, "A")
    assert g1.series_after == {"Anna": "A", "Bruno": "A", "Carla": "A", "Dario": "B"}

    # G2: Anna again: 1 + 1 + Coppa dei Campioni 1.5 = 3.5 (the source's example);
    # Dario second but in B: no UEFA (0.60); Bruno third in A: Coppa Italia 0.40+0.1;
    # Carla last: 0.10-0.1 = 0, down to B
    assert g2.titles == {
        "Anna": ("SCUDETTO", "COPPA_CAMPIONI"),
        "Dario": (),
        "Bruno": ("COPPA_ITALIA",),
        "Carla": ("RETROCESSIONE",),
    }
    assert g2.league_points == dec(
        {"Anna": "3.50", "Dario": "0.60", "Bruno": "0.50", "Carla": "0.00"}
    )
    assert g2.series_after == {"Anna": "A", "Dario": "B", "Bruno": "A", "Carla": "B"}

    # G3: third straight: 1 + 1 + 1.5 + Intercontinentale 2.5 = 6; Carla second in B: nothing;
    # Dario third in B (not last): Coppa Italia 0.30+0.1; Bruno last: -0.50-0.1, down to B
    assert g3.titles == {
        "Anna": ("SCUDETTO", "COPPA_CAMPIONI", "INTERCONTINENTALE"),
        "Carla": (),
        "Dario": ("COPPA_ITALIA",),
        "Bruno": ("RETROCESSIONE",),
    }
    assert g3.league_points == dec(
        {"Anna": "6.00", "Carla": "0.70", "Dario": "0.40", "Bruno": "-0.60"}
    )
    assert g3.series_after == {"Anna": "A", "Carla": "B", "Dario": "B", "Bruno": "B"}

    assert result.state.series == {"Anna": "A", "Bruno": "B", "Carla": "B", "Dario": "B"}
    assert result.state.streak == {"Anna": 3}
    assert [g.absences for g in result.giornate] == [{}, {}, {}]
    # season: Anna 2 + 3.5 + 6 = 11.5; Bruno 0.80+0.50-0.60 = 0.70; Carla 0.35+0+0.70 = 1.05;
    # Dario -0.20+0.60+0.40 = 0.80
    assert [(place, s.player, s.score) for place, s in result.classifica] == [
        (1, "Anna", Decimal("11.50")),
        (2, "Carla", Decimal("1.05")),
        (3, "Dario", Decimal("0.80")),
        (4, "Bruno", Decimal("0.70")),
    ]
    anna = standing(result, "Anna")
    assert (anna.turni, anna.absences, anna.scudetti, anna.series) == (3, 0, 3, "A")
    assert anna.titles == {"SCUDETTO": 3, "COPPA_CAMPIONI": 2, "INTERCONTINENTALE": 1}
    assert standing(result, "Dario").titles == {"RETROCESSIONE": 1, "COPPA_ITALIA": 1}


def test_fourth_straight_scudetto_wins_every_cup_again():
    # [interpretation] SPEC §8.3: the Intercontinentale is won again at every further Scudetto
    outcome, state = one(FOUR, ["1.00", "0.50", "0.25", "-0.10"], streak={"Anna": 3})
    assert outcome.titles["Anna"] == ("SCUDETTO", "COPPA_CAMPIONI", "INTERCONTINENTALE")
    assert outcome.league_points["Anna"] == Decimal("6.00")  # 1 + 1 + 1.5 + 2.5
    assert state.streak == {"Anna": 4}


def test_streak_broken_by_another_winner():
    # Anna won the previous giornata (streak 1) but Bruno wins this one
    outcome, state = one(
        ("Bruno", "Anna", "Carla", "Dario"), ["1.00", "0.90", "0.50", "0.10"], streak={"Anna": 1}
    )
    assert outcome.titles["Bruno"] == ("SCUDETTO",)
    assert outcome.titles["Anna"] == ("UEFA",)
    assert outcome.league_points["Anna"] == Decimal("1.20")  # 0.90 + 0.3
    assert state.streak == {"Bruno": 1}


@pytest.mark.parametrize("roster", [(*FOUR, "Elena"), FOUR])  # Elena enrolled, or only playing
def test_absence_breaks_the_streak_and_takes_the_lowest(roster):
    g1 = G1  # Elena absent: lowest of G1 is Dario's -0.20
    # G2, Anna absent. Before: Bruno A, Carla A, Dario B, Elena A (start series)
    g2 = table("g2", D2, ("Bruno", "Elena", "Carla", "Dario"), ["1.00", "0.40", "0.20", "-0.30"])
    # Bruno 1+1 = 2.00; Elena UEFA 0.70; Carla Coppa Italia 0.30; Dario -0.40, B -> C1
    # G3, Elena absent. Anna won G1 but missed G2: only a Scudetto.
    g3 = table("g3", D3, ("Anna", "Carla", "Bruno", "Dario"), ["1.00", "0.80", "0.60", "0.20"])
    # Anna 2.00; Carla UEFA 1.10; Bruno Coppa Italia 0.70; Dario 0.10, C1 -> C2
    result = play_season(RULES, roster, [g1, g2, g3])
    assert result.tables["g2"].league_points == dec(
        {"Bruno": "2.00", "Elena": "0.70", "Carla": "0.30", "Dario": "-0.40"}
    )
    assert result.tables["g3"].titles["Anna"] == ("SCUDETTO",)
    assert result.tables["g3"].league_points == dec(
        {"Anna": "2.00", "Carla": "1.10", "Bruno": "0.70", "Dario": "0.10"}
    )
    assert [g.date for g in result.giornate] == [D1, D2, D3]
    assert [g.lowest for g in result.giornate] == [
        Decimal("-0.20"),
        Decimal("-0.40"),
        Decimal("0.10"),
    ]
    assert [g.absences for g in result.giornate] == [
        {"Elena": Decimal("-0.20")},
        {"Anna": Decimal("-0.40")},
        {"Elena": Decimal("0.10")},
    ]
    # absences change no series: Anna A after G1, still A; Elena A
    assert result.tables["g3"].series_before["Anna"] == "A"
    assert result.state.series == {
        "Anna": "A",
        "Bruno": "A",
        "Carla": "A",
        "Dario": "C2",
        "Elena": "A",
    }
    # Anna 2.00-0.40+2.00 = 3.60; Bruno 0.80+2.00+0.70 = 3.50; Carla 0.35+0.30+1.10 = 1.75;
    # Elena -0.20+0.70+0.10 = 0.60; Dario -0.20-0.40+0.10 = -0.50
    assert [(place, s.player, s.score) for place, s in result.classifica] == [
        (1, "Anna", Decimal("3.60")),
        (2, "Bruno", Decimal("3.50")),
        (3, "Carla", Decimal("1.75")),
        (4, "Elena", Decimal("0.60")),
        (5, "Dario", Decimal("-0.50")),
    ]
    anna, elena = standing(result, "Anna"), standing(result, "Elena")
    assert (anna.turni, anna.absences, anna.scudetti) == (2, 1, 2)
    assert anna.titles == {"SCUDETTO": 2}  # no Coppa dei Campioni: the absence broke the run
    assert (elena.turni, elena.absences, elena.scudetti) == (1, 2, 0)
    assert elena.titles == {"UEFA": 1}  # an absence wins no title


def test_late_joiner_who_never_plays():
    result = play_season(RULES, [*FOUR, "Zeno"], [G1, G2, G3])
    # lowest of each giornata: -0.20, 0.00, -0.60 -> -0.80
    assert [g.absences for g in result.giornate] == [
        {"Zeno": Decimal("-0.20")},
        {"Zeno": Decimal("0.00")},
        {"Zeno": Decimal("-0.60")},
    ]
    zeno = standing(result, "Zeno")
    assert (zeno.score, zeno.turni, zeno.absences, zeno.series, zeno.titles) == (
        Decimal("-0.80"),
        0,
        3,
        "A",
        {},
    )
    assert result.classifica[-1] == (5, zeno)


def test_uefa_and_coppa_italia_only_in_their_series():
    # third place in C1 wins no Coppa Italia, second place in C1 no UEFA
    outcome, _ = one(
        FOUR, ["1.00", "0.80", "0.50", "0.10"], series={"Bruno": "C1", "Carla": "C1", "Dario": "C1"}
    )
    assert outcome.titles == {
        "Anna": ("SCUDETTO",),
        "Bruno": (),
        "Carla": (),
        "Dario": ("RETROCESSIONE",),
    }
    assert outcome.series_after == {"Anna": "A", "Bruno": "C1", "Carla": "C1", "Dario": "C2"}
    assert outcome.league_points == dec(
        {"Anna": "2.00", "Bruno": "0.80", "Carla": "0.50", "Dario": "0.00"}
    )


def test_no_coppa_italia_at_a_three_player_table():
    # third is the last: Retrocessione only
    outcome, _ = one(("Anna", "Bruno", "Carla"), ["1.00", "0.50", "0.20"])
    assert outcome.titles == {
        "Anna": ("SCUDETTO",),
        "Bruno": ("UEFA",),
        "Carla": ("RETROCESSIONE",),
    }
    # 2.00; 0.50+0.3 = 0.80; 0.20-0.1 = 0.10
    assert outcome.league_points == dec({"Anna": "2.00", "Bruno": "0.80", "Carla": "0.10"})
    assert outcome.series_after == {"Anna": "A", "Bruno": "A", "Carla": "B"}


def test_nobody_in_serie_a_doppio_salto_with_mitropa():
    before = {"Anna": "C1", "Bruno": "C2", "Carla": "C1", "Dario": "ECC"}
    outcome, state = one(FOUR, ["1.00", "0.50", "0.30", "0.10"], series=before)
    # step 1: everyone up one: Anna B, Bruno C1, Carla B, Dario C2
    # Anna wins in B: promoted to A by the result, Mitropa: 1.00+0.2 = 1.20
    # Bruno second in C1: nothing; Carla third in B (not last): Coppa Italia 0.30+0.1 = 0.40
    # Dario last: C2 -> ECC, Retrocessione 0.10-0.1 = 0.00
    assert outcome.series_before == before
    assert outcome.series_after == {"Anna": "A", "Bruno": "C1", "Carla": "B", "Dario": "ECC"}
    assert outcome.titles == {
        "Anna": ("MITROPA",),
        "Bruno": (),
        "Carla": ("COPPA_ITALIA",),
        "Dario": ("RETROCESSIONE",),
    }
    assert outcome.league_points == dec(
        {"Anna": "1.20", "Bruno": "0.50", "Carla": "0.40", "Dario": "0.00"}
    )
    assert state.streak == {}


def test_nobody_in_serie_a_winner_from_b_wins_the_scudetto():
    before = {"Anna": "B", "Bruno": "C1", "Carla": "C2", "Dario": "3CAT"}
    outcome, state = one(FOUR, ["1.00", "0.80", "0.20", "-0.30"], series=before)
    # step 1: Anna A, Bruno B, Carla C1, Dario 2CAT. Anna wins in A: Scudetto, no Mitropa
    # (the automatic promotion alone earns nothing): 1+1 = 2.00; Bruno second in B: no UEFA;
    # Carla third in C1: no Coppa Italia; Dario last: 2CAT -> 3CAT, -0.30-0.1 = -0.40
    assert outcome.series_after == {"Anna": "A", "Bruno": "B", "Carla": "C1", "Dario": "3CAT"}
    assert outcome.titles == {
        "Anna": ("SCUDETTO",),
        "Bruno": (),
        "Carla": (),
        "Dario": ("RETROCESSIONE",),
    }
    assert outcome.league_points == dec(
        {"Anna": "2.00", "Bruno": "0.80", "Carla": "0.20", "Dario": "-0.40"}
    )
    assert state.streak == {"Anna": 1}


def test_winner_in_b_with_serie_a_at_the_table():
    # no automatic promotion (Bruno, Carla, Dario are in A): Anna wins in B -> A, Mitropa
    outcome, _ = one(FOUR, ["1.00", "0.50", "0.25", "-0.10"], series={"Anna": "B"})
    assert outcome.titles == {
        "Anna": ("MITROPA",),
        "Bruno": ("UEFA",),
        "Carla": ("COPPA_ITALIA",),
        "Dario": ("RETROCESSIONE",),
    }
    assert outcome.series_after == {"Anna": "A", "Bruno": "A", "Carla": "A", "Dario": "B"}
    assert outcome.league_points == dec(
        {"Anna": "1.20", "Bruno": "0.80", "Carla": "0.35", "Dario": "-0.20"}
    )


def test_winner_in_c1_is_promoted_without_mitropa():
    outcome, _ = one(FOUR, ["1.00", "0.50", "0.25", "-0.10"], series={"Anna": "C1"})
    assert outcome.titles["Anna"] == ()
    assert outcome.series_after["Anna"] == "B"
    assert outcome.league_points["Anna"] == Decimal("1.00")


SIX = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio")
SIX_SERIES = {
    "Anna": "A",
    "Bruno": "ECC",
    "Carla": "PROM",
    "Dario": "B",
    "Elena": "1CAT",
    "Fabio": "C2",
}


def test_second_place_promoted_from_an_amateur_series_at_six_players():
    outcome, _ = one(SIX, ["1.00", "0.90", "0.50", "0.40", "0.30", "0.10"], series=SIX_SERIES)
    # Anna Scudetto 2.00; Bruno second in ECC at a 6-player table: up to C2 (no title) 0.90;
    # Fabio last: C2 -> ECC, 0.10-0.1 = 0.00; nobody else moves
    assert outcome.series_after == {
        "Anna": "A",
        "Bruno": "C2",
        "Carla": "PROM",
        "Dario": "B",
        "Elena": "1CAT",
        "Fabio": "ECC",
    }
    assert outcome.titles["Bruno"] == ()
    assert outcome.titles["Carla"] == ()  # third in PROM: no Coppa Italia
    assert outcome.league_points == dec(
        {
            "Anna": "2.00",
            "Bruno": "0.90",
            "Carla": "0.50",
            "Dario": "0.40",
            "Elena": "0.30",
            "Fabio": "0.00",
        }
    )


def test_second_place_not_promoted_at_five_players():
    five = SIX[:5]
    outcome, _ = one(five, ["1.00", "0.90", "0.50", "0.40", "0.30"], series=SIX_SERIES)
    # Bruno stays in ECC; Elena last: 1CAT -> 2CAT, 0.30-0.1 = 0.20
    assert outcome.series_after == {
        "Anna": "A",
        "Bruno": "ECC",
        "Carla": "PROM",
        "Dario": "B",
        "Elena": "2CAT",
    }
    assert outcome.league_points["Elena"] == Decimal("0.20")


def test_second_place_in_a_professional_series_not_promoted_at_six_players():
    order = ("Anna", "Fabio", "Carla", "Dario", "Elena", "Bruno")
    outcome, _ = one(order, ["1.00", "0.90", "0.50", "0.40", "0.30", "0.10"], series=SIX_SERIES)
    # Fabio second in C2 (professional): stays; Bruno last: ECC -> PROM
    assert outcome.series_after["Fabio"] == "C2"
    assert outcome.series_after["Bruno"] == "PROM"


def test_second_place_from_the_bottom_at_seven_players():
    seven = (*SIX, "Gino")
    series = {**SIX_SERIES, "Gino": "3CAT"}
    order = ("Anna", "Gino", "Bruno", "Carla", "Dario", "Elena", "Fabio")
    outcome, _ = one(order, ["1.00", "0.90", "0.80", "0.50", "0.40", "0.30", "0.10"], series=series)
    assert set(outcome.series_after) == set(seven)
    assert outcome.series_after["Gino"] == "2CAT"
    assert outcome.series_after["Bruno"] == "ECC"  # third: nothing


def test_relegation_at_the_bottom_of_the_ladder():
    outcome, state = one(FOUR, ["1.00", "0.50", "0.25", "-0.10"], series={"Dario": "3CAT"})
    # Dario stays in 3CAT but still takes the Retrocessione: -0.10-0.1 = -0.20
    assert outcome.series_after["Dario"] == "3CAT"
    assert outcome.titles["Dario"] == ("RETROCESSIONE",)
    assert outcome.league_points["Dario"] == Decimal("-0.20")
    assert state.series["Dario"] == "3CAT"


def test_retrocessione_per_contatore():
    sanctions = (Sanction("Bruno", reason="contatore"), Sanction("Dario", reason="contatore"))
    outcome, _ = one(FOUR, ["1.00", "0.50", "0.25", "-0.10"], sanctions=sanctions)
    # Bruno: UEFA and contatore: 0.50+0.3-0.2 = 0.60, A -> B
    # Dario: last and contatore: -0.10-0.1-0.2 = -0.40, A -> B -> C1
    assert outcome.titles == {
        "Anna": ("SCUDETTO",),
        "Bruno": ("UEFA", "RETROCESSIONE_CONTATORE"),
        "Carla": ("COPPA_ITALIA",),
        "Dario": ("RETROCESSIONE", "RETROCESSIONE_CONTATORE"),
    }
    assert outcome.league_points == dec(
        {"Anna": "2.00", "Bruno": "0.60", "Carla": "0.35", "Dario": "-0.40"}
    )
    assert outcome.series_after == {"Anna": "A", "Bruno": "B", "Carla": "A", "Dario": "C1"}


def test_contatore_on_the_winner_and_at_the_bottom():
    sanctions = (Sanction("Anna", reason="x"), Sanction("Carla", reason="y"))
    outcome, _ = one(
        FOUR, ["1.00", "0.50", "0.25", "-0.10"], series={"Carla": "3CAT"}, sanctions=sanctions
    )
    # Anna: 1 + 1 - 0.2 = 1.80, down to B. Carla third in 3CAT: 0.25-0.2 = 0.05, stays 3CAT
    assert outcome.titles["Anna"] == ("SCUDETTO", "RETROCESSIONE_CONTATORE")
    assert outcome.league_points["Anna"] == Decimal("1.80")
    assert outcome.series_after["Anna"] == "B"
    assert outcome.titles["Carla"] == ("RETROCESSIONE_CONTATORE",)
    assert outcome.league_points["Carla"] == Decimal("0.05")
    assert outcome.series_after["Carla"] == "3CAT"


def test_play_table_directly():
    outcome, scudetto = play_table(RULES, G1, {}, {"Anna": 1})
    assert scudetto == {"Anna"}
    assert outcome.league_points["Anna"] == Decimal("3.50")  # 1 + 1 + 1.5


# --- two tables on one date ----------------------------------------------------------------------
T1 = table("t1", D1, FOUR, ["1.00", "0.50", "0.25", "-0.10"], number=1)
# 3 players: Elena 2.00, Fabio UEFA -0.50+0.3 = -0.20, Gino -0.80-0.1 = -0.90 (down to B)
T2 = table("t2", D1, ("Elena", "Fabio", "Gino"), ["1.00", "-0.50", "-0.80"], number=2)


def test_two_tables_on_one_date():
    roster = [*FOUR, "Elena", "Fabio", "Gino", "Hugo"]
    assert check_giornate([T1, T2]) == []
    result = play_season(RULES, roster, [T1, T2])
    assert len(result.giornate) == 1
    g = result.giornate[0]
    assert g.lowest == Decimal("-0.90")  # over both tables: Gino
    assert g.absences == {"Hugo": Decimal("-0.90")}
    assert result.tables["t2"].league_points == dec(
        {"Elena": "2.00", "Fabio": "-0.20", "Gino": "-0.90"}
    )
    assert result.state.series == {
        "Anna": "A",
        "Bruno": "A",
        "Carla": "A",
        "Dario": "B",
        "Elena": "A",
        "Fabio": "A",
        "Gino": "B",
    }
    assert result.state.streak == {"Anna": 1, "Elena": 1}
    # shared places: equal scores share the place; then more Scudetti, then name
    assert [(place, s.player, s.score) for place, s in result.classifica] == [
        (1, "Anna", Decimal("2.00")),
        (1, "Elena", Decimal("2.00")),
        (3, "Bruno", Decimal("0.80")),
        (4, "Carla", Decimal("0.35")),
        (5, "Dario", Decimal("-0.20")),
        (5, "Fabio", Decimal("-0.20")),
        (7, "Gino", Decimal("-0.90")),
        (7, "Hugo", Decimal("-0.90")),
    ]


def test_a_player_at_two_tables_on_one_date():
    twice = table("t2", D1, ("Elena", "Anna", "Gino"), ["1.00", "0.50", "0.10"], number=2)
    problems = check_giornate([T1, twice])
    assert [(p.code, p.player, p.turno) for p in problems] == [
        ("PLAYER_TWICE_IN_GIORNATA", "Anna", "2026-11-20 #2")
    ]
    same_number = table("t2", D1, ("Elena", "Fabio", "Gino"), ["1.00", "0.50", "0.10"], number=1)
    assert [p.code for p in check_giornate([T1, same_number])] == ["TURNO_DUPLICATE"]
    # the same player on two dates is fine
    other_day = table("t2", D2, ("Elena", "Anna", "Gino"), ["1.00", "0.50", "0.10"])
    assert check_giornate([T1, other_day]) == []


# --- the classifica order ---------------------------------------------------------------
def st(player, score, scudetti=0):
    titles = {"SCUDETTO": scudetti} if scudetti else {}
    return Standing(player, Decimal(score), "A", 1, 0, titles)


def test_rank_classifica_shared_places():
    rows = [st("Dario", "1.00"), st("Bruno", "2.00", 1), st("Zoe", "3.00"), st("Anna", "2.00")]
    ranked = rank_classifica(rows)
    # 3.00 first; the two 2.00 share place 2 (Bruno first: more Scudetti); then place 4
    assert [(place, s.player) for place, s in ranked] == [
        (1, "Zoe"),
        (2, "Bruno"),
        (2, "Anna"),
        (4, "Dario"),
    ]


def test_rank_classifica_scudetti_then_name():
    rows = [
        st("Zoe", "3.00"),
        st("Bruno", "2.00", 1),
        st("Anna", "2.00", 1),
        st("Carla", "2.00", 2),
        st("Dario", "1.00", 5),
        st("Elio", "-1.00"),
    ]
    assert [(place, s.player) for place, s in rank_classifica(rows)] == [
        (1, "Zoe"),
        (2, "Carla"),
        (2, "Anna"),
        (2, "Bruno"),
        (5, "Dario"),
        (6, "Elio"),
    ]


def test_giornate_are_played_in_date_order():
    # the tables given out of order give the same season
    a = play_season(RULES, FOUR, [G3, G1, G2])
    b = play_season(RULES, FOUR, [G1, G2, G3])
    assert a.classifica == b.classifica
    assert a.tables["g3"].league_points["Anna"] == Decimal("6.00")


def test_play_giornate_continues_from_a_state():
    _, _, state = play_giornate(RULES, FOUR, [G1])
    outcomes, giornate, state = play_giornate(RULES, FOUR, [G2], state)
    assert outcomes["g2"].league_points["Anna"] == Decimal("3.50")
    assert state.streak == {"Anna": 2}
    assert giornate[0].date == D2


def test_a_season_played_from_a_state_carries_its_series_and_streaks():
    """``play_season``'s ``start`` (the series carried over from the season before, SPEC §8.2,
    or a checkpoint): G2 played from the state after G1 is G2 of the whole season: Dario starts
    in B, and Anna's second Scudetto in a row wins the Coppa dei Campioni (1 + 1 + 1.5)."""
    _, _, after_g1 = play_giornate(RULES, FOUR, [G1])
    result = play_season(RULES, FOUR, [G2], start=after_g1)
    g2 = result.tables["g2"]
    assert g2.series_before == {"Anna": "A", "Bruno": "A", "Carla": "A", "Dario": "B"}
    assert g2.league_points["Anna"] == Decimal("3.50")
    assert result.state.streak == {"Anna": 2}
    # from the season's own start (everyone in A, no streak) the same table gives Anna 2.00
    assert play_season(RULES, FOUR, [G2]).tables["g2"].league_points["Anna"] == Decimal("2.00")


# -- what the player page reads per season: figures and the league line ------------------------
def test_season_figures_sum_the_closed_turni_and_count_wins_and_podiums():
    first = {"calls": 2, "forced": 1, "scazzate": 0, "cappotti": 1, "games": {"K": [-40, 2]}}
    second = {"calls": 1, "forced": 0, "scazzate": 1, "cappotti": 0, "games": {"K": [20, 1]}}
    third = {"calls": 3, "forced": 0, "scazzate": 0, "cappotti": 0, "games": {"B": [15, 3]}}
    assert season_figures([(1, first), (4, second), (3, third)]) == {
        "calls": 6,
        "forced": 1,
        "scazzate": 1,
        "cappotti": 1,
        "games": {"K": [-20, 3], "B": [15, 3]},
        "wins": 1,
        "podiums": 2,
    }
    # a turno with no figures (a seat filled before a game was played) adds only its place
    total = season_figures()
    add_figures(total, 2, {})
    assert total == {
        "calls": 0,
        "forced": 0,
        "scazzate": 0,
        "cappotti": 0,
        "games": {},
        "wins": 0,
        "podiums": 1,
    }


def test_a_league_line_runs_from_the_first_giornata_the_player_counts_in():
    dates = [D1, D2, D3, D4]
    # joined at the second giornata, absent from the third
    played = {D2: Decimal("2.50"), D4: Decimal("1.25")}
    absent = {D3: Decimal("0.75")}
    assert league_line(dates, played, absent) == (
        1,
        [Decimal("2.50"), Decimal("3.25"), Decimal("4.50")],
    )
    assert league_line(dates, {D1: Decimal("-1")}, {}) == (
        0,
        [Decimal("-1"), Decimal("-1"), Decimal("-1"), Decimal("-1")],
    )
    # never counted: no line at all
    assert league_line(dates, {}, {}) == (4, [])
