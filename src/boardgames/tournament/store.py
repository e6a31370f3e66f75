"""A tournament on disk: the manifest, one record per finished game, the summary, the lock.

Files are written atomically as games finish, so an interruption at any
moment leaves a directory that `resume` continues without replaying finished
games; a lock file makes sure only one process at a time plays a directory's
games.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import BadFileError, NotationError, OptionError, TournamentInUseError
from ..io import atomic_write_text, parse_json, read_text
from ..match.records import GameRecord
from .schedule import TournamentSettings, round_robin_tasks
from .standings import TournamentResult
from .tasks import GAMES, GameResult, parse_record_name, record_name

MANIFEST = "tournament.json"
LOCK = "tournament.lock"
SUMMARY = "summary.json"
#: The folder of the programs' stderr logs (`tasks.log_name`).
LOGS = "logs"



class TournamentDir:
    """A tournament on disk: the manifest, one record per finished game, the summary.

    Files are written atomically as games finish, so an interruption at any
    moment leaves a directory that `resume` continues.  One process at a
    time plays a directory's games: `lock()` holds an exclusive lock on
    `tournament.lock` for the whole run, which the system releases when the
    process ends, however it ends.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        if not os.fspath(path):
            raise OptionError("empty directory name (give the tournament's directory)")
        self.path = Path(path)

    @property
    def manifest(self) -> Path:
        """The path of the directory's manifest (the settings)."""
        return self.path / MANIFEST

    @property
    def lock_file(self) -> Path:
        """The path of the lock file that keeps a second run out."""
        return self.path / LOCK

    def exists(self) -> bool:
        """Whether the directory holds a tournament (its manifest)."""
        return self.manifest.is_file()

    def _check_not_a_file(self) -> None:
        if self.path.exists() and not self.path.is_dir():
            raise OptionError(f"{self.path} is a file, not a tournament directory")

    def create(self, settings: TournamentSettings) -> None:
        """Start a new tournament here; refuses a directory that already holds one."""
        self._check_not_a_file()
        if self.exists():
            raise OptionError(f"{self.path} already holds a tournament (continue it with --resume)")
        (self.path / GAMES).mkdir(parents=True, exist_ok=True)
        self.update_settings(settings)

    @contextmanager
    def lock(self, create: bool = False) -> Iterator[TournamentDir]:
        """Hold this directory for the block: TournamentInUseError (naming the
        holder's pid) if another process holds it.  `create` makes the
        directory first (for a new tournament); otherwise it must hold one.

        The lock is `flock` (`msvcrt.locking` on Windows) on an open file, so
        it goes away with the process even after SIGKILL; the file stays.
        """
        self._check_not_a_file()
        if create:
            self.path.mkdir(parents=True, exist_ok=True)
        elif not self.exists():
            self.settings()  # the clear error: no directory, no manifest
        handle = _acquire(self.lock_file, self.path)
        try:
            # Made again if deleted (to play every game again), before any game is
            # played: an error here (a file called games) costs no game.
            (self.path / GAMES).mkdir(exist_ok=True)
            self._remove_stale_temporary_files()
            yield self
        finally:
            _release(handle)

    def _remove_stale_temporary_files(self) -> None:
        """Temporary files of a process killed in the middle of a write (we hold
        the lock, so nobody else is writing)."""
        for folder in (self.path, self.path / GAMES):
            for tmp in folder.glob(".*.json.*.tmp"):
                with contextlib.suppress(OSError):
                    tmp.unlink()

    def settings(self) -> TournamentSettings:
        """The manifest's settings; OptionError or BadFileError naming the fault."""
        self._check_not_a_file()
        try:
            text = read_text(self.manifest)
        except FileNotFoundError:
            what = "is missing" if self.path.is_dir() else "is missing: no such directory"
            raise OptionError(f"{self.path} holds no tournament ({MANIFEST} {what})") from None
        data = parse_json(text, str(self.manifest))
        return TournamentSettings.from_dict(data, str(self.manifest))

    def update_settings(self, settings: TournamentSettings) -> None:
        """Write the manifest (e.g. after --resume --games added games)."""
        atomic_write_text(self.manifest, json.dumps(settings.to_dict(), indent=2) + "\n")

    def save(self, result: GameResult) -> None:
        """Keep a finished game (results with an error are not kept: they are replayed)."""
        if result.record is None or not result.finished:
            return
        result.record.save(self.path / record_name(result.pair, result.index))

    def finished(self, settings: TournamentSettings | None = None) -> list[GameResult]:
        """The games already played, read back from their records.

        Records are only ever written whole and finished, so a record that
        does not load, is unfinished, or is of another game (or the game
        with other options) than the manifest's, was damaged or put there by
        hand: NotationError names the file (delete it, and the game is
        played again), rather than quietly replaying or counting the game.
        """
        settings = settings or self.settings()
        results = []
        for path in sorted((self.path / GAMES).glob("*.json")):
            key = parse_record_name(path.name)
            if key is None:
                continue
            try:
                record = GameRecord.load(path)
            except NotationError as exc:
                raise BadFileError(str(path), f"{exc.reason}; {_DAMAGED}") from None
            _check_same_game(path, record, settings)
            result = GameResult(key[:2], key[2], record)
            if not result.finished:
                raise BadFileError(str(path), f"not a finished game; {_DAMAGED}")
            results.append(result)
        return results

    def result(self, settings: TournamentSettings | None = None) -> TournamentResult:
        """The table of the games finished so far, read from the records."""
        settings = settings or self.settings()
        planned = {task.key for task in round_robin_tasks(settings)}
        results = [r for r in self.finished(settings) if r.key in planned]
        return TournamentResult(
            labels=settings.names,
            results=sorted(results, key=lambda r: r.key),
            planned=settings.planned,
            anchor=settings.anchor,
        )

    def save_summary(self, result: TournamentResult, settings: TournamentSettings) -> None:
        """Write the results table and the settings as `summary.json` (atomically)."""
        summary = {"settings": settings.to_dict(), **result.to_dict()}
        atomic_write_text(self.path / SUMMARY, json.dumps(summary, indent=2) + "\n")


_DAMAGED = "a damaged game record: delete it to play that game again"


def _check_same_game(path: Path, record: GameRecord, settings: TournamentSettings) -> None:
    """BadFileError unless `record` is of the tournament's game, with the options
    the manifest names (those the record keeps: Hadron's size becomes rows, cols)."""
    differ = [k for k, v in settings.params.items() if k in record.params and record.params[k] != v]
    if record.game != settings.game or differ:
        theirs = " ".join([record.game, *(f"{k}={record.params[k]}" for k in differ)])
        ours = " ".join([settings.game, *(f"{k}={settings.params[k]}" for k in differ)])
        raise BadFileError(str(path), f"a record of {theirs}, not {ours}; {_DAMAGED}")


#: How long a lock whose holder has died may take to go: the holder's forked
#: workers share its lock and end within about a second of it.
ORPHAN_LOCK_WAIT = 5.0


def _acquire(path: Path, directory: Path) -> int:
    """Open and lock `path`; the descriptor, holding the lock.

    A lock held by a live tournament is refused at once (TournamentInUseError).
    One whose recorded holder is dead (killed outright) is still held for a
    moment by its exiting workers: that one is waited for, up to
    `ORPHAN_LOCK_WAIT` seconds.
    """
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    give_up = time.monotonic() + ORPHAN_LOCK_WAIT
    while True:
        try:
            _lock_fd(fd)
            break
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK, errno.EDEADLK):
                os.close(fd)
                raise
            holder = _read_pid(fd)
            if holder is not None and not _alive(holder) and time.monotonic() < give_up:
                time.sleep(0.05)
                continue
            os.close(fd)
            who = f" (pid {holder})" if holder else ""
            raise TournamentInUseError(
                f"{directory} is in use by another tournament{who}"
            ) from None
    try:
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, f"{os.getpid()}\n".encode())
    except OSError:
        pass  # the pid is only for the message
    return fd


def _release(fd: int) -> None:
    # Unlock explicitly: forked workers share the open file and would keep it.
    with contextlib.suppress(OSError):
        _unlock_fd(fd)
    os.close(fd)


def _alive(pid: int) -> bool:
    """Whether a process `pid` exists (a zombie counts as gone only once reaped)."""
    if os.name == "nt":  # signal 0 would end the process there: never wait
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists, and belongs to another user
        return True
    return True


def _read_pid(fd: int) -> int | None:
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        text = os.read(fd, 32).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


try:
    import fcntl

    def _lock_fd(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)

    def _unlock_fd(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)

except ImportError:  # Windows
    import msvcrt

    def _lock_fd(fd: int) -> None:
        os.lseek(fd, 1 << 20, os.SEEK_SET)  # lock a byte past the pid, which stays readable
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]

    def _unlock_fd(fd: int) -> None:
        os.lseek(fd, 1 << 20, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined]
