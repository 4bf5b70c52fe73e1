"""Every text the engine marks for translation (``gettext_noop`` in ``scoring/rules/``: labels, deal
lines, notes, messages) has its English in ``locale/en`` with the same values to put in, so that
no engine text stays Italian under English headings (issue 25, defect 6)."""

from __future__ import annotations

import ast
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _marked() -> dict[str, str]:
    """Every string literal passed to gettext_noop in the engine, with where it is."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "scoring/rules").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "gettext_noop"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.setdefault(node.args[0].value, f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def _catalogue() -> dict[str, str]:
    text = (ROOT / "locale/en/LC_MESSAGES/django.po").read_text(encoding="utf-8")
    out = {}
    for comments, msgid, msgstr in re.findall(
        r'((?:#.*\n)*)msgid ((?:".*"\n)+)msgstr ((?:".*"\n)+)', text + "\n"
    ):
        if "fuzzy" in comments:
            continue

        def joined(raw: str) -> str:
            parts = re.findall(r'"(.*)"', raw)
            return "".join(parts).replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\")

        out[joined(msgid)] = joined(msgstr)
    return out


def test_the_engine_marks_its_texts():
    marked = _marked()
    # a sample of each kind: a label, a deal line, a note, a message of every game
    for text in (
        "Punti rimasti in mano",
        "%(player)s chiude: %(close)s",
        "%(declarer)s: %(game)s, valore %(value)s, vinto %(score)s",
        "ne mancano %(gap)s per uscire a %(limit)s",
        "Conteggio: scrivere il conteggio di %(player)s.",
        "%(game)s: manca il seme di briscola",
        "%(label)s: «%(text)s» non è un numero intero.",
    ):
        assert text in marked


def test_every_engine_text_has_its_english_with_the_same_values():
    catalogue = _catalogue()
    missing = [f"{where}: {text}" for text, where in _marked().items() if not catalogue.get(text)]
    assert missing == []
    mismatched = [
        text
        for text in _marked()
        if sorted(PLACEHOLDER.findall(text)) != sorted(PLACEHOLDER.findall(catalogue[text]))
    ]
    assert mismatched == []
