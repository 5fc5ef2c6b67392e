"""A fuzz case: the files it lays out in its scratch folder, the command lines it runs, and what
it expects of them. Generators (cases_*.py) build cases; checks.py judges the results.
"""

import os
import random
import socket
from dataclasses import dataclass, field

# The documented exit codes (docs/exit-codes.md).
DOCUMENTED = frozenset({0, 1, 2, 3, 64, 65, 66, 69, 73, 74, 75, 130, 143})
# Codes a make that fails may use; a batch adds 1 and 2.
FAILURES = DOCUMENTED - {0}

# Cheap settings every rendering case starts from: 3 frames of 32x18.
TINY = ["--size", "32x18", "--fps", "10", "--hold", "0", "--duration", "0.2"]
# Outputs that are quick to write, with their weights; a folder is made for the sequence.
CHEAP_OUTPUTS = [("out.mp4", 4), ("out.png", 4), ("out.gif", 3), ("out.y4m", 2), ("out.mkv", 2),
                 ("frames/%03d.png", 2), ("out.webm", 1), ("out.mov", 1)]


@dataclass
class Case:
    """One generated case. Paths are relative to the case folder, which is the working
    directory of every run."""
    index: int
    category: str                  # still, preset, manifest, cli, files
    kind: str                      # generator/mutator, e.g. "still/png-ihdr-size"
    owner: str                     # which hardening area a finding here most likely belongs to
    runs: list = field(default_factory=list)      # argv lists (without the binary), started together
    expect: frozenset = DOCUMENTED  # exit codes this case accepts
    names: list = field(default_factory=list)     # a failure line must name one of these
    outputs: list = field(default_factory=list)   # output paths (sequence patterns allowed)
    owned: list = field(default_factory=list)     # other paths slicevid may write: sidecars, lock, report
    protected: list = field(default_factory=list)  # paths that must stay byte-identical even so
    kept_if_interrupted: list = field(default_factory=list)  # must stay byte-identical when a signal ends the run
    gone: list = field(default_factory=list)      # paths that must be gone after a successful run
    forbid: list = field(default_factory=list)    # words a failure line must not use (wrong reason)
    still: str = ""                # the still FFmpeg is asked about (the oracle) when slicevid renders it
    damaged: bool = None           # FFmpeg's verdict on `still`, when known
    oracle: str = ""               # FFmpeg's first error line
    batch: bool = False            # runs are `slicevid batch` (log lines, exit 1/2 for job failures)
    report: str = ""               # a batch --report path that must exist after a signal
    signal_plan: tuple = None      # (delay, [signals], gap) sent to the first run
    race: bool = False             # the runs compete for one output without --force
    stdout: str = ""               # the first run's stdout: "" (read back), "full" (/dev/full), "closed-pipe" (no reader)
    sequential: bool = False       # the runs go one after another (a run, then the run after it), not together
    during: tuple = None           # (file, [version files]): rewritten in place while the last run runs
    verify: list = field(default_factory=list)  # more checks: f(case, results, root) -> [(kind, detail)]
    note: str = ""

    @property
    def command(self):
        """The first run's command line."""
        return self.runs[0] if self.runs else []


def rng_for(seed, index):
    """The random generator of case `index` under `seed`: each case can be rebuilt alone."""
    return random.Random(f"slicevid-fuzz/{seed}/{index}")


def weighted(rng, choices):
    """Picks from [(item, weight), …]."""
    items, weights = zip(*choices)
    return rng.choices(items, weights=weights)[0]


def write(root, relative, data, mode=None):
    """Writes bytes (or text) at `relative` inside `root`, making folders; returns `relative`."""
    path = os.path.join(root, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(data.encode() if isinstance(data, str) else data)
    if mode is not None:
        os.chmod(path, mode)
    return relative


def copy_still(root, relative, still):
    """Copies a corpus still into the case folder."""
    with open(still.path, "rb") as handle:
        return write(root, relative, handle.read())


def symlink(root, relative, target):
    """A relative symbolic link at `relative` pointing at `target` (both inside `root`), so the
    case folder can be copied elsewhere and its links still point inside it."""
    path = os.path.join(root, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    os.symlink(os.path.relpath(os.path.join(root, target), os.path.dirname(path)), path)
    return relative


def fifo(root, relative):
    """A named pipe nobody writes to."""
    path = os.path.join(root, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    os.mkfifo(path)
    return relative


def unix_socket(root, relative):
    """A bound Unix socket file (the socket itself is closed; the file stays)."""
    path = os.path.join(root, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    listener = socket.socket(socket.AF_UNIX)
    try:
        listener.bind(path)
    except OSError:
        return None  # path too long for a socket address: the caller picks something else
    finally:
        listener.close()
    return relative


def victim(root, relative, text="not slicevid's: must stay byte-identical\n"):
    """A file that belongs to someone else; every check hashes it before and after."""
    return write(root, relative, text)


def cheap_output(rng, root):
    """An output path of a quick format (its folder made when it is a sequence)."""
    path = weighted(rng, CHEAP_OUTPUTS)
    if "/" in path:
        os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
    return path


def render_flags(rng):
    """TINY plus the odd harmless variation: threads, fit, quiet."""
    flags = list(TINY)
    if rng.random() < 0.5:
        flags += ["-j", rng.choice(["1", "2"])]
    if rng.random() < 0.4:
        flags += ["--fit", rng.choice(["cover", "contain"])]
    if rng.random() < 0.6:
        flags.append("-q")
    return flags
