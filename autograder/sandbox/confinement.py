"""What a child may read and write, prepared once in the zygote and entered by every child.

A child may read Python's own folders (every import folder) and a few system paths, but never
the grader's private code: the reference package and the grader itself with its hidden cases.
Landlock only allows, it cannot deny, so in a folder that holds private code each other entry
needs a rule of its own, and where private code lies deeper (site-packages inside the standard
library's folder, as in conda and system installs) each entry along the way does too.

Each child enters two Landlock layers; it may do only what both allow:

- the read layer: those rules, built once per zygote whatever their number (a non-editable
  install beside 2,000 packages needs 2,000), kept by the kernel in one ruleset the zygote
  holds one descriptor of. Each run's working folder is added to it when its request arrives.
  A child enters it with one system call (the kernel copies the rules: about 0.25 µs each).
- the run layer, built by each child: every import folder and system path whole for reading,
  its own working folder for everything, /dev/null, no TCP, no signals outside. A dozen rules.
"""
from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import stat
import sys
from typing import TYPE_CHECKING

from . import landlock

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from _typeshed.importlib import PathEntryFinderProtocol

# Top-level names a child must never read: the references, the labs with their hidden cases,
# and the grader.
PRIVATE_NAMES = ("solutions", "labs", "autograder")
# Outside Python's own folders, the few system paths an honest submission may need to read.
SYSTEM_READABLE = ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/etc/localtime", "/etc/ld.so.cache")
# Distinct working folders the read layer collects before it is built afresh (each pins the
# folder's inode in the kernel until then).
MAX_WORKDIRS = 1024


class Confinement:
    """The zygote's prepared layers, and the import folders it reroutes for its children."""

    def __init__(self, abi: int, roots: list[int], import_dirs: list[tuple[str, int]], read_layer: ReadLayer | None
                 ) -> None:
        self.abi = abi
        self.roots = roots  # [fd]: import folders and system paths, for each child's run layer
        self.import_dirs = import_dirs  # [(path, fd)]: import folders, for rerouting
        self.read_layer = read_layer

    @classmethod
    def prepare(cls) -> Confinement:
        abi = landlock.abi_version()
        import_dirs = [(p, fd) for p in dict.fromkeys(p for p in sys.path if p and os.path.isdir(p))
                       if (fd := _open_path(p)) is not None]
        system = [fd for fd in map(_open_path, SYSTEM_READABLE) if fd is not None]
        trees = [p for p, _ in import_dirs] + [p for p in SYSTEM_READABLE if os.path.exists(p)]
        read_layer = ReadLayer(abi, trees, private_folders(p for p, _ in import_dirs)) if abi > 0 else None
        return cls(abi, [fd for _, fd in import_dirs] + system, import_dirs, read_layer)

    def admit(self, workdir: object) -> bool:
        """Let the coming child read `workdir`; True when children forked before must not be used."""
        return self.read_layer is not None and self.read_layer.admit(workdir)

    def apply(self, workdir: str) -> None:
        """Enter both layers (nothing when the kernel has no Landlock)."""
        if self.abi <= 0:
            return
        self.read_layer.enforce()  # type: ignore[union-attr]  # Landlock is there: so is the layer
        with landlock.Ruleset(self.abi, landlock.handled_fs(self.abi), isolate=True) as run_layer:
            for fd in self.roots:
                run_layer.allow_fd(fd, landlock.READ)
            if not run_layer.allow(workdir, landlock.handled_fs(self.abi)):
                raise PermissionError(f"cannot open the working folder {workdir}")
            run_layer.allow(os.devnull, landlock.READ_FILE | landlock.WRITE_FILE)
            run_layer.enforce()

    def reroute_imports(self) -> set[int]:
        """Reroute the import folders a child's user cannot walk (see _reroute), and let modules be
        found in folders a child may not list (see ProbingFinder). Returns the handles every child
        must keep open."""
        sys.path_hooks[:] = [_probing(hook) for hook in sys.path_hooks]
        sys.path_importer_cache.clear()
        return self._reroute()

    def _reroute(self) -> set[int]:
        """Reach import folders a child's user cannot walk to (e.g. Python under a 0700 /root).

        A handle opened by the zygote reaches the folder through /proc/self/fd without walking
        its ancestors. Done once in the zygote (children inherit the paths and the handles):
        rewriting every module's search path in each child costs milliseconds of copied pages.
        Returns the handles every child must keep open.
        """
        kept: set[int] = set()
        for path, fd in self.import_dirs:
            if _others_can_enter(path):
                continue
            alias = f"/proc/self/fd/{fd}"
            kept.add(fd)
            sys.path[:] = [_rebase(p, path, alias) for p in sys.path]
            for module in list(sys.modules.values()):
                search = getattr(module, "__path__", None)
                if type(search) is list:
                    search[:] = [_rebase(p, path, alias) for p in search]
        sys.path_importer_cache.clear()
        return kept


class ReadLayer:
    """The read rules in one kernel ruleset, built once; working folders are added as they come."""

    def __init__(self, abi: int, trees: Iterable[str], private: Iterable[str]) -> None:
        self.abi, self.trees, self.private = abi, list(trees), frozenset(private)
        self.ruleset: landlock.Ruleset | None = None
        self.workdirs: set[str] = set()
        self._build()

    def _build(self) -> None:
        ruleset = landlock.Ruleset(self.abi, landlock.READ)
        try:
            for path in readable_paths(self.trees, self.private):
                ruleset.allow(path, landlock.READ)
            ruleset.allow(os.devnull, landlock.READ_FILE)
        except BaseException:
            ruleset.close()
            raise
        if self.ruleset is not None:
            self.ruleset.close()
        self.ruleset = ruleset
        self.workdirs = set()

    def admit(self, workdir: object) -> bool:
        """Add `workdir` (a run's folder, readable from now on); True when the ruleset was replaced."""
        if not isinstance(workdir, str) or workdir in self.workdirs:
            return False
        rebuilt = len(self.workdirs) >= MAX_WORKDIRS
        if rebuilt:
            self._build()
        if self.ruleset.allow(workdir, landlock.READ):  # type: ignore[union-attr]  # built in __init__
            self.workdirs.add(workdir)
        return rebuilt

    def enforce(self) -> None:
        self.ruleset.enforce()  # type: ignore[union-attr]  # built in __init__


def private_folders(import_dirs: Iterable[str]) -> set[str]:
    """Real paths of the folders that hold the grader's or the reference's package.

    Where the running grader and the reference actually are (an editable install keeps them in
    its source tree), and any import folder holding an entry of those names.
    """
    found: set[str] = set()
    for name in PRIVATE_NAMES:
        try:
            spec = importlib.util.find_spec(name)  # finds, never imports: the reference stays unloaded
        except (ImportError, ValueError):
            spec = None
        for location in (spec.submodule_search_locations or []) if spec else []:
            found.add(os.path.dirname(os.path.realpath(location)))
        if spec is not None and spec.origin and spec.submodule_search_locations is None:
            found.add(os.path.dirname(os.path.realpath(spec.origin)))
    for folder in import_dirs:
        if any(os.path.lexists(os.path.join(folder, entry)) for name in PRIVATE_NAMES
               for entry in (name, name + ".py")):
            found.add(os.path.realpath(folder))
    return found


def readable_paths(trees: Iterable[str], private: Iterable[str]) -> list[str]:
    """Paths to allow, each with everything beneath it: all of `trees` except private code.

    A tree with no private folder inside is one path. A private folder contributes its public
    entries (see public_entries); a folder above one contributes each of its entries, and so on
    down to it. Symbolic links are followed before deciding, so none leads into private code.
    A folder that holds private code cannot be listed then (Landlock's rights reach everything
    beneath a folder): ProbingFinder finds modules there without listing it.
    """
    private = {os.path.realpath(p) for p in private}
    public_of: dict[str, set[str]] = {}
    seen: set[str] = set()
    out: list[str] = []

    def public(folder: str) -> set[str]:
        if folder not in public_of:
            try:
                public_of[folder] = set(public_entries(folder, os.listdir(folder)))
            except OSError:
                public_of[folder] = set()
        return public_of[folder]

    def holds_private(path: str) -> bool:
        prefix = path.rstrip(os.sep) + os.sep
        return any(p == path or p.startswith(prefix) for p in private)

    def hidden_inside_private(path: str) -> bool:
        """Beneath a private folder, but not beneath one of its public entries (reached by a link)."""
        for folder in private:
            prefix = folder.rstrip(os.sep) + os.sep
            if path.startswith(prefix) and path[len(prefix):].split(os.sep)[0] not in public(folder):
                return True
        return False

    def visit(path: str, root: bool = False) -> None:
        # An import folder given as a tree is read even inside a private folder (a venv inside
        # the grader's checkout): its own entries are then sorted like any other's.
        if path in seen or (not root and hidden_inside_private(path)):
            return
        seen.add(path)
        if not holds_private(path):
            out.append(path)
            return
        try:
            entries = list(os.scandir(path))
        except OSError:
            return
        for entry in entries:
            if path in private and entry.name not in public(path):
                continue
            try:
                symlink = entry.is_symlink()
            except OSError:
                continue
            visit(os.path.realpath(entry.path) if symlink else entry.path)

    for tree in trees:
        if os.path.exists(tree):
            visit(os.path.realpath(tree), root=True)
    return out


def public_entries(folder: str, names: list[str]) -> Iterator[str]:
    """The entries of a folder holding private code that a child may read.

    In an installation folder (one with `.dist-info` entries, like site-packages) that is every
    entry but the private ones, hidden ones and editable-install finders: whatever else is
    installed there is public, namespace packages and data folders included. In a source tree
    (an editable checkout) only what looks importable: packages, modules and extensions, so
    `.git`, tests and course material stay unreadable.
    """
    installed = any(name.endswith(".dist-info") for name in names)
    for name in sorted(names):
        if name.startswith(".") or name.startswith("__editable__") or name.split(".")[0] in PRIVATE_NAMES:
            continue
        path = os.path.join(folder, name)
        if name == "__pycache__":
            if not _caches_private_code(path):
                yield name
        elif installed:
            yield name
        elif os.path.isdir(path) and (name.endswith((".dist-info", ".data", ".libs"))
                                      or os.path.exists(os.path.join(path, "__init__.py"))):
            yield name
        elif name.endswith((".py", ".so", ".pth", ".pyd")):
            yield name


def _caches_private_code(folder: str) -> bool:
    try:
        return any(name.split(".")[0] in PRIVATE_NAMES for name in os.listdir(folder))
    except OSError:
        return True


def _others_can_enter(path: str) -> bool:
    """Whether a user with no rights of its own can walk to `path` and list it (mode bits only)."""
    path = os.path.abspath(path)
    ancestors = [path]
    while ancestors[-1] != os.path.dirname(ancestors[-1]):
        ancestors.append(os.path.dirname(ancestors[-1]))
    try:
        if any(not os.stat(folder).st_mode & stat.S_IXOTH for folder in ancestors):
            return False
        return bool(os.stat(path).st_mode & stat.S_IROTH)
    except OSError:
        return False


def _rebase(entry: str, old: str, new: str) -> str:
    if entry == old:
        return new
    if isinstance(entry, str) and entry.startswith(old.rstrip(os.sep) + os.sep):
        return new + entry[len(old.rstrip(os.sep)):]
    return entry


def _open_path(path: str) -> int | None:
    try:
        return os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return None


class _Probed:
    """A FileFinder's cache of a folder's names, for a folder that cannot be listed: each name is
    looked up on its own (stat needs no right to list the folder, and reading an entry needs the
    right to read that entry, which Landlock still decides)."""

    def __init__(self, folder: str) -> None:
        self.folder = folder

    def __contains__(self, name: str) -> bool:
        return os.path.lexists(os.path.join(self.folder, name))

    def __iter__(self) -> Iterator[str]:
        return iter(())


class ProbingFinder(importlib.machinery.FileFinder):
    """Python's FileFinder, which finds a module by listing its folder; where the folder cannot be
    listed (a site-packages that holds the grader's private packages beside the course's others),
    it looks each candidate name up instead. Without it, nothing the zygote had not imported
    already could be imported there (a package a course adds with `--requirements`, say)."""

    # FileFinder's own cache, which Python's type stubs leave out.
    def _fill_cache(self) -> None:
        super()._fill_cache()  # type: ignore[misc]
        if not self._path_cache:  # type: ignore[has-type]
            try:
                os.listdir(self.path or os.getcwd())
            except PermissionError:
                self._path_cache = self._relaxed_path_cache = _Probed(self.path or os.getcwd())
            except OSError:
                pass


def _probing(hook: Callable[[str], PathEntryFinderProtocol]) -> Callable[[str], PathEntryFinderProtocol]:
    """The FileFinder path hook replaced by ProbingFinder's, with the loaders Python gives
    FileFinder; other hooks (zip files, editable installs) kept as they are."""
    if getattr(hook, "__qualname__", "").startswith("FileFinder.path_hook"):
        from importlib import _bootstrap_external

        return ProbingFinder.path_hook(*_bootstrap_external._get_supported_file_loaders())  # type: ignore[attr-defined]
    return hook
