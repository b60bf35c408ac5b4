"""Reads of players: search that forgives typos, likely duplicates, the players index.

The name index (tourney.domain.name_index) lives in each process and is rebuilt when a player
is added, changed or merged (the newest `updated_at` and the count move): a search then costs
one small aggregate query plus microseconds in memory.
"""

import threading
from bisect import bisect_left, bisect_right, insort
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count, Max, Q
from django.utils.translation import get_language

from infra.text.collation import name_key
from tourney.domain.name_index import NameIndex
from tourney.domain.text import phone_digits, search_key
from tourney.models import Player, PlayerBan, Tournament
from tourney.tournaments.selectors import active_bans

_lock = threading.Lock()
_cache: dict[str, object] = {}


def players_in_lists():
    """Players the pages list and search: not merged into another."""
    return Player.objects.filter(merged_into__isnull=True)


def _stamp() -> tuple:
    """(rows, newest change, highest id) of the players table, merged ones included: what
    moves whenever the index must follow (the table's own indexes answer it)."""
    row = Player.objects.aggregate(n=Count("pk"), last=Max("updated_at"), top=Max("pk"))
    return (row["n"], row["last"], row["top"])


@dataclass
class PlayerFacts:
    """What search, duplicate checks and sorting need of every listed player."""

    names: dict[int, str] = field(default_factory=dict)
    texts: dict[int, str] = field(default_factory=dict)
    """search_text: name, nickname and phone digits, lower-case and accent-free."""
    name_keys: dict[int, str] = field(default_factory=dict)
    """search_key of the name, its words sorted ("adam kovacs" for "Kovács Ádám")."""
    phones: dict[int, str] = field(default_factory=dict)
    emails: dict[int, str] = field(default_factory=dict)
    orders: dict[str, tuple[list, dict]] = field(default_factory=dict)
    """Per language: [(collation key, id)] sorted, and id -> its key."""
    _blob: tuple | None = None

    def containing(self, words: list[str]) -> list[int]:
        """Players whose search text contains every word: the longest word is looked up in
        one string of every text (at C speed), the others in the texts it hits."""
        if self._blob is None:
            pks = list(self.texts)
            starts, at = [], 0
            for pk in pks:
                starts.append(at)
                at += len(self.texts[pk]) + 1
            self._blob = ("\n".join(self.texts[pk] for pk in pks), starts, pks)
        blob, starts, pks = self._blob
        first, *rest = sorted(words, key=len, reverse=True)
        found, at = [], blob.find(first)
        while at != -1:
            i = bisect_right(starts, at) - 1
            pk = pks[i]
            if all(w in self.texts[pk] for w in rest):
                found.append(pk)
            next_start = starts[i + 1] if i + 1 < len(starts) else len(blob)
            at = blob.find(first, next_start)
        return found

    seen: set[int] = field(default_factory=set)
    """Every player row read, merged ones included (to notice rows that disappeared)."""

    def put(self, pk: int, name: str, phone: str, email: str, text: str) -> None:
        self.drop(pk)
        self._blob = None
        self.names[pk], self.texts[pk] = name, text
        self.name_keys[pk] = " ".join(sorted(search_key(name).split()))
        if phone:
            self.phones[pk] = phone_digits(phone)
        if email:
            self.emails[pk] = email.strip().lower()
        for language, (ordered, keys) in self.orders.items():
            keys[pk] = (name_key(name, language), pk)
            insort(ordered, keys[pk])

    def drop(self, pk: int) -> None:
        self._blob = None
        for table in (self.names, self.texts, self.name_keys, self.phones, self.emails):
            table.pop(pk, None)
        for ordered, keys in self.orders.values():
            if pk in keys:
                ordered.pop(bisect_left(ordered, keys.pop(pk)))


FIELDS = ("pk", "name", "nickname", "phone", "email", "search_text", "merged_into_id")


def _apply(index: NameIndex, facts: PlayerFacts, rows) -> None:
    for pk, name, nickname, phone, email, text, merged_into in rows:
        facts.seen.add(pk)
        if merged_into is not None:
            index.update(pk, None)
            facts.drop(pk)
        else:
            index.update(pk, search_key(name, nickname))
            facts.put(pk, name, phone, email, text)


def player_index() -> tuple[NameIndex, PlayerFacts]:
    """The name index and facts of the players as they are now: built once per process, then
    brought up to date with the players changed since (by `updated_at`)."""
    stamp = _stamp()
    with _lock:
        if _cache.get("stamp") == stamp:
            return _cache["index"], _cache["facts"]  # type: ignore[return-value]
        last = _cache.get("last")
        if last is not None and stamp[1] is not None and stamp[1] < last:
            last = None  # the clock went back (a restored database): start again
        if last is not None:
            index, facts = _cache["index"], _cache["facts"]
            _apply(index, facts, Player.objects.filter(updated_at__gte=last).values_list(*FIELDS))
        if last is None or len(facts.seen) != stamp[0]:  # first use, or rows deleted
            index, facts = NameIndex(), PlayerFacts()
            _apply(index, facts, Player.objects.values_list(*FIELDS))
        _cache.update(stamp=stamp, last=stamp[1], index=index, facts=facts)
        return index, facts


def players_sorted_ids(language: str | None = None, facts: PlayerFacts | None = None) -> list[int]:
    """Every listed player's id in the order `language` sorts names (kept up to date)."""
    facts = facts or player_index()[1]
    lang = language or get_language() or "en"
    with _lock:
        if lang not in facts.orders:
            keys = {pk: (name_key(name, lang), pk) for pk, name in facts.names.items()}
            facts.orders[lang] = (sorted(keys.values()), keys)
        return [pk for _key, pk in facts.orders[lang][0]]


def players_rank(facts: PlayerFacts, language: str | None = None) -> dict[int, int]:
    """Each listed player's place in the language's order of names."""
    lang = language or get_language() or "en"
    cached = _cache.get("rank")
    if cached is not None and cached[0] == (lang, _cache.get("stamp")):
        return cached[1]
    rank = {pk: i for i, pk in enumerate(players_sorted_ids(lang, facts))}
    _cache["rank"] = ((lang, _cache.get("stamp")), rank)
    return rank


def player_search(text: str, limit: int = 20, *, by_phone: bool = True) -> list[Player]:
    """Players whose name, nickname or phone contain every word of `text` (accents ignored),
    in the language's order, then those a typo away from it ("Vraga" finds Varga, "Mesaros"
    Mészáros), best first. In memory: no scan of the players table per keystroke.
    `by_phone=False` (a caller who may not see contact details) matches names and nicknames
    only, so phone digits cannot be probed through the search."""
    words = search_key(text).split()[:5]
    if not words:
        return []
    if not by_phone:
        found = player_search(text, limit=limit * 3)
        return [p for p in found if _names_contain(p, words)][:limit]
    index, facts = player_index()
    rank = players_rank(facts, get_language())
    with _lock:
        ids = sorted(facts.containing(words), key=lambda pk: rank.get(pk, 0))[:limit]
    if len(ids) < limit:
        seen = set(ids)
        hits = [h for h in index.search(words, limit=limit * 3) if h.player_id not in seen]
        hits.sort(key=lambda h: (h.rank, name_key(facts.names.get(h.player_id, ""))))
        ids += [h.player_id for h in hits[: limit - len(ids)]]
    by_id = players_in_lists().in_bulk(ids)
    return [by_id[i] for i in ids if i in by_id]


def _names_contain(player: Player, words: list[str]) -> bool:
    """Whether the player's name and nickname alone hold every search word (or its typo hit)."""
    text = search_key(f"{player.name} {player.nickname}")
    # Words without digits may be typo hits on the name; a word with digits must be there.
    return all(w in text for w in words if any(c.isdigit() for c in w))


@dataclass(frozen=True)
class Duplicate:
    player: Player
    reasons: tuple[str, ...]
    """`name`, `phone`, `email`: what the new player shares with this one."""


def player_duplicates(
    name: str, phone: str = "", email: str = "", exclude_id: int | None = None
) -> list[Duplicate]:
    """Players a new one would likely duplicate: the same name (accents, case and word order
    ignored), the same phone number (its digits) or the same e-mail address."""
    _index, facts = player_index()
    wanted_name = " ".join(sorted(search_key(name).split()))
    digits = phone_digits(phone or "")
    mail = (email or "").strip().lower()
    reasons: dict[int, list[str]] = {}
    for pk, key in list(facts.name_keys.items()):
        if wanted_name and key == wanted_name:
            reasons.setdefault(pk, []).append("name")
    if len(digits) >= 6:
        for pk, known in list(facts.phones.items()):
            if known and (known.endswith(digits[-9:]) or digits.endswith(known[-9:])):
                reasons.setdefault(pk, []).append("phone")
    if mail:
        for pk, known in list(facts.emails.items()):
            if known == mail:
                reasons.setdefault(pk, []).append("email")
    reasons.pop(exclude_id, None)
    players = players_in_lists().in_bulk(list(reasons))
    return [
        Duplicate(players[pk], tuple(why))
        for pk, why in sorted(reasons.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        if pk in players
    ][:5]


def players_page(query: str, order: str, offset: int, size: int, language: str | None = None):
    """One page of the players index: (players with `entries_count`, `last_played`, total).
    `order`: `name` (the language's collation), `-created` (newest first)."""
    if query.strip():
        ids = [p.pk for p in player_search(query, limit=200)]
    elif order == "-created":
        ids = list(players_in_lists().order_by("-created_at", "-id").values_list("pk", flat=True))
    else:
        ids = players_sorted_ids(language)
    page_ids = ids[offset : offset + size]
    rows = (
        players_in_lists()
        .filter(pk__in=page_ids)
        .annotate(
            entries_count=Count("entries", filter=~Q(entries__status="unregistered")),
            last_played=Max("entries__created_at"),
        )
    )
    by_id = {p.pk: p for p in rows}
    return [by_id[i] for i in page_ids if i in by_id], len(ids)


def tournament_bans(tournament: Tournament, now: datetime):
    """Bans in force at `now` that keep a player out of `tournament`: those without a season,
    and those of the tournament's season (Rimóc's exclusion from the championship, docs/rules.md
    §10.5)."""
    scope = Q(season=None)
    if tournament.season_id is not None:
        scope |= Q(season_id=tournament.season_id)
    return active_bans(now).filter(scope)


def player_tournament_ban(
    player: Player, tournament: Tournament, now: datetime
) -> PlayerBan | None:
    return (
        tournament_bans(tournament, now)
        .filter(player=player)
        .select_related("season")
        .order_by("-starts_at")
        .first()
    )


def players_tournament_bans(
    players: list[Player], tournament: Tournament, now: datetime
) -> dict[int, PlayerBan]:
    """`player_tournament_ban` of many players in one query: player id -> the newest ban."""
    found: dict[int, PlayerBan] = {}
    for ban in (
        tournament_bans(tournament, now)
        .filter(player__in=players)
        .select_related("season")
        .order_by("starts_at")
    ):
        found[ban.player_id] = ban
    return found


def player_bans(player: Player) -> list[PlayerBan]:
    """Every ban of a player, newest first, lifted and ended ones included."""
    return list(
        PlayerBan.objects.filter(player=player)
        .select_related("season", "created_by")
        .order_by("-starts_at", "-id")
    )


def player_search_text(player_fields: dict[str, str]) -> str:
    return search_key(
        player_fields["name"], player_fields["nickname"], phone_digits(player_fields["phone"])
    )


def member(player: Player) -> bool:
    """A club member who signed that he read the house rules (docs/rules.md §2.1, Doyle 001:3)."""
    return bool(player.membership_number) and player.rules_acknowledged_at is not None
