"""The build's self-check image (autograder.otter.self_check) is thrown away after two runs: its
setup.sh installs without byte-compiling every module (pip's PIP_NO_COMPILE, read inverted), while
an image standing in for the platform's keeps pip's default, as Gradescope builds its image."""
import subprocess
import zipfile

import pytest

from autograder.otter import emulation, self_check
from autograder.otter.emulation import GradingImage


def setup_environment(tmp_path, monkeypatch, **options):
    """The environment setup.sh is run with by an image made with `options`."""
    tmp_path.mkdir(parents=True)
    archive = tmp_path / "a.zip"
    with zipfile.ZipFile(archive, "w") as handle:
        handle.writestr("setup.sh", "true\n")
    seen = {}

    def run(self, command, what, timeout, **kwargs):
        if what == "setup.sh":
            seen.update(kwargs["env"])
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(GradingImage, "_run", run)
    image = GradingImage(tmp_path / "image", **options)
    (image.bin).mkdir(parents=True)
    (image.bin / "python3").write_text("")
    image.install(archive)
    return seen


def test_a_throwaway_image_installs_without_compiling_and_a_platforms_image_compiles(tmp_path, monkeypatch):
    monkeypatch.delenv("PIP_NO_COMPILE", raising=False)
    assert setup_environment(tmp_path / "fast", monkeypatch, byte_compile=False)["PIP_NO_COMPILE"] == "0"
    assert "PIP_NO_COMPILE" not in setup_environment(tmp_path / "platform", monkeypatch)


def test_the_self_check_makes_its_own_image_throwaway(monkeypatch):
    made = {}

    class Stop(Exception):
        pass

    def image(folder, **options):
        made.update(options)
        raise Stop

    monkeypatch.setattr(emulation, "GradingImage", image)
    from labs.self_attention import LAB
    with pytest.raises(Stop):
        self_check.check_zip(None, LAB)
    assert made == {"byte_compile": False}
