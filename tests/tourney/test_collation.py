"""Names sorted as the reader's language sorts them (infra/text/collation.py)."""

from django.template import Context, Template
from django.utils import translation

from infra.text.collation import name_key, sorted_by_name

NAMES = ["Zeman Ota", "Molnár Péter", "Čapek Karel", "Mészáros Anna", "Chalupa Jan",
         "Horváth Ádám", "Csizmadia Ede", "Cibulka Petr", "Öreg Béla", "Orbán Zoltán", "Szabó Ida",
         "Sánta Éva"]  # fmt: skip


def test_hungarian_orders_accents_and_double_letters_as_a_hungarian_reader_expects():
    assert sorted_by_name(NAMES, language="hu") == [
        "Čapek Karel", "Chalupa Jan", "Cibulka Petr", "Csizmadia Ede", "Horváth Ádám",
        "Mészáros Anna", "Molnár Péter", "Orbán Zoltán", "Öreg Béla", "Sánta Éva", "Szabó Ida",
        "Zeman Ota",
    ]  # fmt: skip


def test_czech_puts_c_caron_after_c_and_ch_after_h():
    ordered = sorted_by_name(NAMES, language="cs")
    assert (
        ordered.index("Csizmadia Ede")
        < ordered.index("Čapek Karel")
        < ordered.index("Horváth Ádám")
    )
    assert (
        ordered.index("Horváth Ádám")
        < ordered.index("Chalupa Jan")
        < ordered.index("Mészáros Anna")
    )


def test_the_active_language_is_the_default_and_code_point_order_is_not_used():
    with translation.override("hu"):
        assert sorted_by_name(["Molnár", "Mészáros"]) == ["Mészáros", "Molnár"]
        assert name_key("Öreg") > name_key("Orbán")
    with translation.override("en"):
        assert sorted_by_name(["molnár", "Mészáros", "Abel"]) == ["Abel", "Mészáros", "molnár"]


def test_the_template_filter_sorts_objects_and_dicts_by_a_dotted_path():
    template = Template(
        '{% load collation %}{% for r in rows|collated:"player.name" %}'
        "{{ r.player.name }};{% endfor %}"
    )
    rows = [{"player": {"name": n}} for n in ("Molnár", "Mészáros", "Ábel")]
    with translation.override("hu"):
        assert template.render(Context({"rows": rows})) == "Ábel;Mészáros;Molnár;"


def test_find_your_seat_rows_follow_the_language():
    from tables.seating.selectors import seated_players_by_name

    tables = [
        {"number": 1, "players": [{"player_name": "Molnár Péter", "seat": 2}]},
        {"number": 2, "players": [{"player_name": "Mészáros Anna", "seat": 5}]},
    ]
    with translation.override("hu"):
        assert [r["name"] for r in seated_players_by_name(tables)] == [
            "Mészáros Anna",
            "Molnár Péter",
        ]
