"""The scratch tree of a case: snapshots (every file hashed, links and special files noted
without following them), safe removal, and a copy kept for a finding.

Nothing here follows a symbolic link or opens a FIFO, and nothing removes a path that is not
below the fuzz output folder.
"""

import hashlib
import os
import shutil
import stat


def snapshot(root):
    """Returns {relative path: description} for everything below `root`. A file is described
    by its SHA-256 and mode, a link by its target text, a FIFO or socket by its type only."""
    entries = {}
    for folder, dirs, files in os.walk(root, followlinks=False):
        for name in dirs + files:
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, root)
            info = os.lstat(path)
            if stat.S_ISLNK(info.st_mode):
                entries[relative] = ("link", os.readlink(path))
            elif stat.S_ISDIR(info.st_mode):
                entries[relative] = ("dir", stat.S_IMODE(info.st_mode))
            elif stat.S_ISREG(info.st_mode):
                entries[relative] = ("file", _sha256(path), stat.S_IMODE(info.st_mode))
            else:
                entries[relative] = ("special", stat.S_IFMT(info.st_mode))
    return entries


def _sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def differences(before, after):
    """Returns (created, changed, removed) relative paths between two snapshots; a folder
    counts as changed only when its mode did (its entries are listed on their own)."""
    created = sorted(set(after) - set(before))
    removed = sorted(set(before) - set(after))
    changed = sorted(p for p in set(before) & set(after) if before[p] != after[p])
    return created, changed, removed


def remove_tree(path, fence):
    """Removes `path` (never following links) after checking it lies inside `fence`, the fuzz
    output folder, so a bug in the harness cannot reach anything else."""
    real_fence = os.path.realpath(fence)
    real = os.path.realpath(os.path.dirname(os.path.abspath(path)))
    target = os.path.join(real, os.path.basename(os.path.abspath(path)))
    if os.path.commonpath([real_fence, target]) != real_fence or target == real_fence:
        raise RuntimeError(f"refusing to remove {target}: outside {real_fence}")
    if not os.path.lexists(target):
        return
    # Folders made read-only by a case must be writable again to be emptied.
    for folder, dirs, _ in os.walk(target, followlinks=False):
        for name in dirs:
            full = os.path.join(folder, name)
            if not os.path.islink(full):
                os.chmod(full, 0o755)
    if os.path.isdir(target) and not os.path.islink(target):
        shutil.rmtree(target)
    else:
        os.unlink(target)


def copy_tree(source, destination):
    """Copies a case folder for the findings: files by content, links as links, FIFOs and
    sockets re-created as empty FIFOs / left out (never opened)."""
    os.makedirs(destination, exist_ok=True)
    for folder, dirs, files in os.walk(source, followlinks=False):
        target_folder = os.path.join(destination, os.path.relpath(folder, source))
        os.makedirs(target_folder, exist_ok=True)
        for name in dirs + files:
            path = os.path.join(folder, name)
            target = os.path.join(target_folder, name)
            info = os.lstat(path)
            if stat.S_ISLNK(info.st_mode):
                os.symlink(os.readlink(path), target)
            elif stat.S_ISREG(info.st_mode):
                shutil.copyfile(path, target)
            elif stat.S_ISFIFO(info.st_mode):
                os.mkfifo(target)
            elif stat.S_ISDIR(info.st_mode):
                os.makedirs(target, exist_ok=True)
