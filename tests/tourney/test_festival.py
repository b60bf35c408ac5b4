"""A festival's main event through the API (issue 26): flights one after another and beside
another tournament, re-entries across flights under both house rules, bag and tag from the
dealer links, the Day-2 draw with the bagged chips and Day 2 to a winner, the money and the
places over the whole field."""

import pytest
from django.urls import reverse

from tests.conftest import friday_deepstack
from tests.factories import bust, results, start
from tests.tourney.festival_steps import (
    bag_flight,
    festival_hall,
    flight,
    main_event,
    play_flight,
    players,
    register,
)
from tourney.models import Entry, LedgerEntry, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def hall(director):
    return festival_hall(director)


def test_a_three_flight_main_event_to_a_winner(api, director, structure, hall):
    main = main_event(director, structure, hall)
    names = [f"Játékos {i:02d} Árvíztűrő Tükörfúrógép" for i in range(30)]
    pid = players(api, names)
    ids = list(pid.values())

    # 1A and 1B one after another; 1C beside another tournament in the same room.
    day1a = flight(api, main, "Day 1A", [1, 2])
    left_a = play_flight(api, day1a, ids[:12], busts=4)
    bags_a = bag_flight(api, day1a, left_a)

    day1b = flight(api, main, "Day 1B", [3, 4])
    # a 1A survivor plays 1B too (keep_bigger); a 1A bust-out enters again in 1B
    again = [ids[0], ids[8]]
    assert Entry.objects.get(pk=left_a[0]).player_id == ids[4]
    left_b = play_flight(api, day1b, [*ids[12:20], ids[4], ids[0]], busts=3)
    bags_b = bag_flight(api, day1b, left_b)

    side = friday_deepstack(director, structure, hall, name="Side event", table_numbers=[9, 10])
    day1c = flight(api, main, "Day 1C", [5, 6])
    for pid_ in ids[:3]:
        assert register(api, side, pid_).status_code == 201
    left_c = play_flight(api, day1c, [*ids[20:30]], busts=2)
    bags_c = bag_flight(api, day1c, left_c)
    assert again  # the re-entry across flights: ids[0] busted in 1A, entered 1B

    # The main event counts every flight.
    flights = api.get(f"/tournaments/{main.pk}/flights").json()
    assert [(f["name"], f["status"], f["entries"], f["bagged"]) for f in flights] == [
        ("Day 1A", "finished", 12, 8),
        ("Day 1B", "finished", 10, 7),
        ("Day 1C", "finished", 10, 8),
    ]
    body = api.get(f"/tournaments/{main.pk}").json()
    assert body["flights"] == [day1a.pk, day1b.pk, day1c.pk]
    assert body["entries"] == 32
    flight_ids = [day1a.pk, day1b.pk, day1c.pk]
    ledger = LedgerEntry.objects.filter(tournament_id__in=flight_ids)
    prize_money = sum(
        r.amount
        for r in ledger
        if r.kind in ("buy_in", "refund_buy_in") and r.purpose != LedgerEntry.Purpose.PRIZE
    )
    assert body["prize_pool"] == prize_money == 32 * 10_000
    assert register(api, main, ids[29]).json()["code"] == "register_in_a_flight"

    # Day 2: one bag a player (the bigger), every chip carried.
    drawn = api.post(f"/tournaments/{main.pk}/day2/draw")
    assert drawn.status_code == 200, drawn.json()
    bags = {**bags_a, **bags_b, **bags_c}
    by_player: dict[int, int] = {}
    for entry_id, chips in bags.items():
        p = Entry.objects.get(pk=entry_id).player_id
        by_player[p] = max(by_player.get(p, 0), chips)
    day2 = Entry.objects.filter(tournament=main)
    assert day2.count() == len(by_player) == 22
    assert {e.player_id: e.chips for e in day2} == by_player
    main.refresh_from_db()
    assert main.chips_carried == sum(by_player.values())
    assert api.get(f"/tournaments/{main.pk}").json()["total_chips"] == sum(by_player.values())
    leaders = api.get(f"/tournaments/{main.pk}/chip-counts").json()
    assert leaders[0]["chips"] == max(by_player.values()) and leaders[0]["rank"] == 1
    seated_players = sum(len(t["players"]) for t in drawn.json()["tables"])
    assert seated_players == 22

    # Day 2 to a winner: places 1..22, the prizes the whole pool.
    start(api, main)
    order = list(day2.order_by("chips", "pk").values_list("pk", "chips"))
    for entry_id, chips in order[:-1]:
        bust(api, main, (entry_id, chips))
    final = results(api, main)
    assert sorted(r["place"] for r in final.values()) == list(range(1, 23))
    assert sum(r["prize"] for r in final.values()) == body["prize_pool"]
    payouts = api.get(f"/tournaments/{main.pk}/payouts").json()
    assert sum(p["amount"] for p in payouts) == body["prize_pool"]


def test_refuse_after_bag_keeps_a_bagged_player_out_of_later_flights(
    api, director, structure, hall
):
    main = main_event(director, structure, hall, flight_survivor="refuse_after_bag")
    pid = players(api, [f"P{i}" for i in range(6)])
    day1a = flight(api, main, "Day 1A", [1])
    left = play_flight(api, day1a, list(pid.values()), busts=2)
    bag_flight(api, day1a, left)
    day1b = flight(api, main, "Day 1B", [2])
    bagged_player = Entry.objects.get(pk=left[0]).player_id
    busted_player = Entry.objects.filter(tournament=day1a, status="eliminated").first().player_id
    refused = register(api, day1b, bagged_player)
    assert refused.status_code == 409 and refused.json()["code"] == "already_bagged"
    assert register(api, day1b, busted_player).status_code == 201


def test_one_flight_at_a_time_and_counts_only_of_players_left(api, director, structure, hall):
    main = main_event(director, structure, hall)
    pid = players(api, ["Ann", "Bob", "Cid"])
    day1a, day1b = flight(api, main, "Day 1A", [1]), flight(api, main, "Day 1B", [2])
    assert register(api, day1a, pid["Ann"]).status_code == 201
    refused = register(api, day1b, pid["Ann"])
    assert refused.json()["code"] == "playing_another_flight"
    path = f"/tournaments/{day1a.pk}/chip-counts"
    entry = Entry.objects.get(tournament=day1a).pk
    for bad in (
        {"counts": [{"entry_id": entry, "chips": 0}]},
        {"counts": [{"entry_id": entry, "chips": "x"}]},
        {"counts": []},
        [],
        {"counts": [{"entry_id": entry, "chips": 5}, {"entry_id": entry, "chips": 6}]},
    ):
        response = api.put(path, bad)
        assert response.status_code == 422, (bad, response.json())
        assert set(response.json()) == {"code", "detail"}
    other = Entry.objects.create(
        tournament=main,
        player_id=pid["Cid"],
        number=1,
        status="eliminated",
        created_at=main.created_at,
    )
    response = api.put(path, {"counts": [{"entry_id": other.pk, "chips": 5}]})
    assert response.json()["code"] == "entry_not_counted"
    assert Entry.objects.get(pk=entry).chips is None
    assert api.post(f"/tournaments/{day1a.pk}/end-of-day").json()["code"] == "flight_not_running"
    assert api.post(f"/tournaments/{main.pk}/end-of-day").json()["code"] == "not_a_flight"
    assert api.post(f"/tournaments/{main.pk}/day2/draw").json()["code"] == "flights_not_finished"


def test_an_end_of_day_is_undone_until_day_2_is_drawn(api, director, structure, hall):
    main = main_event(director, structure, hall)
    pid = players(api, [f"U{i}" for i in range(6)])
    day1a = flight(api, main, "Day 1A", [1])
    left = play_flight(api, day1a, list(pid.values()), busts=1)
    bags = bag_flight(api, day1a, left)
    undone = api.post(f"/tournaments/{day1a.pk}/end-of-day/undo")
    assert undone.status_code == 200, undone.json()
    assert undone.json()["status"] == "running" and undone.json()["players_remaining"] == 5
    assert {e.pk: e.chips for e in Entry.objects.filter(tournament=day1a, status="active")} == bags
    again = api.post(f"/tournaments/{day1a.pk}/end-of-day/undo")
    assert again.json()["code"] == "nothing_to_undo"
    assert api.post(f"/tournaments/{day1a.pk}/end-of-day").status_code == 200
    assert api.post(f"/tournaments/{main.pk}/day2/draw").status_code == 200
    late = api.post(f"/tournaments/{day1a.pk}/end-of-day/undo")
    assert late.status_code == 409 and late.json()["code"] == "day2_drawn"
    assert Entry.objects.filter(tournament=day1a, status="bagged").count() == 5


def test_day_2_starts_at_the_level_after_the_flights_last(api, director, structure, hall):
    main = main_event(director, structure, hall)
    pid = players(api, [f"L{i}" for i in range(6)])
    created = api.post(
        f"/tournaments/{main.pk}/flights",
        {"name": "Day 1A", "table_numbers": [1], "day_end_level": 6},
    )
    day1a = Tournament.objects.get(pk=created.json()["id"])
    assert created.json()["day_end_level"] == 6
    bag_flight(api, day1a, play_flight(api, day1a, list(pid.values()), busts=1))
    assert api.post(f"/tournaments/{main.pk}/day2/draw").status_code == 200
    pending = api.get(f"/tournaments/{main.pk}/clock").json()
    assert pending["status"] == "pending" and pending["period"]["level"] == 7
    start(api, main)
    running = api.get(f"/tournaments/{main.pk}/clock").json()
    assert running["status"] == "running" and running["period"]["level"] == 7


def test_players_out_on_day_1_in_the_money_take_the_places_after_day_2(
    api, director, structure, hall
):
    """§15.5: 20 entries in two flights, 2 players bag; the places paid pass the Day-2 field,
    so the last players out in the flights (the latest first) take places 3, 4, ..."""
    main = main_event(director, structure, hall)
    pid = list(players(api, [f"M{i:02d}" for i in range(20)]).values())
    day1a, day1b = flight(api, main, "Day 1A", [1]), flight(api, main, "Day 1B", [2])
    bag_flight(api, day1a, play_flight(api, day1a, pid[:10], busts=9))
    bag_flight(api, day1b, play_flight(api, day1b, pid[10:], busts=9))
    assert api.post(f"/tournaments/{main.pk}/day2/draw").status_code == 200
    start(api, main)
    day2 = list(Entry.objects.filter(tournament=main).order_by("chips", "pk"))
    bust(api, main, (day2[0].pk, day2[0].chips))
    final = results(api, main)
    paid = [p["amount"] for p in api.get(f"/tournaments/{main.pk}/payouts").json()]
    assert len(paid) > 2  # the test needs the money to reach Day 1
    places = sorted((r["place"], r["entry_id"]) for r in final.values())
    assert [p for p, _e in places] == list(range(1, len(paid) + 1))
    last_out_b = (
        Entry.objects.filter(tournament=day1b, status="eliminated").order_by("-ended_at", "-pk")
    )[0]
    assert final[last_out_b.pk]["place"] == 3
    assert sum(r["prize"] for r in final.values()) == sum(paid)
    # the cage pays a Day-1 finisher his prize from the main event
    pay = api.post(f"/tournaments/{main.pk}/results/{last_out_b.pk}/pay", {"method": "cash"})
    assert pay.status_code == 201, pay.json()
    assert results(api, main)[last_out_b.pk]["paid"] == final[last_out_b.pk]["prize"]


def test_each_end_of_day_registers_its_bags_in_day_2_and_day_2_follows_them(
    api, director, director_client, structure, hall
):
    """§15.5: an end of day registers its bags in Day 2 (one entry a player, no seat yet, the
    bag's chips); a bag corrected, a player's second and bigger bag, an end of day undone
    change Day 2's field with them; the desk refunds no Day-2 entry; the draw seats them."""
    main = main_event(director, structure, hall, flight_survivor="keep_bigger")
    ids = list(players(api, [f"D{i}" for i in range(8)]).values())

    def day2() -> dict[int, int]:
        rows = Entry.objects.filter(tournament=main, status="active", tournament_table=None)
        return dict(rows.values_list("day1_entry_id", "chips"))

    day1a = flight(api, main, "Day 1A", [1])
    bags_a = bag_flight(api, day1a, play_flight(api, day1a, ids[:6], busts=1))
    assert day2() == bags_a
    twice = Entry.objects.get(tournament=day1a, player_id=ids[1]).pk  # bags in 1B as well
    day1b = flight(api, main, "Day 1B", [2])
    bags_b = bag_flight(api, day1b, play_flight(api, day1b, [ids[0], ids[1], *ids[6:]], busts=1))
    bigger = Entry.objects.get(tournament=day1b, player_id=ids[1]).pk
    assert bags_b[bigger] > bags_a[twice]  # 4 stacks among 3 against 6 among 5
    assert day2() == {**{e: c for e, c in bags_a.items() if e != twice}, **bags_b}
    corrected = api.put(
        f"/tournaments/{day1a.pk}/chip-counts",
        {"counts": [{"entry_id": twice, "chips": bags_b[bigger] + 1}]},
    )
    assert corrected.status_code == 200, corrected.json()
    assert day2()[twice] == bags_b[bigger] + 1 and bigger not in day2()
    assert Entry.objects.filter(tournament=main).count() == 7  # 5 + 3, one player twice
    assert api.post(f"/tournaments/{day1b.pk}/end-of-day/undo").status_code == 200
    assert day2() == {**bags_a, twice: bags_b[bigger] + 1}
    one = Entry.objects.filter(tournament=main).first()
    refused = api.delete(f"/tournaments/{main.pk}/entries/{one.pk}")
    assert refused.status_code == 409 and refused.json()["code"] == "day2_entry"
    desk = director_client.get(reverse("tourney:desk", args=[main.pk]))
    assert desk.status_code == 200 and one.player.name in desk.content.decode()
    assert b"data-refund-url" not in desk.content and b"data-entry-receipt" not in desk.content
    assert api.post(f"/tournaments/{day1b.pk}/end-of-day").status_code == 200
    ordinary = api.post(f"/tournaments/{main.pk}/draw")  # not the ordinary draw: the chips
    assert ordinary.status_code == 409 and ordinary.json()["code"] == "day2_draw_only"
    console = director_client.get(reverse("tourney:console", args=[main.pk])).content
    assert b'id="draw-seats"' not in console
    assert api.post(f"/tournaments/{main.pk}/day2/draw").status_code == 200
    seated = Entry.objects.filter(tournament=main, status="active", seat__isnull=False)
    assert seated.count() == 7 == Entry.objects.filter(tournament=main).count()
    main.refresh_from_db()
    kept = {**bags_a, **bags_b, twice: bags_b[bigger] + 1}
    del kept[bigger]
    assert main.chips_carried == sum(e.chips for e in seated) == sum(kept.values())


def test_a_day_ended_before_its_bags_were_registered_is_drawn_all_the_same(
    api, director, structure, hall
):
    """An installation upgraded with a flight's day over: its bags have no Day-2 entries
    yet; the draw registers them first."""
    main = main_event(director, structure, hall)
    ids = list(players(api, [f"O{i}" for i in range(6)]).values())
    day1a = flight(api, main, "Day 1A", [1])
    bags = bag_flight(api, day1a, play_flight(api, day1a, ids, busts=1))
    Entry.objects.filter(tournament=main).delete()
    assert api.post(f"/tournaments/{main.pk}/day2/draw").status_code == 200
    seated = Entry.objects.filter(tournament=main, seat__isnull=False)
    assert dict(seated.values_list("day1_entry_id", "chips")) == bags
