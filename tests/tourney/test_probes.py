"""Timing probes (infra/probes.py): the simulator hears the floor's steps without swapping
functions at run time."""

from infra.probes import probe, probes_heard


def test_a_probe_with_no_listener_only_runs_its_block():
    ran = []
    with probe("floor.plan"):
        ran.append(True)
    assert ran == [True]


def replan_with_a_plan_inside() -> None:
    with probe("floor.replan"), probe("floor.plan"):
        pass


def test_listeners_hear_each_probed_step_while_they_listen():
    heard: list[tuple[str, float]] = []
    with probes_heard(lambda name, ms: heard.append((name, ms))):
        replan_with_a_plan_inside()
    replan_with_a_plan_inside()  # no longer listening
    assert [name for name, _ms in heard] == ["floor.plan", "floor.replan"]
    assert all(ms >= 0 for _name, ms in heard)


def test_a_failing_step_is_heard_and_its_error_passes_through():
    heard: list[str] = []
    with probes_heard(lambda name, ms: heard.append(name)):
        try:
            with probe("floor.plan"):
                raise ValueError("bad plan")
        except ValueError as error:
            assert str(error) == "bad plan"
    assert heard == ["floor.plan"]
