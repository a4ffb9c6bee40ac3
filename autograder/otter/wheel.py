"""A wheel of this package (engine, hidden cases, reference) for the autograder zip to install."""
import base64
import hashlib
import pathlib
import tomllib
import zipfile

PACKAGES = ("autograder", "solutions")
DATA_SUFFIXES = (".py", ".toml")


def write_wheel(root, folder):
    """Write `<name>-<version>-py3-none-any.whl` from the sources under `root`; returns its path."""
    root = pathlib.Path(root)
    project = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))["project"]
    name = project["name"].replace("-", "_")
    version = project["version"]
    info = f"{name}-{version}.dist-info"
    path = pathlib.Path(folder) / f"{name}-{version}-py3-none-any.whl"
    files = {}
    for package in PACKAGES:
        for source in sorted((root / package).rglob("*")):
            if source.is_file() and source.suffix in DATA_SUFFIXES and "__pycache__" not in source.parts:
                files[source.relative_to(root).as_posix()] = source.read_bytes()
    files[f"{info}/METADATA"] = _metadata(project, name, version).encode()
    files[f"{info}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: autograder build\n"
                              b"Root-Is-Purelib: true\nTag: py3-none-any\n")
    files[f"{info}/entry_points.txt"] = _entry_points(project).encode()
    record = [f"{arcname},sha256={_digest(data)},{len(data)}" for arcname, data in files.items()]
    files[f"{info}/RECORD"] = ("\n".join(record + [f"{info}/RECORD,,"]) + "\n").encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as wheel:
        for arcname, data in files.items():
            wheel.writestr(zipfile.ZipInfo(arcname, date_time=(2020, 1, 1, 0, 0, 0)), data,
                           zipfile.ZIP_DEFLATED)
    return path


def _metadata(project, name, version):
    lines = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}",
             f"Summary: {project.get('description', '')}"]
    if "requires-python" in project:
        lines.append(f"Requires-Python: {project['requires-python']}")
    lines += [f"Requires-Dist: {requirement}" for requirement in project.get("dependencies", [])]
    return "\n".join(lines) + "\n"


def _entry_points(project):
    sections = {"console_scripts": project.get("scripts", {})}
    sections.update(project.get("entry-points", {}))
    return "".join(f"[{group}]\n" + "".join(f"{key} = {value}\n" for key, value in entries.items()) + "\n"
                   for group, entries in sections.items() if entries)


def _digest(data):
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
