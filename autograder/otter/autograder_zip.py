"""The autograder half: the LMS zip (run_autograder, setup.sh, the engine's wheel, the public tests)."""
from __future__ import annotations

import json
import os
import pathlib
import tempfile
import zipfile
from collections.abc import Mapping
from typing import Any

from ..core.lab import Lab
from ..said import said
from .gradescope import CONFIG, PLUGIN
from .refusals import BuildError
from .student_half import TOML_REQUIREMENT, _add
from .wheel import WheelError, write_wheel

# Read by `otter run -a ZIP` only; the zip's own run_autograder reads the plugin's settings.
OTTER_CONFIG = {"show_hidden": True, "force_public_test_summary": True, "show_stdout": False,
                "grade_from_log": False, "zips": False, "pdf": False}
MIN_PYTHON = (3, 10)


def zip_name(lab: Lab) -> str:
    return f"{pathlib.Path(lab.notebook).stem}-autograder.zip"


RUN_AUTOGRADER = """#!/usr/bin/env bash
# Grades the submission with the lab engine. Nothing of the submission is
# imported or run in this process tree outside the engine's sandbox: Python starts isolated (-I:
# neither the current folder nor PYTHON* variables reach sys.path) in an empty folder of its own,
# and the engine reads the submission's bytes and runs them in a confined child.
set -u
work="$(mktemp -d)"
cd "$work" || exit 1
python3 -I -m autograder.otter.gradescope
status=$?
cd / && rm -rf "$work"
exit $status
"""


SETUP_SH = """#!/usr/bin/env bash
# Installs the grader into the image's own python3 with pip (no conda, no browser), then makes
# what it installed readable by root only: on the LMS the grader runs as root and each
# submission as another user, who must not read the reference or the hidden cases, whether or
# not the kernel offers Landlock (see docs/SECURITY.md).
set -euo pipefail
cd "${{AUTOGRADER_ROOT:-/autograder}}/source"
{setup_script}
python3 -c 'import sys; sys.exit(0 if sys.version_info >= {min_python} else "setup.sh: the grader needs Python {min_text} or newer; this image has " + sys.version.split()[0] + " (install a newer one with autograder build --setup-script)")'
if ! python3 -m pip --version >/dev/null 2>&1; then
    echo "setup.sh: $(command -v python3) has no pip; installing it"
    if python3 -m ensurepip --upgrade >/dev/null 2>&1; then
        echo "setup.sh: installed pip with python3 -m ensurepip"
    elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "setup.sh: ensurepip is disabled here (as on Debian and Ubuntu); installing python3-pip with apt-get"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -q
        apt-get install -y -q --no-install-recommends python3-pip
    fi
    if ! python3 -m pip --version >/dev/null 2>&1; then
        echo "setup.sh: cannot install pip for $(command -v python3) (no ensurepip, no apt-get as root);" \\
             "add the commands that install it with autograder build --setup-script" >&2
        exit 1
    fi
    echo "setup.sh: now $(python3 -m pip --version)"
fi
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore PIP_BREAK_SYSTEM_PACKAGES=1 PIP_NO_INPUT=1
python3 -m pip install -r requirements.txt
# The wheel again, so that a rebuilt zip of the same version replaces an older install.
python3 -m pip install --no-deps --force-reinstall ./files/{wheel}
python3 -I -c 'import autograder.otter.gradescope'
python3 -I -m autograder.otter.lockdown "$PWD"
"""


def write_autograder_zip(folder: pathlib.Path, root: str | os.PathLike[str], tests: str | os.PathLike[str],
                         settings: Mapping[str, Any], extra_requirements: str = "", setup_script: str = "",
                         name: str = "autograder.zip") -> pathlib.Path:
    """The LMS zip: run_autograder, setup.sh, requirements.txt, otter_config.json, tests/, files/."""
    with tempfile.TemporaryDirectory(prefix="autograder-build-") as staging:
        try:
            wheel = write_wheel(root, pathlib.Path(staging))
        except WheelError as error:
            raise BuildError(said("wheel", "build", problem=str(error))) from None
        config = dict(OTTER_CONFIG, plugins=[{PLUGIN: settings}])
        requirements = "numpy>=1.26\npandas>=2.0\n" + TOML_REQUIREMENT + "\n" + extra_requirements.strip() + "\n" + f"./files/{wheel.name}\n"
        setup = SETUP_SH.format(setup_script=setup_script.strip(), wheel=wheel.name,
                                min_python=MIN_PYTHON, min_text=".".join(map(str, MIN_PYTHON)))
        zip_path = folder / name
        with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as archive:
            _add(archive, "run_autograder", RUN_AUTOGRADER, executable=True)
            _add(archive, "setup.sh", setup, executable=True)
            _add(archive, "requirements.txt", requirements.replace("\n\n", "\n"))
            _add(archive, CONFIG, json.dumps(config, indent=2))
            for test in sorted(pathlib.Path(tests).glob("*.py")):
                _add(archive, f"tests/{test.name}", test.read_text("utf-8"))
            _add(archive, f"files/{wheel.name}", wheel.read_bytes())
    return zip_path
