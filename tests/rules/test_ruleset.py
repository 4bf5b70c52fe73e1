"""The C.A.F. rule set as data (SPEC §1, §2, §4, §8.3, §9): every number checked by hand."""

from __future__ import annotations

from decimal import Decimal

import pytest

from scoring.rules.caf.ruleset import RuleSet, RuleSetError, caf, default_ruleset_dict, get_ruleset
from scoring.rules.caf.turno import score_smazzata

RULES = caf()

# SPEC §1: N -> (cards removed, deck size, C, hearts in the deck)
DECKS = {
    3: ({"2D"}, 51, 17, 13),  # 51 / 3 = 17
    4: (set(), 52, 13, 13),  # 52 / 4 = 13
    5: ({"2D", "2C"}, 50, 10, 13),  # 50 / 5 = 10
    6: ({"2D", "2C", "2S", "2H"}, 48, 8, 12),  # 48 / 6 = 8; the 2♥ is gone: 12 hearts
    7: ({"2D", "2C", "2S"}, 49, 7, 13),  # 49 / 7 = 7
}


@pytest.mark.parametrize("n", sorted(DECKS))
def test_deck_table(n):
    removed, size, hand, hearts = DECKS[n]
    deck = RULES.deck(n)
    assert set(deck.removed) == removed
    assert len(deck.cards) == size
    assert len(set(deck.cards)) == size
    assert deck.hand == hand
    assert deck.count_of("tricks") == hand
    assert deck.count_of("cards_left") == hand
    assert deck.count_of("hearts") == hearts
    assert sum(1 for c in deck.cards if c.endswith("H")) == hearts


@pytest.mark.parametrize("n", sorted(DECKS))
def test_jacks_kings_and_queen_of_spades_never_removed(n):
    deck = RULES.deck(n)
    for card in ("JS", "JH", "JD", "JC", "KS", "KH", "KD", "KC", "QS"):
        assert card in deck.cards
    assert deck.count_of("jacks") == 4
    assert deck.count_of("kings") == 4
    assert deck.count_of("jacks_kings") == 8
    assert deck.count_of("queen_spades") == 1
    assert deck.count_of("last_two_tricks") == 2
    # only twos are ever removed
    assert all(card.startswith("2") for card in deck.removed)


def test_player_range():
    assert RULES.min_players == 3
    assert RULES.max_players == 7


@pytest.mark.parametrize(("n", "smazzate"), [(3, 16), (4, 19), (5, 22), (6, 25), (7, 28)])
def test_smazzate_count(n, smazzate):
    # 7 negative games once + 3 positive games once per player: 7 + 3N
    assert RULES.smazzate_count(n) == smazzate


def test_games_in_spec_order_and_phases():
    assert tuple(RULES.games) == (
        "NJ",
        "NK",
        "NJK",
        "NQS",
        "NH",
        "NU2",
        "NF",
        "DOMINO",
        "SEMPLICE",
        "BRISCOLA",
    )
    assert RULES.negative_games == ("NJ", "NK", "NJK", "NQS", "NH", "NU2", "NF")
    assert RULES.positive_games == ("DOMINO", "SEMPLICE", "BRISCOLA")
    assert [g for g, rule in RULES.games.items() if rule.trump] == ["BRISCOLA"]


@pytest.mark.parametrize(
    ("game", "per_unit", "cappotto"),
    [
        ("NJ", -3, None),
        ("NK", -3, None),
        ("NJK", -3, None),
        ("NQS", -8, None),
        ("NH", -2, -15),
        ("NU2", -5, None),
        ("NF", -3, -20),
        ("DOMINO", -2, None),
        ("SEMPLICE", 3, None),
        ("BRISCOLA", 3, None),
    ],
)
def test_base_rates(game, per_unit, cappotto):
    rule = RULES.games[game]
    assert rule.per_unit == per_unit
    assert rule.cappotto == cappotto
    assert rule.winner_points == (7 if game == "DOMINO" else None)


@pytest.mark.parametrize(
    ("code", "value"),
    [
        ("SCUDETTO", "1"),
        ("COPPA_CAMPIONI", "1.5"),
        ("INTERCONTINENTALE", "2.5"),
        ("UEFA", "0.3"),
        ("MITROPA", "0.2"),
        ("COPPA_ITALIA", "0.1"),
        ("RETROCESSIONE", "-0.1"),
        ("RETROCESSIONE_CONTATORE", "-0.2"),
    ],
)
def test_title_values(code, value):
    assert RULES.title_value(code) == Decimal(value)
    assert isinstance(RULES.title_value(code), Decimal)


def test_series_ladder():
    assert RULES.series_codes() == (
        "A",
        "B",
        "C1",
        "C2",
        "ECC",
        "PROM",
        "1CAT",
        "2CAT",
        "3CAT",
    )
    assert [RULES.is_amateur(s) for s in RULES.series_codes()] == [False] * 4 + [True] * 5
    assert RULES.start_series == "A"
    assert RULES.second_promoted_min_players == 6


def test_ratio_defaults():
    assert RULES.ratio_places == 2
    assert RULES.ratio_rounding == "ROUND_FLOOR"


def test_round_trip():
    again = RuleSet.from_dict(RULES.to_dict())
    assert again.to_dict() == RULES.to_dict()
    assert get_ruleset("caf").to_dict() == RULES.to_dict()
    with pytest.raises(RuleSetError):
        get_ruleset("nope")


def test_edited_copy_changes_scoring_not_the_default():
    # SPEC §9: a club that scores Q♠ at -10
    d = default_ruleset_dict()
    d["code"], d["name"] = "mine", "Mine"
    d["games"]["NQS"]["per_unit"] = -10
    mine = RuleSet.from_dict(d)
    players = ["A", "B", "C", "D"]
    result = {"A": 0, "B": 1, "C": 0, "D": 0}
    assert score_smazzata(mine, players, "NQS", "A", False, result).points["B"] == -10
    assert score_smazzata(RULES, players, "NQS", "A", False, result).points["B"] == -8
    assert caf().games["NQS"].per_unit == -8


def test_malformed_rule_set_is_rejected():
    d = default_ruleset_dict()
    d["decks"]["5"] = ["2D"]  # 51 cards do not deal to 5 players
    with pytest.raises(RuleSetError):
        RuleSet.from_dict(d)
    d = default_ruleset_dict()
    del d["league"]["titles"]["UEFA"]
    with pytest.raises(RuleSetError):
        RuleSet.from_dict(d)


def test_game_order_survives_a_store_that_sorts_keys():
    """PostgreSQL's jsonb does not keep key order: the rule set carries it as a list."""
    import json

    from scoring.rules.caf.ruleset import RuleSet, caf

    data = json.loads(json.dumps(caf().to_dict(), sort_keys=True))
    assert next(iter(data["games"])) == "BRISCOLA"  # scrambled, as jsonb would
    assert list(RuleSet.from_dict(data).games) == [
        "NJ", "NK", "NJK", "NQS", "NH", "NU2", "NF", "DOMINO", "SEMPLICE", "BRISCOLA",
    ]  # fmt: skip
