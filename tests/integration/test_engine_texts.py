"""Issue 25: the engine's texts in the reader's language, and the Ramino live screen's friction.

- every game's deal line (``system.describe``) on the live screen, the Verbale page and the
  scoreboard, in Italian and in English (the engine writes it as a ``Said``: its template marked
  with ``gettext_noop``, translated by the frame, :mod:`scoring.problem_text`);
- a bad Ramino deal told in English under English headings;
- Ramino's points count against a player: no "+" and no gain's colour ("+101 fuori"), no
  "a 101 da 101" note, no input of its own for the closer's two cards.
"""

from __future__ import annotations

import datetime as dt
import html as htmllib
import re

import pytest
from django.urls import reverse

from scoring import api
from scoring.models import Player, Smazzata
from scoring.services.season import season_create
from scoring.services.turni import turno_start
from tests.helpers import bruno_closes, grand_hand

pytestmark = pytest.mark.django_db
NAMES = ["Anna", "Bruno", "Carla", "Dario"]
DAY = dt.date(2026, 11, 20)
MINUS = "\N{MINUS SIGN}"


@pytest.fixture
def members():
    Player.objects.bulk_create(Player(name=n) for n in NAMES)


def _start(code: str, players: list[str], first_dealer: str):
    season = season_create(name=f"Stagione {code}", ruleset_code=code)
    return turno_start(season=season, date=DAY, players=players, first_dealer=first_dealer)


def _text(response) -> str:
    html = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", htmllib.unescape(html))


def _pages(client, turno, lang: str) -> list[str]:
    """The live screen, the Verbale page and the scoreboard of ``turno`` in ``lang``."""
    urls = [
        reverse("scoring:turno_live", args=[turno.pk]),
        reverse("scoring:turno", args=[turno.pk]),
    ]
    return [_text(client.get(url, HTTP_ACCEPT_LANGUAGE=lang)) for url in urls]


# (game, players, first dealer, the first deal, its line in Italian, the same in English)
DEALS = [
    (
        "ramino-101",
        NAMES[:3],
        "Anna",
        {"closer": "Bruno", "close": "NORMALE", "penalties": {"Anna": 34, "Carla": 12}},
        "Bruno chiude: normale",
        "Bruno closes: normal",
    ),
    (
        # preisskat.org's Grand hand with 4, schneider announced, 89: 8 × 24 = 192, −384
        "skat-isko",
        NAMES[:3],
        "Anna",
        grand_hand(),
        f"Bruno: Grand, valore 192, perso {MINUS}384",
        f"Bruno: Grand, value 192, lost {MINUS}384",
    ),
    (
        "king-classico",
        NAMES,
        "Bruno",
        {"game": "DICH", "trump": "S", "result": {"Anna": 4, "Bruno": 1, "Carla": 2, "Dario": 6}},
        "Dichiarazione, briscola ♠ picche, sceglie Bruno",  # the first dealer chooses
        "Declaration, trump ♠ spades, Bruno chooses",
    ),
    (
        # no trump is said as such, not "briscola senza"
        "king-classico",
        NAMES,
        "Bruno",
        {"game": "DICH", "trump": "NT", "result": {"Anna": 4, "Bruno": 1, "Carla": 2, "Dario": 6}},
        "Dichiarazione, senza briscola, sceglie Bruno",
        "Declaration, no trump, Bruno chooses",
    ),
    (
        "king-internazionale",
        NAMES,
        "Dario",
        {"game": "NF", "result": {"Anna": 3, "Bruno": 2, "Carla": 6, "Dario": 2}},
        "Non fare mani",  # the international King deals its negatives in order: nobody chooses
        "No tricks",
    ),
    (
        "le-king",
        NAMES[:3],
        "Bruno",
        {"game": "NF", "result": {"Anna": 8, "Bruno": 4, "Carla": 4}},
        "Non fare mani",
        "No tricks",
    ),
]


@pytest.mark.parametrize(("code", "players", "first", "deal", "italian", "english"), DEALS)
def test_every_games_deal_line_in_italian_and_english(
    segretario_client, members, code, players, first, deal, italian, english
):
    turno = _start(code, players, first)
    api.smazzata_record(turno=turno, record=deal)
    # Skat's Verbale page prints the Spielliste instead of the lines (tested below)
    pages = 1 if code == "skat-isko" else 2
    for page in _pages(segretario_client, turno, "it")[:pages]:
        assert italian in page
    for page in _pages(segretario_client, turno, "en")[:pages]:
        assert english in page
        assert italian not in page


def test_the_scoreboard_says_the_last_deal_in_english(client, segretario_client, members):
    turno = _start("ramino-101", NAMES[:3], "Anna")
    api.smazzata_record(turno=turno, record=DEALS[0][3])
    board = _text(client.get(reverse("scoring:live"), HTTP_ACCEPT_LANGUAGE="en"))
    assert "Bruno closes: normal" in board and "chiude" not in board


def test_the_skat_list_in_english_has_no_italian_engine_words(segretario_client, members):
    code, players, first, deal, _it, _en = DEALS[1]
    turno = _start(code, players, first)
    api.smazzata_record(turno=turno, record=deal)
    api.smazzata_record(turno=turno, record={"passed": True})
    page = _pages(segretario_client, turno, "en")[1]  # the Verbale with its Spielliste
    assert "Grand with 4, hand, schneider ann." in page
    assert "Declarer" in page and "Card points" in page and "lost" in page
    assert "Game points (Spielpunkte)" in page and "List points (Seeger-Fabian)" in page
    assert "+50 per game won (gewonnen)" in page
    for italian in ("Solista", "Punti carta", " con 4", "passato", "perso", "per gioco vinto"):
        assert italian not in page
    page = _pages(segretario_client, turno, "it")[1]
    assert "Grand con 4, mano, schneider ann." in page and "passato" in page


# -- Ramino: a penalty is not a gain ------------------------------------------------------------
@pytest.fixture
def ramino(members):
    turno = _start("ramino-101", NAMES, "Anna")
    # Bruno closes normally (−10); Anna 34, Carla 12, Dario 55 points left in hand
    api.smazzata_record(turno=turno, record=bruno_closes())
    return turno


def test_ramino_penalty_points_print_without_plus_nor_a_gains_colour(segretario_client, ramino):
    for url in ("scoring:turno_live", "scoring:turno"):
        html = segretario_client.get(reverse(url, args=[ramino.pk])).content.decode()
        points = re.findall(r'<span class="pts[^"]*">([^<]*)</span>', html)
        assert points and all(not p.startswith("+") for p in points), points
        assert '<span class="pts">34</span>' in html and '<span class="pts">55</span>' in html
        assert f'<span class="pts">{MINUS}10</span>' in html
        assert 'class="pts pos"' not in html and "+34" not in html and "+55" not in html


def test_ramino_notes_say_the_distance_once_there_are_points(segretario_client, members):
    turno = _start("ramino-101", NAMES, "Anna")
    live = reverse("scoring:turno_live", args=[turno.pk])
    page = _text(segretario_client.get(live))
    assert "a 101 da 101" not in page and "ne mancano" not in page
    api.smazzata_record(turno=turno, record=bruno_closes())
    page = _text(segretario_client.get(live))
    # 101 − 34 = 67, 101 − 12 = 89, 101 − 55 = 46; Bruno at −10 has all of it ahead of him too
    assert "ne mancano 67 per uscire a 101" in page
    assert "ne mancano 89 per uscire a 101" in page and "ne mancano 46 per uscire a 101" in page
    english = _text(segretario_client.get(live, HTTP_ACCEPT_LANGUAGE="en"))
    assert "67 to go before 101 puts them out" in english and "ne mancano" not in english


def _post(client, turno, data, lang="it"):
    return client.post(
        reverse("scoring:turno_smazzata", args=[turno.pk]),
        {"numero": "2", **data},
        HTTP_ACCEPT_LANGUAGE=lang,
    )


def test_ramino_closer_types_his_two_cards_in_his_own_input(segretario_client, ramino):
    html = segretario_client.get(reverse("scoring:turno_live", args=[ramino.pk])).content.decode()
    assert 'name="closer_points"' not in html and "Due carte: i loro punti" not in html
    # Carla closes with two cards worth 4 (seat 2); a number for her with a normal close is
    # pointed out beside the field, in the reader's language, and nothing is stored
    hand = {"closer": "Carla", "penalties-0": "20", "penalties-1": "7", "penalties-3": "9"}
    wrong = {**hand, "close": "NORMALE", "penalties-2": "4"}
    for lang, message in (
        ("it", "Punti rimasti in mano: chi chiude scrive dei punti solo se chiude con due carte"),
        ("en", "Points left in hand: whoever closes enters points only when closing with two"),
    ):
        response = _post(segretario_client, ramino, wrong, lang)
        assert response.status_code == 422 and message in _text(response)
    missing = _post(segretario_client, ramino, {**hand, "close": "DUE_CARTE"}, "en")
    assert missing.status_code == 422
    assert "whoever closes with two cards enters their points (2 to 5)" in _text(missing)
    assert Smazzata.objects.filter(turno=ramino).count() == 1
    done = _post(segretario_client, ramino, {**hand, "close": "DUE_CARTE", "penalties-2": "4"})
    assert done.status_code == 302
    stored = Smazzata.objects.get(turno=ramino, number=2)
    totals = {r.player.name: r.points for r in stored.results.all()}
    # Carla +4 (her two cards), Anna +20, Bruno +7, Dario +9
    assert totals == {"Anna": 20, "Bruno": 7, "Carla": 4, "Dario": 9}
    # corrected from the screen, her input holds the two cards again
    form = segretario_client.get(
        reverse("scoring:turno_live", args=[ramino.pk]) + "?correggi=2"
    ).content.decode()
    assert 'name="penalties-2" value="4"' in form


def test_a_bad_ramino_deal_in_english_under_english_headings(segretario_client, ramino):
    bad = {"closer": "Carla", "close": "NORMALE", "penalties-0": "200", "penalties-1": "7"}
    response = _post(segretario_client, ramino, bad, "en")
    assert response.status_code == 422
    text = _text(response)
    assert "Points left in hand: 200 for Anna, but ten cards are worth 0 to 104." in text
    assert "Points left in hand: enter the points of Dario." in text
    assert "dieci carte" not in text and "scrivere i punti" not in text


# -- every game's bad deal in English under English headings -----------------------------------
BAD = [
    (
        "skat-isko",
        NAMES[:3],
        {
            "declarer": "Bruno",
            "game": "GRAND",
            "bid": "19",
            "with": "1",
            "matadors": "2",
            "declarer_points": "70",
            "declarer_tricks": "6",
            "schneider_announced": "1",
        },
        [
            "Bid: 19 is not a valid bid (18, 20, 22, 23, 24, 27 … 264).",
            "Hand (without the skat): Schneider announced only without taking up the skat.",
        ],
        [
            "Dichiarazione (licitazione): 19 non è una dichiarazione valida (18, 20, 22, 23, 24, "
            "27 … 264).",
            "Mano (senza skat): Schneider annunciato solo senza prendere lo skat.",
        ],
    ),
    (
        "king-classico",
        NAMES,
        {"game": "NF", "result-0": "5", "result-1": "5", "result-2": "1", "result-3": "x"},
        ["Count of Dario: “x” is not a whole number."],
        ["Conteggio di Dario: «x» non è un numero intero."],
    ),
    (
        "king-internazionale",
        NAMES,
        {"game": "NF", "result-0": "5", "result-1": "5", "result-2": "1", "result-3": "1"},
        ["Count: in No tricks the counts add up to 12, they must add up to 13."],
        ["Conteggio: in Non fare mani i conteggi fanno 12, devono fare 13."],
    ),
]


@pytest.mark.parametrize(("code", "players", "data", "english", "italian"), BAD)
def test_a_bad_deal_in_english_and_italian(
    segretario_client, members, code, players, data, english, italian
):
    turno = _start(code, players, players[0])
    url = reverse("scoring:turno_smazzata", args=[turno.pk])
    for lang, messages in (("en", english), ("it", italian)):
        response = segretario_client.post(url, {"numero": "1", **data}, HTTP_ACCEPT_LANGUAGE=lang)
        assert response.status_code == 422
        text = _text(response)
        for message in messages:
            assert message in text
    assert not Smazzata.objects.filter(turno=turno).exists()


# -- C.A.F.: the engine's messages under English headings too ------------------------------------
def test_caf_impossible_counts_in_english_and_italian(segretario_client, members):
    season = season_create(name="2026-27")
    turno = turno_start(season=season, date=DAY, players=NAMES, first_dealer="Anna")
    url = reverse("scoring:turno_smazzata", args=[turno.pk])
    data = {"number": 1, "caller": "Bruno", "game": "NJ", "count_0": 1, "count_1": 1}
    data |= {"count_2": 5, "count_3": 0}
    english = _text(segretario_client.post(url, data, HTTP_ACCEPT_LANGUAGE="en"))
    assert "Non fare J: Carla has 5 jacks, but the most is 4" in english
    assert " ha 5 fanti" not in english
    italian = _text(segretario_client.post(url, data, HTTP_ACCEPT_LANGUAGE="it"))
    assert "Non fare J: Carla ha 5 fanti, ma il massimo è 4" in italian
    data |= {"count_2": 1}  # 1 + 1 + 1 + 0 = 3 jacks of 4
    english = _text(segretario_client.post(url, data, HTTP_ACCEPT_LANGUAGE="en"))
    assert "Non fare J: the results add up to 3, but they must be 4 (jacks in a deck of" in english
    missing = _text(segretario_client.post(url, {**data, "count_2": ""}, HTTP_ACCEPT_LANGUAGE="en"))
    assert "the result of Carla is missing" in missing
    assert not Smazzata.objects.filter(turno=turno).exists()


def test_ramino_verbale_document_and_workbook_print_penalties_plainly(ramino):
    import io

    from django.template.loader import render_to_string
    from openpyxl import load_workbook

    from scoring.exports.games import verbale_xlsx
    from scoring.selectors_games import verbale_rows

    v = verbale_rows(ramino)
    assert v.penalty_points is True
    context = {"v": v, "date_long": "", "generated": "", "draft_mark": "", "landscape": False}
    html = render_to_string("scoring/documents/game_verbale.html", context)
    assert '<td class="points">34</td>' in html and '<td class="points">55</td>' in html
    assert "+34" not in html and "+55" not in html and "+12" not in html
    sheet = load_workbook(io.BytesIO(verbale_xlsx(v)))["Verbale"]
    cells = [c for row in sheet.iter_rows() for c in row if c.value in (34, 55)]
    # no "+" (a penalty is no gain); a true minus sign U+2212 if one were negative
    assert cells and {c.number_format for c in cells} == {'0;"−"0'}


@pytest.mark.parametrize(
    ("code", "edits", "english", "italian"),
    [
        (
            "ramino-101",
            {"colour": 1, "elimination": 0},
            [
                "rules, colour: unknown key",
                "rules, elimination: must be a whole number between 1 and 10000",
            ],
            [
                "regolamento, colour: chiave sconosciuta",
                "regolamento, elimination: deve essere un intero tra 1 e 10000",
            ],
        ),
        (
            "king-classico",
            {"colour": 1, "standing": "X"},
            ["rules, colour: unknown key", "rules, standing: must be one of "],
            [
                "regolamento, colour: chiave sconosciuta",
                "regolamento, standing: deve essere uno di ",
            ],
        ),
    ],
)
def test_a_bad_rule_table_in_english_and_italian(code, edits, english, italian):
    from django.utils import translation

    from scoring.problem_text import localized
    from scoring.rules import RuleViolation
    from scoring.rules.systems import get_system

    with pytest.raises(RuleViolation) as exc:
        get_system(code).rules(edits)
    for lang, expected in (("en", english), ("it", italian)):
        with translation.override(lang):
            messages = [localized(p).message for p in exc.value.problems]
        assert len(messages) == len(expected)
        for message, start in zip(messages, expected, strict=True):
            assert message.startswith(start), message


def _caf_table(edit) -> dict:
    from scoring.rules.caf.ruleset import default_ruleset_dict

    table = default_ruleset_dict()
    edit(table)
    return table


@pytest.mark.parametrize(
    ("edit", "english", "italian"),
    [
        (
            lambda t: t["games"]["NJ"].update(per_unit=900),
            "rules, games.NJ.per_unit: must be a whole number between -500 and 500",
            "regolamento, games.NJ.per_unit: deve essere un intero tra -500 e 500",
        ),
        (
            lambda t: t.update(calendar={"one_turno_a_day": False}),
            "rules, calendar.one_turno_a_day: in this game it is always true",
            "regolamento, calendar.one_turno_a_day: in questo gioco vale sempre true",
        ),
        (
            lambda t: t["decks"].update({"4": ["2D"]}),
            "rules, decks.4: 51 cards do not deal evenly to 4 players",
            "regolamento, decks.4: 51 carte non si distribuiscono in parti uguali a 4 giocatori",
        ),
        (
            lambda t: t["games"]["NJ"]["scazzata"].update(fixed=-5),
            "rules, games.NJ.scazzata: needs exactly one of per_unit and fixed",
            "regolamento, games.NJ.scazzata: serve uno solo fra per_unit e fixed",
        ),
        (lambda t: t.pop("code"), "rules, code: is missing", "regolamento, code: manca"),
    ],
)
def test_a_bad_caf_rule_table_in_english_and_italian(edit, english, italian):
    """C.A.F.'s table says its first bad key as the other games do, in the reader's language."""
    from django.utils import translation

    from scoring.problem_text import localized
    from scoring.rules import RuleViolation
    from scoring.rules.systems import get_system

    with pytest.raises(RuleViolation) as exc:
        get_system("caf").rules(_caf_table(edit))
    (problem,) = exc.value.problems
    assert (problem.code, problem.field) == ("RULES", "rules")
    for lang, expected in (("en", english), ("it", italian)):
        with translation.override(lang):
            assert localized(problem).message == expected


# -- the services' refusals in the reader's language (scoring/services, scoring/api) -------------
def _refusal(exc, lang: str) -> list[str]:
    """A refusal's messages as the frame says them in ``lang`` (:mod:`scoring.problem_text`)."""
    from django.utils import translation

    from scoring.problem_text import localized

    with translation.override(lang):
        return [localized(p).message for p in exc.value.problems]


def test_the_undo_of_an_empty_turno_on_the_english_live_screen(segretario_client, members):
    turno = _start("ramino-101", NAMES[:3], "Anna")
    undo = reverse("scoring:turno_undo", args=[turno.pk])
    for lang, message in (
        ("en", "there is no smazzata to undo"),
        ("it", "non ci sono smazzate da annullare"),
    ):
        response = segretario_client.post(undo, {}, HTTP_ACCEPT_LANGUAGE=lang)
        assert response.status_code == 422 and message in _text(response)
    for _ in range(2):  # Bruno closes twice: Anna 68, Carla 24
        api.smazzata_record(turno=turno, record=DEALS[0][3])
    # deal 1 meant, deal 2 is the last: refused, with both numbers put in again in English
    response = segretario_client.post(undo, {"number": "1"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 422
    text = _text(response)
    assert "only the last smazzata (2) can be undone, not smazzata 1" in text
    assert "annullare" not in text
    assert Smazzata.objects.filter(turno=turno).count() == 2


def test_a_penalita_in_a_game_without_them_is_refused_in_english(members):
    from scoring.rules import RuleViolation

    turno = _start("ramino-101", NAMES[:3], "Anna")
    with pytest.raises(RuleViolation) as exc:
        api.penalita_add(turno=turno, player="Anna", points=5, article="7")
    assert exc.value.problems[0].code == "PENALITA_NOT_IN_GAME"
    assert _refusal(exc, "en") == ["Ramino 101 has no penalità"]
    assert _refusal(exc, "it") == ["Ramino 101 non prevede penalità"]


def test_a_verbale_confirmed_twice_is_refused_in_english(members):
    from scoring.rules import RuleViolation
    from scoring.services.confirmations import verbale_confirm, verbale_contest

    turno = _start("ramino-101", NAMES, "Anna")
    api.smazzata_record(turno=turno, record=bruno_closes())
    api.smazzata_record(turno=turno, record={"closer": "Anna", "close": "SCALA_REALE"})
    api.turno_close(turno=turno, tiebreak=["Carla", "Bruno", "Dario"])
    anna = Player.objects.get(name="Anna")
    verbale_confirm(turno=turno, player=anna)
    with pytest.raises(RuleViolation) as exc:
        verbale_confirm(turno=turno, player=anna)
    assert _refusal(exc, "en") == ["Anna has already confirmed this Verbale"]
    assert _refusal(exc, "it") == ["Anna ha già confermato questo verbale"]
    with pytest.raises(RuleViolation) as exc:
        verbale_contest(turno=turno, player=anna, comment="  ")
    assert _refusal(exc, "en") == ["contesting the Verbale needs a comment saying what is wrong"]


def test_the_series_of_a_game_without_a_ladder_are_refused_in_english(members):
    from django.utils import timezone

    from scoring.models import Season
    from scoring.rules import RuleViolation
    from scoring.services.seasons_close import season_new

    with pytest.raises(RuleViolation) as exc:
        season_create(name=" ", ruleset_code="ramino-101")
    assert _refusal(exc, "en") == ["the season name is required"]
    assert _refusal(exc, "it") == ["il nome della stagione è obbligatorio"]
    source = season_create(name="Ramino 2025", ruleset_code="ramino-101")
    with pytest.raises(RuleViolation) as exc:
        season_new(name="Ramino 2026", ruleset_code="ramino-101", series_origin="boh")
    assert _refusal(exc, "en") == [
        "choose whether to carry over the series of the previous season or to start again from A"
    ]
    kw = {"name": "Ramino 2026", "ruleset_code": "ramino-101", "series_origin": "carried"}
    with pytest.raises(RuleViolation) as exc:
        season_new(**kw, source=source)
    assert _refusal(exc, "en") == [
        "season Ramino 2025 is not closed: only the final series of a closed season are "
        "carried over"
    ]
    Season.objects.filter(pk=source.pk).update(closed_at=timezone.now())
    with pytest.raises(RuleViolation) as exc:
        season_new(**kw, source=source)
    (problem,) = exc.value.problems
    assert (problem.code, problem.field) == ("SERIES_NOT_IN_GAME", "series_origin")
    assert _refusal(exc, "en") == [
        "only King C.A.F. has the series ladder: for this game choose “start from zero”"
    ]
    assert _refusal(exc, "it") == [
        "solo il King C.A.F. ha la scala delle serie: per questo gioco scegliere "
        "«ripartire da zero»"
    ]


def test_a_bad_backup_is_refused_in_english(members):
    from scoring.rules import RuleViolation
    from scoring.services.backup import BACKUP_FORMAT, backup_restore

    with pytest.raises(RuleViolation) as exc:
        backup_restore(data={"format": "kingclub/v0"})
    assert _refusal(exc, "en") == ["not a kingclub/v2-backup backup"]
    assert _refusal(exc, "it") == ["non è un backup kingclub/v2-backup"]
    with pytest.raises(RuleViolation) as exc:
        joined = "2026-11-20T21:00:00+01:00"
        backup_restore(
            data={"format": BACKUP_FORMAT, "users": [{"username": 5, "date_joined": joined}]}
        )
    assert _refusal(exc, "en") == [
        "users[0].username: must be a text, not 5",
        "tables: must be an object",
    ]
    assert _refusal(exc, "it") == [
        "users[0].username: deve essere un testo, non 5",
        "tables: deve essere un oggetto",
    ]
