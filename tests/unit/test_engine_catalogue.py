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


# -- the services' refusals (issue 24/25: every refusal said in the reader's language) -----------
# the calls that build a refusal outside the engine, and where their message is: fail(code, msg),
# Problem(code, msg), Problem.said(code, template), problems.add(code, msg), _wrong(template)...
REFUSALS = {
    "fail": 1,
    "_fail": 1,
    "_problem": 1,
    "_said": 1,
    "turno_problem": 1,
    "Problem": 1,
    "Problem.said": 1,
    "problems.add": 1,
    "_wrong": 0,
}
MARKS = ("gettext_noop", "_", "gettext")


def _callee(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return f"{func.value.id}.{func.attr}"
    return ""


def _marked_text(node: ast.AST) -> str | None:
    """The literal of ``gettext_noop("...")`` (or ``_``/``gettext``), else None."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in MARKS
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return node.args[0].value
    return None


def _check(
    node: ast.AST,
    where: str,
    names: tuple[dict[str, list[ast.AST]], set[str]],
    found: dict[str, str],
    wrong: list[str],
) -> None:
    """A refusal's message: a marked text (kept in ``found``), a name given one (module
    constant or local), a helper's parameter, or else ``wrong``."""
    assigned, forwarded = names
    if isinstance(node, ast.IfExp):
        _check(node.body, where, names, found, wrong)
        _check(node.orelse, where, names, found, wrong)
    elif (text := _marked_text(node)) is not None:
        found.setdefault(text, where)
    elif isinstance(node, ast.Name) and node.id in assigned:
        for value in assigned[node.id]:
            _check(value, where, names, found, wrong)
    elif not (isinstance(node, ast.Name) and node.id in forwarded):
        wrong.append(f"{where}: {ast.unparse(node)[:80]}")


def _refusals() -> tuple[dict[str, str], list[str]]:
    """Every message a refusal is built with in ``scoring/`` outside the engine and the
    migrations (the marked text, with where it is), and every one that cannot be translated:
    an f-string, a joined or plain unmarked text (``makemessages`` would not keep it)."""
    found: dict[str, str] = {}
    wrong: list[str] = []
    for path in sorted((ROOT / "scoring").rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[1] in ("rules", "migrations"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assigned: dict[str, list[ast.AST]] = {}
        forwarded: set[str] = set()  # a helper's parameter: its callers are checked
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        assigned.setdefault(target.id, []).append(node.value)
            elif isinstance(node, ast.FunctionDef):
                forwarded |= {a.arg for a in node.args.args + node.args.kwonlyargs}

        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            keywords = {k.arg: k.value for k in node.keywords}
            where = f"{rel}:{node.lineno}"
            if _callee(node) == "user_text":  # a typed text's refusal: its message, its label
                if "empty" in keywords:
                    _check(keywords["empty"], where, (assigned, forwarded), found, wrong)
                label = keywords.get("label")
                text = _marked_text(label) if label is not None else None
                if isinstance(label, ast.Constant) and isinstance(label.value, str):
                    text = label.value  # put into a marked message: looked up as it is
                if text is not None:
                    found.setdefault(text, where)
            if _callee(node) not in REFUSALS:
                continue
            at = REFUSALS[_callee(node)]
            message = node.args[at] if len(node.args) > at else keywords.get("message")
            if message is not None:
                _check(message, where, (assigned, forwarded), found, wrong)
    return found, wrong


def test_every_refusal_of_the_services_is_marked_for_translation():
    found, wrong = _refusals()
    assert wrong == []
    # the scan sees the refusals of every service (a sample): it cannot pass by finding none
    for text in (
        "non ci sono smazzate da annullare",  # turno_frame.fail
        "%(player)s ha già confermato questo verbale",  # confirmations._fail
        "solo il %(game)s ha la scala delle serie: per questo gioco scegliere «ripartire da zero»",
        "%(table)s, riga %(row)s, %(column)s: %(value)s non esiste nel backup",  # problems.add
        "%(value)s non è una data ISO (AAAA-MM-GG)",  # backup._wrong
        "%(game)s non prevede penalità",  # deals
        "turno inesistente",  # api._problem
        "per riaprire un turno chiuso serve una motivazione",  # user_text(empty=...)
        "motivazione",  # user_text(label=...)
    ):
        assert text in found, text


def test_every_refusal_of_the_services_has_its_english_with_the_same_values():
    catalogue = _catalogue()
    found, _wrong = _refusals()
    missing = [f"{where}: {text}" for text, where in found.items() if not catalogue.get(text)]
    assert missing == []
    mismatched = [
        text
        for text in found
        if sorted(PLACEHOLDER.findall(text)) != sorted(PLACEHOLDER.findall(catalogue[text]))
    ]
    assert mismatched == []
