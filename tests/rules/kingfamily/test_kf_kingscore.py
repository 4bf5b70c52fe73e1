"""``manage.py kingscore`` on King family documents: the output of SPEC-king-family §0.7 on
stdout; on invalid input nothing on stdout, one line per problem on stderr, exit status 2."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.core.management import call_command

from .conftest import sample


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str


def kingscore(doc: dict, tmp_path: Path) -> Run:
    """``manage.py kingscore FILE`` in process: exit status, stdout, stderr."""
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("kingscore", str(path), stdout=out, stderr=err)
    except SystemExit as exc:
        return Run(int(exc.code or 0), out.getvalue(), err.getvalue())
    return Run(0, out.getvalue(), err.getvalue())


SMAZZATA_KEYS = {
    "king-classico": {
        "NQ": ["number", "game", "dealer", "chooser", "sale", "points"],
        "DICH": ["number", "game", "dealer", "chooser", "sale", "trump", "blind", "points"],
    },
    "king-internazionale": {
        "NF": ["number", "game", "dealer", "chooser", "sale", "points"],
        "ASTA": ["number", "game", "dealer", "chooser", "sale", "mode", "trump", "points"],
    },
    "le-king": {
        "NF": ["number", "game", "dealer", "chooser", "sale", "points"],
        "RECUP": ["number", "game", "dealer", "chooser", "sale", "trump", "points"],
        "NU2": ["number", "game", "dealer", "chooser", "sale", "last", "points"],
    },
}


@pytest.mark.parametrize("code", ["king-classico", "king-internazionale", "le-king"])
def test_sample_documents_print_the_output_format(code, tmp_path):
    proc = kingscore(sample(code), tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    out = json.loads(proc.stdout)
    assert list(out) == ["format", "ruleset", "turni", "classifica"]
    assert (out["format"], out["ruleset"]) == ("kingclub/v1", code)
    (t,) = out["turni"]
    assert list(t) == [
        "date", "number", "smazzate", "penalties", "balance", "totals", "places", "matchpoints",
    ]  # fmt: skip
    for s in t["smazzate"]:
        if s["game"] in SMAZZATA_KEYS[code]:
            assert list(s) == SMAZZATA_KEYS[code][s["game"]]
    for row in out["classifica"]:
        assert list(row) == ["place", "player", "matchpoints", "points", "turni", "wins"]
    assert proc.stdout == json.dumps(out, ensure_ascii=False, indent=2) + "\n"


def test_le_king_sample_is_the_spec_example(tmp_path):
    out = json.loads(kingscore(sample("le-king"), tmp_path).stdout)
    (t,) = out["turni"]
    # SPEC-king-family §0.7, verbatim
    assert t["smazzate"][3] == {
        "number": 4, "game": "RECUP", "dealer": "Dario", "chooser": "Bruno",
        "sale": {"seller": "Anna", "buyer": "Bruno", "tricks": 3, "transfer": 3},
        "trump": "NT", "points": {"Anna": 6, "Bruno": -1, "Carla": 5, "Dario": 3},
    }  # fmt: skip
    assert {k: t[k] for k in ("date", "number", "penalties", "balance")} == {
        "date": "2026-11-22",
        "number": 1,
        "penalties": {"Anna": 0, "Bruno": 0, "Carla": 0, "Dario": 0},
        "balance": 0,
    }
    assert t["totals"] == {"Anna": 3, "Bruno": -6, "Carla": 0, "Dario": 3}
    assert t["places"] == {"Anna": 1, "Bruno": 4, "Carla": 3, "Dario": 1}
    assert t["matchpoints"] == {"Anna": 5, "Bruno": 0, "Carla": 2, "Dario": 5}
    assert out["classifica"][0] == {
        "place": 1, "player": "Anna", "matchpoints": 5, "points": 3, "turni": 1, "wins": 1,
    }  # fmt: skip


def test_edited_rules_travel_in_the_document(tmp_path):
    doc = sample("king-internazionale")
    doc["rules"] = {"standing": "POINTS", "points": {"NKH": -100}, "negative_base": 265}
    out = json.loads(kingscore(doc, tmp_path).stdout)
    (t,) = out["turni"]
    # Bruno's K♥ costs 60 less; NEGATIVE aste (one: Bruno's, deal 8) pay 60 less each player
    assert t["totals"] == {"Anna": -145, "Bruno": 255, "Carla": -215, "Dario": -75}
    assert [r["player"] for r in out["classifica"]] == ["Bruno", "Dario", "Anna", "Carla"]
    assert out["classifica"][0]["points"] == 255


def test_invalid_document_names_turno_smazzata_player_and_code(tmp_path):
    doc = sample("le-king")
    smazzate = doc["turni"][0]["smazzate"]
    smazzate[3]["sale"]["buyer"] = "Anna"  # the Main buys from himself
    smazzate[0]["result"]["Carla"] = -1
    proc = kingscore(doc, tmp_path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.splitlines() == [
        "turno 2026-11-22 #1, smazzata 1, giocatore Carla: [COUNT_TYPE] Conteggio: quello di "
        "Carla è un numero intero da 0 in su.",
        "turno 2026-11-22 #1, smazzata 4, giocatore Anna: [SALE_BUYER] Vendita: Anna è il "
        "venditore e non compra.",
    ]


def test_bad_rules_are_refused(tmp_path):
    doc = sample("king-classico")
    doc["rules"] = {"games": ["NQ", "P7H"], "colour": "red"}
    proc = kingscore(doc, tmp_path)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr.splitlines() == [
        "[RULES] regolamento, colour: chiave sconosciuta",
        "[RULES] regolamento, points.P7H: P7H è in games ma non ha punti",
    ]
