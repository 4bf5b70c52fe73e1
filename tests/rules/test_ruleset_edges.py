"""Edited rule sets at their boundaries (SPEC §9): keys left out take the C.A.F. defaults, the
smallest legal deck, and a turno scored with a valid Retrocessione per contatore."""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from decimal import Decimal

import pytest

from scoring.rules.caf import (
    RuleSet,
    RuleSetError,
    Sanction,
    TableResult,
    play_giornate,
    score_turno,
)
from scoring.rules.caf.ruleset import RANKS, SUITS, caf, default_ruleset_dict
from scoring.rules.caf.simulator import simulate_turno
from scoring.rules.caf.turno import ratios

D1 = dt.date(2026, 11, 20)
SIX = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio")


def _edited(edit) -> RuleSet:
    d = default_ruleset_dict()
    edit(d)
    return RuleSet.from_dict(d)


def _one(rules, order, ratio_values, series=None, sanctions=()):
    table = TableResult(
        key="t",
        date=D1,
        number=1,
        order=tuple(order),
        ratios={p: Decimal(r) for p, r in zip(order, ratio_values, strict=True)},
        sanctions=tuple(sanctions),
    )
    from scoring.rules.caf import SeasonState

    outcomes, _, state = play_giornate(rules, order, [table], SeasonState(dict(series or {})))
    return outcomes["t"], state


def test_a_rule_set_without_rounding_or_places_rounds_down_to_two_decimals():
    rules = _edited(lambda d: [d["ratio"].pop("rounding"), d["ratio"].pop("places")])
    assert (rules.ratio_rounding, rules.ratio_places) == ("ROUND_FLOOR", 2)
    # SPEC §7: 25/40 = 0.625 -> 0.62, -17/40 = -0.425 -> -0.43
    assert ratios(rules, {"A": 40, "B": 25, "C": -17}) == {
        "A": Decimal("1.00"),
        "B": Decimal("0.62"),
        "C": Decimal("-0.43"),
    }
    half_up = _edited(lambda d: d["ratio"].update(rounding="ROUND_HALF_UP", places=1))
    assert ratios(half_up, {"A": 40, "B": 25, "C": -17}) == {
        "A": Decimal("1.0"),
        "B": Decimal("0.6"),
        "C": Decimal("-0.4"),
    }


def test_a_rule_set_without_a_start_series_starts_at_the_top_of_its_ladder():
    rules = _edited(lambda d: d["league"].pop("start_series"))
    assert rules.start_series == "A"

    def ladder(d):
        d["league"].pop("start_series")
        d["league"]["series"] = [s for s in d["league"]["series"] if s["code"] != "A"]
        d["league"]["scudetto_series"] = ["B"]
        d["league"]["uefa_series"] = ["B"]
        d["league"]["mitropa_from"] = "C1"

    short = _edited(ladder)
    assert short.start_series == "B"
    outcome, _ = _one(short, ("Anna", "Bruno", "Carla", "Dario"), ["1.00", "0.50", "0.20", "0"])
    # everyone starts in B, the top of this ladder: a Scudetto, no automatic promotion
    assert outcome.series_before == dict.fromkeys(("Anna", "Bruno", "Carla", "Dario"), "B")
    assert outcome.series_after == {"Anna": "B", "Bruno": "B", "Carla": "B", "Dario": "C1"}
    assert outcome.titles["Anna"] == ("SCUDETTO",)
    assert outcome.titles["Bruno"] == ("UEFA",)


AMATEUR = {"Anna": "A", "Bruno": "ECC", "Carla": "PROM", "Dario": "B", "Elena": "1CAT"}


@pytest.mark.parametrize(
    ("edit", "players", "bruno_after"),
    [
        (lambda d: d["league"].pop("second_promoted_min_players"), 6, "C2"),  # default 6
        (lambda d: d["league"].pop("second_promoted_min_players"), 5, "ECC"),
        (lambda d: d["league"].update(second_promoted_min_players=5), 5, "C2"),  # boundary
        (lambda d: d["league"].update(second_promoted_min_players=5), 4, "ECC"),
    ],
)
def test_second_promoted_minimum_at_its_boundary(edit, players, bruno_after):
    rules = _edited(edit)
    order = SIX[:players]
    series = {**AMATEUR, "Fabio": "C2"}
    outcome, _ = _one(
        rules, order, ["1.00", "0.90", "0.50", "0.40", "0.30", "0.10"][:players], series
    )
    assert outcome.series_after["Bruno"] == bruno_after
    assert outcome.league_points["Bruno"] == Decimal("0.90")  # a promotion wins no title


def _deck_leaving(n_cards: int) -> list[str]:
    """The removed cards of a deck that keeps only the ``n_cards`` highest cards."""
    keep = [r + s for r in RANKS for s in SUITS][:n_cards]
    return [r + s for s in SUITS for r in RANKS if r + s not in keep]


def test_a_one_card_hand_is_refused_and_two_cards_is_the_smallest_deck():
    with pytest.raises(RuleSetError, match=r"decks\.4: il mazzo è troppo piccolo"):
        _edited(lambda d: d["decks"].update({"4": _deck_leaving(4)}))
    rules = _edited(lambda d: d["decks"].update({"4": _deck_leaving(8)}))
    assert rules.deck(4).hand == 2
    assert rules.deck(4).count_of("tricks") == 2
    assert rules.smazzate_count(4) == 19


def test_a_deck_without_a_card_left_is_too_small():
    # every card of the 52 listed as removed: the names are all good cards, the deck is empty
    with pytest.raises(RuleSetError, match=r"^decks\.4: il mazzo è troppo piccolo"):
        _edited(lambda d: d["decks"].update({"4": _deck_leaving(0)}))


def test_a_ladder_without_series_is_refused_on_its_key():
    # SPEC §8.2: the ladder is data (§9), but a season needs at least one series to start in
    with pytest.raises(RuleSetError) as exc:
        _edited(lambda d: d["league"].update({"series": []}))
    assert str(exc.value) == "league.series: deve essere un elenco non vuoto"


def test_a_scazzata_without_a_threshold_is_refused_on_its_key():
    # SPEC §5: a scazzata is reached from a threshold; a rule with a rate and no threshold
    # says which key misses one
    with pytest.raises(RuleSetError) as exc:
        _edited(lambda d: d["games"]["NJ"].update({"scazzata": {"per_unit": -4}}))
    assert str(exc.value) == "games.NJ.scazzata: serve at_least o at_most"
    # the season form shows it under its label: "regolamento, games.NJ.scazzata: ..."
    assert exc.value.problem().message == (
        "regolamento, games.NJ.scazzata: serve at_least o at_most"
    )


def test_a_turno_with_a_valid_contatore_sanction_scores_and_relegates():
    players = ["Anna", "Bruno", "Carla", "Dario"]
    record = simulate_turno(caf(), players, random.Random(3), first_dealer="Anna")
    sanctioned = dataclasses.replace(
        record, sanctions=(Sanction("Bruno", reason="contatore manomesso"),)
    )
    score = score_turno(caf(), sanctioned)
    assert score.ok and score.problems == ()
    # the sanction changes no point of the turno: same totals, places and ratios
    plain = score_turno(caf(), record)
    assert (score.totals, score.places, score.ratios) == (plain.totals, plain.places, plain.ratios)
    order = score.order()
    outcome, state = _one(
        caf(), order, [score.ratios[p] for p in order], sanctions=sanctioned.sanctions
    )
    assert "RETROCESSIONE_CONTATORE" in outcome.titles["Bruno"]
    place = order.index("Bruno") + 1
    expected_series = {1: "B", 2: "B", 3: "B", 4: "C1"}[place]  # the last also goes down once
    assert outcome.series_after["Bruno"] == expected_series == state.series["Bruno"]
    malus = Decimal("-0.2") + (Decimal("-0.1") if place == 4 else 0)
    bonus = {1: Decimal(1), 2: Decimal("0.3"), 3: Decimal("0.1"), 4: 0}[place]
    assert outcome.league_points["Bruno"] == score.ratios["Bruno"] + malus + bonus
    # a sanction for a player not at the table, or without a reason, is refused
    bad = dataclasses.replace(
        record, sanctions=(Sanction("Zeno", reason="x"), Sanction("Anna", reason=" "))
    )
    codes = [p.code for p in score_turno(caf(), bad).problems]
    assert codes == ["SANCTION_PLAYER", "SANCTION_REASON"]


def test_a_ladder_of_one_series_needs_no_start_series_nor_mitropa_from():
    """SPEC §9: a key left out takes its default: the start series is the first of the ladder,
    the Mitropa Cup's the second (B, as C.A.F. plays it), the only one when there is one. A club
    that plays a single series writes only that series; it used to be refused for not naming a
    Mitropa series it cannot have ("league.mitropa_from: deve essere una serie dell'elenco")."""

    def single(d):
        for key in ("start_series", "mitropa_from"):
            d["league"].pop(key)
        d["league"]["series"] = [s for s in d["league"]["series"] if s["code"] == "A"]

    rules = _edited(single)
    assert (rules.start_series, rules.mitropa_from) == ("A", "A")
    assert [s.code for s in rules.series] == ["A"]
    outcome, _ = _one(rules, ("Anna", "Bruno", "Carla", "Dario"), ["1.00", "0.50", "0.20", "0"])
    # everyone starts and stays in A: nowhere to go down to
    assert (
        outcome.series_before
        == outcome.series_after
        == dict.fromkeys(("Anna", "Bruno", "Carla", "Dario"), "A")
    )


def test_the_mitropa_series_left_out_is_the_second_of_the_ladder():
    """Without ``mitropa_from`` the Mitropa Cup is won from the ladder's second series: B in
    C.A.F.'s (SPEC §7), C1 in a ladder that starts at B."""
    assert _edited(lambda d: d["league"].pop("mitropa_from")).mitropa_from == "B"

    def from_b(d):
        d["league"]["series"] = [s for s in d["league"]["series"] if s["code"] != "A"]
        d["league"].update(start_series="B", scudetto_series=["B"], uefa_series=["B"])
        d["league"].pop("mitropa_from")

    assert _edited(from_b).mitropa_from == "C1"

    def two(d):
        d["league"]["series"] = d["league"]["series"][:2]
        d["league"].pop("mitropa_from")

    assert [s.code for s in _edited(two).series] == ["A", "B"]
    assert _edited(two).mitropa_from == "B"


def test_a_cappotto_given_to_a_one_card_game_is_taking_that_card():
    """SPEC §6, §9: the cappotto is data: one player taking every unit of the game's count. A
    club that gives the Donna di picche (one card) a cappotto of -8 has the taker score 0 and
    every other player -8, whoever called; the standard rules have none (-8 to the taker)."""
    from scoring.rules.caf.turno import score_smazzata

    players = ("Anna", "Bruno", "Carla", "Dario")
    result = {"Anna": 0, "Bruno": 1, "Carla": 0, "Dario": 0}
    rules = _edited(lambda d: d["games"]["NQS"].update(cappotto=-8))
    got = score_smazzata(rules, players, "NQS", "Anna", False, result)
    assert (got.cappotto, got.points) == (
        "Bruno",
        {"Anna": -8, "Bruno": 0, "Carla": -8, "Dario": -8},
    )
    standard = score_smazzata(caf(), players, "NQS", "Anna", False, result)
    assert (standard.cappotto, standard.points["Bruno"]) == (None, -8)
