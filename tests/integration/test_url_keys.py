"""Keys in URLs (issue 26 item 4): a key beyond 2**63 - 1 is 404 on every URL of a row, on
SQLite too (Django's ``<int:...>`` passed it on and SQLite raised OverflowError: a 500)."""

from __future__ import annotations

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.converters import IntConverter

from scoring.converters import MAX_PK, PkConverter


def _routes(patterns, prefix: str = "") -> list[tuple[str, dict]]:
    out = []
    for p in patterns:
        route = prefix + str(p.pattern)
        if isinstance(p, URLResolver):
            out.extend(_routes(p.url_patterns, route))
        elif isinstance(p, URLPattern):
            out.append((route, dict(getattr(p.pattern, "converters", {}))))
    return out


def _keyed_routes() -> list[str]:
    """The club's routes of a row (the admin's own ``<path:object_id>`` answers by itself)."""
    return [
        r
        for r, conv in _routes(get_resolver().url_patterns)
        if conv and all(isinstance(c, PkConverter) for c in conv.values())
    ]


def test_every_key_in_a_url_is_read_by_the_pk_converter() -> None:
    routes = _routes(get_resolver().url_patterns)
    with_int = [r for r, conv in routes if any(isinstance(c, IntConverter) for c in conv.values())]
    assert with_int == []
    assert any("verbale.pdf" in r for r, conv in routes if conv)


def test_the_converter_takes_ascii_digits_up_to_the_largest_key() -> None:
    converter = PkConverter()
    assert re.fullmatch(converter.regex, str(MAX_PK))
    assert converter.to_python(str(MAX_PK)) == 2**63 - 1
    assert converter.to_python("007") == 7
    with pytest.raises(ValueError):
        converter.to_python(str(2**63))
    assert not re.fullmatch(converter.regex, "9" * 20)
    assert not re.fullmatch(converter.regex, "٢٧")


@pytest.mark.django_db
@pytest.mark.parametrize("key", [str(2**63), "9" * 20, str(MAX_PK)])
def test_an_out_of_range_key_is_404_on_every_url_of_a_row(admin_client, key) -> None:
    urls = ["/" + re.sub(r"<[a-z_]+:[a-z_]+>", key, route).lstrip("^") for route in _keyed_routes()]
    assert "/turni/" + key + "/verbale.pdf" in urls and len(urls) > 30
    answers = {}
    for url in urls:
        answers[url] = admin_client.get(url).status_code
        if answers[url] == 405:  # a form's target: POST only
            answers[url] = admin_client.post(url).status_code
    assert {url: code for url, code in answers.items() if code != 404} == {}
