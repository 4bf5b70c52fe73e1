"""Places from one sort (issue 26 item 5): the same places as counting the better players, in
O(n log n) comparisons instead of O(n²) for every game's Classifica and table places."""

from __future__ import annotations

import functools
import random

from scoring.rules.kingfamily.turno import places as king_places
from scoring.rules.ramino.document import standing as ramino_standing
from scoring.rules.ranking import competition_places
from scoring.rules.skat.season import standing as skat_standing


def test_ties_share_the_place_and_the_next_is_skipped() -> None:
    assert competition_places({"Anna": 10, "Bruno": 7, "Carla": 10, "Dario": 3, "Elena": 7}) == {
        "Anna": 1,
        "Carla": 1,
        "Bruno": 3,
        "Elena": 3,
        "Dario": 5,
    }
    assert competition_places({}) == {}
    assert competition_places({"a": (2, 1, -3), "b": (2, 1, -3), "c": (2, 2, 0)}) == {
        "c": 1,
        "a": 2,
        "b": 2,
    }


def test_the_places_are_one_plus_the_players_strictly_better() -> None:
    rng = random.Random(26)
    for _ in range(200):
        keys = {f"p{i}": rng.randint(-3, 3) for i in range(rng.randint(1, 12))}
        expected = {p: 1 + sum(q > k for q in keys.values()) for p, k in keys.items()}
        assert competition_places(keys) == expected


@functools.total_ordering
class Counted:
    """A total that counts how often it is compared."""

    compared = 0

    def __init__(self, value: int) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        Counted.compared += 1
        return isinstance(other, Counted) and self.value == other.value

    def __lt__(self, other: Counted) -> bool:
        Counted.compared += 1
        return self.value < other.value

    def __hash__(self) -> int:
        return hash(self.value)


def test_a_long_roster_is_placed_with_n_log_n_comparisons() -> None:
    n = 3000
    totals = {f"socio {i:05d}": Counted(i % 97) for i in range(n)}
    Counted.compared = 0
    placed = king_places(totals)
    assert placed["socio 00096"] == 1 and placed["socio 00000"] == 2970  # 31 totals of 0
    # counting the better ones for each player compares n² = 9,000,000 times
    assert Counted.compared < 30 * n


def test_skat_and_ramino_place_every_member_of_a_long_roster() -> None:
    roster = [f"socio {i:05d}" for i in range(5000)]
    skat = skat_standing(
        roster,
        [{"totals": {"socio 00042": 18}, "won": {"socio 00042": 1}, "lost": {"socio 00042": 0}}],
    )
    assert [(r["place"], r["player"]) for r in skat[:2]] == [(1, "socio 00042"), (2, "socio 00000")]
    assert {r["place"] for r in skat[1:]} == {2}
    ramino = ramino_standing(
        roster,
        [
            {
                "places": {"socio 00007": 1, "socio 00008": 2},
                "league_points": {"socio 00007": 3, "socio 00008": 1},
            }
        ],
    )
    assert [(r["place"], r["player"]) for r in ramino[:3]] == [
        (1, "socio 00007"),
        (2, "socio 00008"),
        (3, "socio 00000"),
    ]
    assert len(ramino) == 5000 and ramino[-1]["place"] == 3
