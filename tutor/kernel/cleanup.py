"""Remove a lesson run's working directory, whatever the run left in it.

`shutil.rmtree` recurses once per directory level, so 3000 nested directories raise
RecursionError (in the zygote, that killed the kernel), and it holds one file
descriptor per level.  `remove_tree` walks the tree with one open directory at a
time, going down by name and back up through `..`: no recursion, no path longer
than a name, a bounded number of file descriptors and a time limit.  It never
raises; what it cannot remove (another user's file, a mount point) it leaves.
Stdlib only.
"""

from __future__ import annotations

import os
import stat
import time

from tutor.kernel.procs import rmdir_quiet

_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)


def _open_dir(name: str, parent: int | None) -> int | None:
    """Open directory `name` (in `parent`), making it readable first if need be."""
    for attempt in (1, 2):
        try:
            return os.open(name, _DIR_FLAGS, dir_fd=parent)
        except PermissionError:
            if attempt == 2:
                return None
            try:  # a lesson may have chmod'ed it 000: it is still ours to remove
                os.chmod(name, 0o700, dir_fd=parent, follow_symlinks=False)
            except (OSError, NotImplementedError):
                return None
        except OSError:
            return None
    return None


def remove_tree(path: str, seconds: float = 30.0) -> bool:
    """Remove `path` and everything under it within `seconds`; True when it is gone.

    Never raises.  Symbolic links are removed, never followed.
    """
    try:
        return _remove(path, time.monotonic() + seconds)
    except BaseException:  # noqa: B036 - a cleanup that raises is worse than one that stops
        return False


def _remove(path: str, deadline: float) -> bool:
    try:
        top = os.lstat(path)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    if not stat.S_ISDIR(top.st_mode):
        try:
            os.unlink(path)
            return True
        except OSError:
            return False
    fd = _open_dir(path, None)
    if fd is None:
        return False
    names: list[str] = []  # the way down from `path`: the name of each open directory
    stuck: set[tuple[int, int]] = set()  # directories that could not be emptied
    try:
        while True:
            if time.monotonic() > deadline:
                return False
            child = _next_subdir(fd, stuck)
            if child is not None:
                sub = _open_dir(child, fd)
                if sub is None:
                    stuck.add(_key(child, fd))
                    continue
                os.close(fd)
                fd = sub
                names.append(child)
                continue
            # `fd` holds no directory left to descend into: go back up and remove it
            if not names:
                break
            here = os.fstat(fd)
            parent = os.open("..", _DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = parent
            name = names.pop()
            try:
                os.rmdir(name, dir_fd=fd)
            except OSError:
                stuck.add((here.st_dev, here.st_ino))
    finally:
        os.close(fd)
    return rmdir_quiet(path)


def _key(name: str, parent: int) -> tuple[int, int]:
    try:
        st = os.stat(name, dir_fd=parent, follow_symlinks=False)
    except OSError:
        return (-1, -1)
    return (st.st_dev, st.st_ino)


def _next_subdir(fd: int, stuck: set[tuple[int, int]]) -> str | None:
    """Remove every non-directory entry of `fd`; the name of a subdirectory to go into."""
    try:
        entries = os.scandir(fd)
    except OSError:
        return None
    with entries:
        for entry in entries:
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                is_dir = False
            if is_dir:
                try:
                    st = entry.stat(follow_symlinks=False)
                    if (st.st_dev, st.st_ino) in stuck:
                        continue
                except OSError:
                    continue
                return entry.name
            try:
                os.unlink(entry.name, dir_fd=fd)
            except OSError:
                pass
    return None
