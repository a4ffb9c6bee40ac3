"""Limits: defaulted in one place, built from a command's or a platform's options."""
import pytest

from autograder.sandbox.limits import MB, Limits


def test_no_option_keeps_every_default():
    assert Limits.from_options() == Limits()
    assert Limits.from_options(seconds=None, memory_mb=None, processes=None, disk_mb=None) == Limits()


def test_options_are_read_in_their_units():
    limits = Limits.from_options(seconds="3", memory_mb="512", processes=8.0, disk_mb=5)
    assert (limits.step_seconds, limits.load_seconds) == (3.0, 3.0)
    assert type(limits.step_seconds) is float
    assert (limits.memory_bytes, limits.processes, limits.disk_bytes) == (512 * MB, 8, 5 * MB)
    assert (limits.file_bytes, limits.user, limits.confine) == (Limits().file_bytes, Limits().user, True)


def test_only_isolated_false_drops_the_user_and_the_confinement():
    assert (Limits.from_options(isolated=False).user, Limits.from_options(isolated=False).confine) == (None, False)
    assert Limits.from_options(seconds=2, isolated=True).user == Limits().user


def test_options_that_are_not_numbers_are_refused():
    with pytest.raises(ValueError):
        Limits.from_options(seconds="ten")
    with pytest.raises((TypeError, ValueError)):
        Limits.from_options(memory_mb=[1024])


def test_the_command_and_the_platform_default_to_the_same_limits():
    from autograder.cli import build_parser, options_of
    from autograder.otter.gradescope import DEFAULT_SETTINGS

    def limits_from(argv):
        return options_of(build_parser().parse_args(argv)).limits.limits()

    assert limits_from(["check", "x.py"]) == Limits()
    assert limits_from(["grade", "x", "--out", "y"]) == Limits()
    assert Limits.from_options(seconds=DEFAULT_SETTINGS["step_seconds"],
                               memory_mb=DEFAULT_SETTINGS["memory_mb"]) == Limits()


def test_a_submission_runs_at_most_four_loads_and_each_step_with_one_reload():
    """docs/SECURITY.md: `(4 + 2 × steps) × --timeout` in all (160 s for lab 1 at 10 s, 32 s at 2 s):
    four loads, and per step its own time (spent once, driver.Clock) and the reload after it hung."""
    assert Limits().submission_seconds(6) == 160
    assert Limits.from_options(seconds=2).submission_seconds(6) == 32
    assert Limits(step_seconds=1.0, load_seconds=3.0).submission_seconds(2) == (4 + 2) * 3.0 + 2 * 1.0
