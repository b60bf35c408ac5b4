"""Helpers of the cash floor's API tests: players made, a table opened, a list read."""

NLH = {"kind": "holdem", "limit": "no_limit"}


def players(api, names) -> dict[str, int]:
    return {n: api.post("/players", {"name": n}).json()["id"] for n in names}


def open_table(api, room, number, **extra) -> dict:
    body = {
        "room_id": room.pk,
        "table": number,
        "game": NLH,
        "small_blind": 200,
        "big_blind": 400,
        "min_buy_in": 20_000,
        "max_buy_in": 80_000,
        **extra,
    }
    r = api.post("/cash-tables", body)
    assert r.status_code == 201, r.json()
    return r.json()


def list_of(api, room, bb=400) -> dict:
    return next(x for x in api.get(f"/cash-lists?room_id={room.pk}").json() if x["big_blind"] == bb)


def names(cash_list) -> list[str]:
    return [p["player_name"] for p in cash_list["players"]]
