"""C.A.F.'s running check of the counts, declared by its system as data (the King family's
shape, ``count_check``): what the live screen checks while the counts are typed."""

from __future__ import annotations

from scoring.rules.systems import get_system

CAF = get_system("caf")
RULES = CAF.rules(None)


def _checks(seats: int) -> dict[str, tuple[str, int, str]]:
    spec = CAF.count_check(RULES, {"games": list(RULES.games)}, seats)
    assert spec["by"] == "game" and set(spec) == {"by", "checks"}
    return {g: (c["kind"], c["total"], c["unit"]) for g, c in spec["checks"].items()}


def test_four_players_count_the_whole_deck_of_52():
    assert _checks(4) == {
        "NJ": ("sum", 4, "fanti"),
        "NK": ("sum", 4, "re"),
        "NJK": ("sum", 8, "fanti e re"),
        "NQS": ("sum", 1, "donna di picche (1 = presa)"),
        "NH": ("sum", 13, "cuori"),
        "NU2": ("sum", 2, "ultime due mani"),
        "NF": ("sum", 13, "mani"),
        "DOMINO": ("one_zero", 13, "carte in mano"),  # 13 cards a hand, exactly one 0
        "SEMPLICE": ("sum", 13, "mani"),
        "BRISCOLA": ("sum", 13, "mani"),
    }


def test_six_players_play_48_cards_eight_a_hand():
    checks = _checks(6)
    assert checks["NH"] == ("sum", 12, "cuori")  # the deck of 48 keeps 12 hearts
    assert checks["NF"] == checks["SEMPLICE"] == checks["BRISCOLA"] == ("sum", 8, "mani")
    assert checks["DOMINO"] == ("one_zero", 8, "carte in mano")


def test_only_the_games_of_the_step_are_checked():
    spec = CAF.count_check(RULES, {"games": ["NQS", "DOMINO"]}, 5)
    assert spec == {
        "by": "game",
        "checks": {
            "NQS": {"kind": "sum", "total": 1, "unit": "donna di picche (1 = presa)"},
            "DOMINO": {"kind": "one_zero", "total": 10, "unit": "carte in mano"},
        },
    }


def test_a_game_without_counts_declares_no_check():
    ramino = get_system("ramino-101")
    assert ramino.count_check(ramino.rules(None), {"games": []}, 3) is None
