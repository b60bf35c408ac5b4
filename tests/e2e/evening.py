"""One evening's tournament arranged through the services, stage by stage, for the geometry
checks (tests/e2e/test_geometry.py): the states in which the screens broke (issue 13).

"Friday Deepstack #12" on 5 tables of 9 (45 seats), long Hungarian and Czech names, rebuys and
an add-on, 20 paid places, five-digit blinds with an ante (25 000 / 50 000, ante 50 000) and a
break with a color-up. `Evening` walks it forward: seats drawn -> running with a message ->
down to the final-table redraw (9 moves) -> paused -> the color-up break -> finished.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from clocks.clock.usecases import clock_operate
from clocks.domain.structures import Chip, Period, StructureData
from clocks.structures.usecases import structure_create
from tables.floor.usecases import floor_action_done
from tables.models import FloorAction
from tables.rooms.usecases import room_create
from tables.seating.usecases import seats_draw
from tourney.domain.purchases import MoneySettings
from tourney.eliminations.usecases import eliminations_record
from tourney.models import Entry
from tourney.payouts.usecases import payout_structure_create
from tourney.players.usecases import player_create
from tourney.registration.usecases import entry_register
from tourney.tournaments.usecases import tournament_create, tournament_message_set

NAMES = [
    "Mészáros Enikő Krisztina", "Molnár Dávid", "Varga Ferenc Zsolt", "Kovács Ádám", "Nagy Éva",
    "Szabó Zoltán", "Tóth Ödön", "Papp Réka", "Horváth Júlia Boglárka", "Varga Lili",
    "Balogh Máté", "Fekete Bence", "Kiss Anna", "Farkas Gergő", "Lakatos Ilona", "Simon Ákos",
    "Takács Zsófia", "Juhász Levente", "Oláh Bálint", "Rácz Csilla", "Fehér Gábor",
    "Csizmadia Ede", "Čapek Karel", "Chalupa Jan", "Dvořáková Markéta", "Řezníček Přemysl",
    "Šťastný Jiří", "Žáček Ondřej", "Zsigmond Örs", "Gyöngyösi-Szentmiklóssy Bernadett",
    "Őri Zsolt", "Ősz-Würtzburger Évike Ágnes", "Sánta Éva", "Szalai Gyula", "Benkő Tamás",
    "Lukács Ildikó",
    "Pintér Szilveszter", "Vörös Kristóf", "Bíró Henrietta", "Hegedűs Norbert",
    "Novák Tomáš", "Svoboda Václav", "Procházka Matěj", "Kučerová Tereza", "Horák Vojtěch",
]  # fmt: skip
MESSAGE = (
    "Az 5. szint végén 10 perc szünet: a 25-ös zsetonokat színezzük fel. A büfé a teremben "
    "nyitva. Rebuy a 4. szint végéig, add-on a szünetben 10 000 HUF-ért 20 000 zseton."
)
BIG_LEVEL = 9  # 25 000 / 50 000, ante 50 000
BREAK_INDEX = 4  # the break after level 4 colors up the 25s and 100s


def _structure(director):
    blinds = [
        (25, 50, 0), (50, 100, 100), (100, 200, 200), (200, 400, 400),
        (500, 1_000, 1_000), (1_000, 2_000, 2_000), (2_500, 5_000, 5_000),
        (10_000, 20_000, 20_000), (25_000, 50_000, 50_000), (50_000, 100_000, 100_000),
    ]  # fmt: skip
    periods = []
    for i, (sb, bb, ante) in enumerate(blinds, start=1):
        periods.append(Period("level", 20 * 60, sb, bb, ante))
        if i == 4:
            periods.append(Period("break", 10 * 60, color_up=(25, 100)))
    return structure_create(
        actor=director,
        data=StructureData(
            name="Deepstack 20 perc",
            chips=(
                Chip(25, "white"),
                Chip(100, "black"),
                Chip(500, "purple"),
                Chip(1_000, "yellow"),
                Chip(5_000, "red"),
                Chip(25_000, "green"),
                Chip(100_000, "orange"),
            ),
            periods=tuple(periods),
            starting_stack=40_000,
        ),
    )


def _payouts(director):
    percents = [24, 16, 11, 8, 6.5, 5.5, 4.5, 3.5, 3] + [2] * 3 + [1.5] * 8  # 20 places, 100 %
    brackets = [
        {"min_entries": 1, "max_entries": 29, "percents": [100]},
        {"min_entries": 30, "max_entries": None, "percents": percents},
    ]
    return payout_structure_create(actor=director, name="Twenty places", brackets=brackets)


@dataclass
class Evening:
    director: object
    players: int = 45
    tournament: object = None
    stage: str = ""
    entry_ids: list[int] = field(default_factory=list)

    def arrange(self) -> Evening:
        """Registered, seats drawn (the lobby's "find your seat")."""
        room = room_create(
            actor=self.director,
            name="Aréna terem",
            tables=[{"number": n, "seats": 9} for n in range(1, 6)],
        )
        self.tournament = tournament_create(
            actor=self.director,
            name="Friday Deepstack #12 · Rimóc bajnokság döntő",
            structure_id=_structure(self.director).pk,
            starting_stack=40_000,
            buy_in=10_000,
            fee=2_000,
            room_id=room.pk,
            house_rules="rimoc",
            payout_structure_id=_payouts(self.director).pk,
            money=MoneySettings(
                rebuy_until_level=4,
                rebuy_max=2,
                rebuy_buy_in=10_000,
                rebuy_chips=40_000,
                addon_level=4,
                addon_buy_in=10_000,
                addon_chips=20_000,
            ),
        )
        for name in NAMES[: self.players]:
            player = player_create(actor=self.director, name=name)
            entry = entry_register(
                actor=self.director, tournament_id=self.tournament.pk, player_id=player.pk
            )
            self.entry_ids.append(entry.pk)
        seats_draw(actor=self.director, tournament_id=self.tournament.pk, rng=random.Random(7))
        self.stage = "seats"
        return self

    def _clock(self, operation: str, **kwargs) -> None:
        clock_operate(
            actor=self.director, tournament_id=self.tournament.pk, operation=operation, **kwargs
        )

    def running(self) -> Evening:
        """Started, at 25 000 / 50 000 ante 50 000, with the director's message."""
        self._clock("start")
        self._clock("jump", period_index=BIG_LEVEL)  # level 9 is period 9 (a break before)
        tournament_message_set(
            actor=self.director, tournament_id=self.tournament.pk, message=MESSAGE
        )
        self.stage = "running"
        return self

    def _bust(self, entry_id: int) -> None:
        eliminations_record(
            actor=self.director,
            tournament_id=self.tournament.pk,
            eliminations=[(entry_id, None)],
            rng=random.Random(entry_id),
        )

    def _confirm_moves(self, keep_last: bool = False) -> None:
        pending = FloorAction.objects.filter(
            tournament=self.tournament, status=FloorAction.Status.PENDING, parent__isnull=True
        ).order_by("pk")
        actions = list(pending)
        if keep_last and actions:
            actions = actions[:-1]
        for action in actions:
            floor_action_done(
                actor=self.director, tournament_id=self.tournament.pk, action_id=action.pk
            )

    def final_table(self) -> Evening:
        """Busted down to the final table: the redraw's 9 moves listed (pending)."""
        while True:
            left = list(
                Entry.objects.filter(tournament=self.tournament, status=Entry.Status.ACTIVE)
                .order_by("tournament_table__number", "seat")
                .values_list("pk", flat=True)
            )
            if len(left) <= 9:
                break
            self._confirm_moves()
            self._bust(left[len(left) // 2])
        self.stage = "final-table"
        return self

    def paused(self) -> Evening:
        self._clock("pause")
        self.stage = "paused"
        return self

    def color_up_break(self) -> Evening:
        if self.stage == "paused":
            self._clock("resume")
        self._clock("jump", period_index=BREAK_INDEX)
        self.stage = "break"
        return self

    def finished(self) -> Evening:
        """One player left: the winner."""
        self._confirm_moves()
        # The longest name left wins: the winner's TV shows it largest of all.
        left = sorted(
            Entry.objects.filter(tournament=self.tournament, status=Entry.Status.ACTIVE)
            .order_by("pk")
            .values_list("pk", "player__name"),
            key=lambda row: -len(row[1]),
        )
        for entry_id, _name in left[1:]:
            self._bust(entry_id)
        self.stage = "finished"
        return self
