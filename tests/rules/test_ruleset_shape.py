"""An edited rule set (SPEC §9) is data a club types: every key is checked at its exact limits,
and a rule set read from a dict and one built in code agree on every default."""

from __future__ import annotations

import copy
from decimal import Decimal

import pytest

from scoring.rules.caf import RuleSet, RuleSetError
from scoring.rules.caf.records import SeasonState
from scoring.rules.caf.ruleset import caf, default_ruleset_dict


def _read(edit) -> RuleSet:
    d = default_ruleset_dict()
    edit(d)
    return RuleSet.from_dict(d)


def _refused(edit) -> str:
    with pytest.raises(RuleSetError) as exc:
        _read(edit)
    return str(exc.value)


def _scazzata(d: dict) -> dict:
    return d["games"]["NJ"]["scazzata"]


@pytest.mark.parametrize("value", [52, -52])
def test_a_scazzata_threshold_reaches_a_whole_deck_and_no_further(value):
    def at(v):
        return lambda d: _scazzata(d).update(at_least=v)

    _read(at(value))
    _read(at({"offset": value}))
    beyond = value + (1 if value > 0 else -1)
    assert _refused(at(beyond)).startswith(
        "games.NJ.scazzata.at_least: deve essere un intero tra -52 e 52"
    )
    assert _refused(at({"offset": beyond})).startswith("games.NJ.scazzata.at_least.offset")


def test_a_hand_fraction_has_at_most_twelve_characters_and_must_be_a_fraction():
    def frac(v):
        return lambda d: _scazzata(d).update(at_least={"offset": 1, "hand_fraction": v})

    _read(frac("10000/200000"))  # 12 characters
    for bad in ("100000/200000", "a/b", "1/0", "3/2", True):
        assert "hand_fraction" in _refused(frac(bad)), bad


def test_card_lists_hold_only_texts():
    assert _refused(lambda d: d["decks"].update({"4": ["2D", 3]})).startswith(
        "decks.4: deve essere un elenco di testi"
    )


def test_a_table_of_two_is_the_smallest_one_has_no_deck():
    rules = _read(lambda d: d["decks"].update({"2": []}))
    assert rules.min_players == 2 and rules.deck(2).hand == 26
    assert _refused(lambda d: d["decks"].update({"1": []})) == (
        "decks.1: un mazzo è per un tavolo da 2 a 7 giocatori"
    )


def test_series_lists_of_the_league_are_checked_when_present():
    message = _refused(lambda d: d["league"].update(scudetto_series="A"))
    assert message == "league.scudetto_series: deve essere un elenco di testi"
    assert _read(lambda d: d["league"].pop("uefa_series")).uefa_series == ("A",)


def test_a_title_value_is_a_number_not_true_or_false():
    def title(v):
        return lambda d: d["league"]["titles"].update(SCUDETTO=v)

    assert _read(title("1.50")).titles["SCUDETTO"] == Decimal("1.50")
    assert _refused(title(True)).startswith("league.titles.SCUDETTO")
    assert _read(title("1.0000000000000000")).titles["SCUDETTO"] == Decimal(1)  # 18 characters
    assert _refused(title("1.000000000000000000")).startswith("league.titles.SCUDETTO")  # 20


def test_a_series_is_professional_unless_it_says_amateur():
    def plain(d):
        for s in d["league"]["series"]:
            s.pop("amateur")

    rules = _read(plain)
    assert [rules.is_amateur(code) for code in rules.series_codes()] == [False] * 9
    assert caf().is_amateur("ECC") and not caf().is_amateur("C2")


def test_series_are_ranked_in_the_order_of_the_list():
    rules = caf()
    assert [rules.series_index(c) for c in ("A", "B", "C1", "3CAT")] == [0, 1, 2, 8]


def test_the_rule_set_built_in_code_has_the_defaults_of_one_read_without_those_keys():
    d = default_ruleset_dict()
    for key in ("auto_promotion_when_no_top", "coppa_campioni_streak", "intercontinentale_streak"):
        d["league"].pop(key, None)
    read = RuleSet.from_dict(d)
    built = RuleSet(code=read.code, name=read.name, decks=read.decks, games=read.games)
    assert (built.auto_promotion_when_no_top, built.coppa_campioni_streak) == (True, 2)
    assert (read.auto_promotion_when_no_top, read.coppa_campioni_streak) == (True, 2)
    assert built.intercontinentale_streak == read.intercontinentale_streak == 3
    # SPEC §7: the ratio rounded down (toward -inf) to two decimals, W < 0 as W / total
    d.pop("ratio")
    read = RuleSet.from_dict(d)
    built = RuleSet(code=read.code, name=read.name, decks=read.decks, games=read.games)
    for rules in (read, built):
        assert (rules.ratio_places, rules.ratio_rounding, rules.ratio_negative_winner) == (
            2,
            "ROUND_FLOOR",
            "inverse",
        )


def test_two_rule_sets_with_the_same_rules_are_equal_whatever_their_source_text():
    d = default_ruleset_dict()
    other = copy.deepcopy(d)
    other.pop("game_order")  # the order then comes from the games' own order: the same here
    assert RuleSet.from_dict(other).raw != RuleSet.from_dict(d).raw
    assert RuleSet.from_dict(other) == RuleSet.from_dict(d)


def test_the_season_state_round_trips_through_its_dict():
    state = SeasonState({"Anna": "A", "Bruno": "B"}, {"Anna": 2})
    assert state.to_dict() == {"series": {"Anna": "A", "Bruno": "B"}, "streak": {"Anna": 2}}
    assert SeasonState.from_dict(state.to_dict()) == state


def test_a_game_name_must_have_visible_text():
    assert _refused(lambda d: d["games"]["NJ"].update(name="   ")) == (
        "games.NJ.name: deve essere un testo di al massimo 60 caratteri"
    )


def test_a_game_code_has_at_most_sixteen_characters():
    def rename(code):
        def edit(d):
            d["games"][code] = d["games"].pop("NJ")
            d["game_order"] = [code if c == "NJ" else c for c in d["game_order"]]

        return edit

    assert "X" * 16 in _read(rename("X" * 16)).games
    assert _refused(rename("X" * 17)) == (
        f"games.{'X' * 17}: il codice di un gioco ha da 1 a 16 caratteri"
    )


def test_a_rule_set_without_decks_is_refused():
    assert _refused(lambda d: d.update(decks={})) == (
        "decks: deve essere un oggetto: numero di giocatori → carte tolte"
    )


@pytest.mark.parametrize(("places", "ok"), [(0, True), (4, True), (5, False), (-1, False)])
def test_the_ratio_has_zero_to_four_decimals(places, ok):
    def edit(d):
        d["ratio"]["places"] = places

    if ok:
        assert _read(edit).ratio_places == places
    else:
        assert _refused(edit) == "ratio.places: deve essere un intero tra 0 e 4"


def test_each_series_has_its_label():
    assert [caf().series_label(c) for c in ("A", "ECC")] == ["Serie A", "Eccellenza"]


def test_a_cards_left_game_without_winner_points_gives_the_winner_zero():
    from scoring.rules.caf.turno import score_smazzata

    def edit(d):
        d["games"]["DOMINO"].pop("winner_points")

    rules = _read(edit)
    players = ["Anna", "Bruno", "Carla", "Dario"]
    result = {"Anna": 0, "Bruno": 3, "Carla": 5, "Dario": 5}
    with_points = score_smazzata(caf(), players, "DOMINO", "Anna", True, result)
    without = score_smazzata(rules, players, "DOMINO", "Anna", True, result)
    assert with_points.points["Anna"] == 7 and without.points["Anna"] == 0
    assert {p: without.points[p] for p in players[1:]} == {
        p: with_points.points[p] for p in players[1:]
    }
