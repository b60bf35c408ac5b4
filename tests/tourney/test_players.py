"""Duplicates at the desk (issue 13 item 9): the warning on create, search that forgives typos,
the players index in the language's order, and merging two players (and taking it back)."""

from django.urls import reverse
from django.utils import translation

from tests.conftest import seat_players
from tourney.models import AuditEntry, Entry, LedgerEntry, Penalty, Player, PlayerBan
from tourney.players.selectors import player_duplicates, player_search, players_page
from tourney.players.usecases import player_ban, player_create, player_merge, player_merge_undo


def names(players) -> list[str]:
    return [p.name for p in players]


def test_search_finds_typos_after_exact_matches(director):
    for name in ("Varga Ferenc", "Virág Gergő", "Mészáros Éva", "Molnár Dávid", "Kovács Ádám"):
        player_create(actor=director, name=name)
    assert names(player_search("Vraga")) == ["Varga Ferenc"]
    assert names(player_search("Mesaros")) == ["Mészáros Éva"]
    assert names(player_search("kovacs"))[0] == "Kovács Ádám"
    player_create(actor=director, name="Varga Lili")  # the index follows new players
    assert names(player_search("vraga")) == ["Varga Ferenc", "Varga Lili"]


def test_likely_duplicates_by_name_phone_or_email(director):
    adam = player_create(actor=director, name="Kovács Ádám", phone="+36 30 123 4567")
    eva = player_create(actor=director, name="Mészáros Éva", email="eva@example.com")
    assert [d.player for d in player_duplicates("kovacs adam")] == [adam]
    assert [d.player for d in player_duplicates("Ádám Kovács")] == [adam]  # order swapped
    assert player_duplicates("X Y", phone="06 30 123 4567")[0].reasons == ("phone",)
    assert player_duplicates("Z", email="EVA@example.com")[0].player == eva
    assert player_duplicates("Kovács Péter") == []


def test_the_desk_warns_before_a_second_identical_player(director_client, director, tournament):
    existing = player_create(actor=director, name="Kovács Ádám")
    url = reverse("tourney:desk_new_player", args=[tournament.pk])
    data = {"name": "Kovács Ádám", "nickname": "", "phone": "", "email": "", "method": "cash"}
    r = director_client.post(url, data)
    assert r.status_code == 409
    text = r.content.decode()
    assert 'id="desk-duplicates"' in text and f'value="{existing.pk}"' in text
    assert Player.objects.count() == 1 and not Entry.objects.exists()
    # The existing player is registered from the warning.
    r = director_client.post(
        reverse("tourney:desk_register", args=[tournament.pk]),
        {"player_id": existing.pk, "method": "cash"},
    )
    assert Entry.objects.get().player == existing
    # Or a new one anyway, when it really is another man of the same name.
    r = director_client.post(url, {**data, "name": "Kovács Ádám", "create_anyway": "1"})
    assert r.status_code == 302 and Player.objects.count() == 2


def test_the_desks_new_player_form_has_no_untranslated_create_anyway_box(
    director_client, tournament
):
    """The evening's desk in Hungarian: the new-player form ended with a checkbox "Create
    anyway" (the form's field for the duplicates warning's button, given no label, so Django
    named it in English); the warning's own button sends it, the form shows no box."""
    director_client.cookies["django_language"] = "hu"
    page = director_client.get(reverse("tourney:desk", args=[tournament.pk])).content.decode()
    assert 'id="id_name"' in page
    assert "Create anyway" not in page and 'type="checkbox" name="create_anyway"' not in page


def test_the_api_names_likely_duplicates_on_create(api):
    first = api.post("/players", {"name": "Varga Ferenc"}).json()
    second = api.post("/players", {"name": "varga  ferenc"})
    assert second.status_code == 201
    assert second.json()["possible_duplicates"] == [
        {"id": first["id"], "name": "Varga Ferenc", "reasons": ["name"]}
    ]
    check = api.get("/players/duplicates?name=Ferenc%20Varga").json()
    assert {d["id"] for d in check} == {first["id"], second.json()["id"]}


def test_the_players_index_sorts_by_the_languages_collation(director, director_client):
    for name in ("Molnár Dávid", "Mészáros Éva", "Zeman Jan", "Čapek Karel", "Csizmadia Béla"):
        player_create(actor=director, name=name)
    with translation.override("hu"):
        rows, total = players_page("", "name", 0, 10, language="hu")
    assert total == 5
    assert names(rows) == [
        "Čapek Karel",
        "Csizmadia Béla",
        "Mészáros Éva",
        "Molnár Dávid",
        "Zeman Jan",
    ]
    rows, _ = players_page("", "name", 0, 10, language="cs")
    assert names(rows) == [
        "Csizmadia Béla",
        "Čapek Karel",
        "Mészáros Éva",
        "Molnár Dávid",
        "Zeman Jan",
    ]
    page = director_client.get(reverse("tourney:players") + "?q=Mesaros")
    assert page.status_code == 200 and "Mészáros Éva" in page.content.decode()
    assert "Molnár" not in page.content.decode()


def test_the_players_index_pages(director, director_client):
    for i in range(55):
        player_create(actor=director, name=f"Player {i:02d}")
    first = director_client.get(reverse("tourney:players"))
    assert first.context["pages"] == 2 and len(first.context["rows"]) == 50
    second = director_client.get(reverse("tourney:players") + "?page=2")
    assert len(second.context["rows"]) == 5
    assert director_client.get(reverse("tourney:players") + "?page=x").status_code == 200


def two_kovacs(api, director, tournament):
    """Kovács Ádám twice: the duplicate has played (entry, money, a penalty and a ban)."""
    keep = player_create(actor=director, name="Kovács Ádám")
    duplicate = player_create(actor=director, name="Kovacs Adam", phone="+36 30 111 2222")
    entry = api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": duplicate.pk}).json()
    player_ban(actor=director, player_id=duplicate.pk, reason="Slow roll", ends_at=None)
    return keep, duplicate, entry["id"]


def test_merge_moves_everything_and_undo_moves_it_back(api, director, tournament):
    keep, duplicate, entry_id = two_kovacs(api, director, tournament)
    kept = player_merge(actor=director, keep_id=keep.pk, merge_id=duplicate.pk)
    assert Entry.objects.get(pk=entry_id).player == kept
    assert PlayerBan.objects.get().player == kept
    assert kept.phone == "+36 30 111 2222"  # filled from the duplicate
    assert Player.objects.get(pk=duplicate.pk).merged_into == kept
    assert names(player_search("kovacs")) == ["Kovács Ádám"]  # the duplicate is out of lists
    assert LedgerEntry.objects.filter(entry__player=kept).count() == 2
    audit = AuditEntry.objects.get(action="player.merge")
    assert audit.after["moved"]["entries"] == [entry_id]

    player_merge_undo(actor=director, player_id=duplicate.pk)
    assert Entry.objects.get(pk=entry_id).player_id == duplicate.pk
    assert PlayerBan.objects.get().player_id == duplicate.pk
    assert Player.objects.get(pk=keep.pk).phone == ""
    assert Player.objects.get(pk=duplicate.pk).merged_into is None
    assert AuditEntry.objects.filter(action="player.merge_undo").count() == 1


def test_merge_refusals_change_nothing(api, director, tournament):
    keep, duplicate, _entry = two_kovacs(api, director, tournament)
    api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": keep.pk})
    before = list(Entry.objects.values_list("pk", "player_id"))
    r = api.post(f"/players/{duplicate.pk}/merge", {"into": keep.pk})
    assert r.status_code == 409 and r.json()["code"] == "both_playing"
    assert api.post(f"/players/{keep.pk}/merge", {"into": keep.pk}).json()["code"] == "same_player"
    assert api.post(f"/players/{keep.pk}/merge/undo").json()["code"] == "not_merged"
    assert api.post("/players/99999/merge", {"into": keep.pk}).status_code == 404
    assert list(Entry.objects.values_list("pk", "player_id")) == before
    assert not AuditEntry.objects.filter(action__startswith="player.merge").exists()


def test_merge_through_the_api_and_the_page(api, api_as, director, tournament, director_client):
    keep, duplicate, entry_id = two_kovacs(api, director, tournament)
    assert (
        api_as("desk").post(f"/players/{duplicate.pk}/merge", {"into": keep.pk}).status_code == 403
    )
    page = director_client.get(reverse("tourney:player_merge", args=[duplicate.pk]))
    assert [p.pk for p in page.context["candidates"]] == [keep.pk]  # same name, found at once
    r = director_client.post(
        reverse("tourney:player_merge_do", args=[duplicate.pk]), {"into": keep.pk}
    )
    assert r.status_code == 302 and Entry.objects.get(pk=entry_id).player_id == keep.pk
    undo = api.post(f"/players/{duplicate.pk}/merge/undo")
    assert undo.status_code == 200 and undo.json()["id"] == duplicate.pk
    assert Entry.objects.get(pk=entry_id).player_id == duplicate.pk


def test_penalties_follow_a_merge(api, director, tournament):
    keep = player_create(actor=director, name="Tóth Péter")
    ids = seat_players(api, tournament, ["Toth Peter", "B", "C"])
    api.post(f"/tournaments/{tournament.pk}/start")
    dup_id = Entry.objects.get(pk=ids["Toth Peter"]).player_id
    api.post(
        f"/tournaments/{tournament.pk}/penalties",
        {"entry_id": ids["Toth Peter"], "kind": "warning", "reason": "Language"},
    )
    player_merge(actor=director, keep_id=keep.pk, merge_id=dup_id)
    assert Penalty.objects.get().player_id == keep.pk
