"""A private PostgreSQL cluster for the test session: started in a temporary folder, stopped after.

The cluster listens on a Unix socket inside its own temporary folder and on no TCP port, so it
never meets another server on the machine. Its server binaries (``initdb``, ``pg_ctl``) are
looked up on ``PATH``, then in Debian's ``/usr/lib/postgresql/<version>/bin``. PostgreSQL refuses
to run as root, so under root the server runs as the ``postgres`` user (or ``nobody``), which then
owns the folder.

Use the fixtures by importing them into a test module::

    from tests.store.pg import pg, postgres_cluster, postgres_dsn, schema  # noqa: F401

or start a cluster anywhere else (a benchmark) with :func:`private_cluster`::

    with private_cluster() as cluster:
        store = PostgresEventStore(cluster.dsn)
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import psycopg
import pytest
from psycopg import sql

if TYPE_CHECKING:  # imported by the packaging tests where avanti itself is not importable
    from avanti.store.postgres import PostgresEventStore

__all__ = [
    "SERVER_NOT_FOUND",
    "Cluster",
    "ClusterError",
    "pg",
    "postgres_cluster",
    "postgres_dsn",
    "private_cluster",
    "schema",
    "server_binaries",
]

SERVER_NOT_FOUND = (
    "PostgreSQL server not found: install Debian's postgresql package (apt-get install postgresql)"
)
"""The one line the PostgreSQL tests fail with where no server binaries are installed."""

DATABASE = "avanti_test"
"""The database the cluster creates for the tests."""

USER = "avanti"
"""The cluster's superuser, who owns the test database."""

PORT = 5432
"""The port number; it only names the socket file, in a folder no other server uses."""


class ClusterError(Exception):
    """The private cluster could not be set up, started or stopped."""


def _version_key(folder: Path) -> tuple[int, ...]:
    """Sort key for ``/usr/lib/postgresql/<version>/bin``: the numeric version."""
    return tuple(int(part) for part in re.findall(r"\d+", folder.parent.name))


def server_binaries() -> Path | None:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres``, or ``None`` if there is none.

    ``PATH`` first (symbolic links resolved, since ``pg_ctl`` starts the ``postgres`` beside
    it), then the newest of Debian's ``/usr/lib/postgresql/*/bin``.
    """
    candidates: list[Path] = []
    found = shutil.which("pg_ctl")
    if found is not None:
        candidates.append(Path(found).resolve().parent)
    candidates.extend(
        sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=_version_key, reverse=True)
    )
    for folder in candidates:
        if all((folder / name).is_file() for name in ("initdb", "pg_ctl", "postgres")):
            return folder
    return None


def _server_user() -> tuple[int, int] | None:
    """The (uid, gid) to run the server as: ``None`` when not root, else postgres or nobody."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            entry = pwd.getpwnam(name)
            return entry.pw_uid, entry.pw_gid
    raise ClusterError("running as root, and there is neither a postgres nor a nobody user")


class Cluster:
    """A PostgreSQL cluster in a temporary folder, reachable only through its Unix socket."""

    def __init__(self, binaries: Path, *, durable: bool = False) -> None:
        self.binaries = binaries
        """The folder of ``initdb``, ``pg_ctl`` and ``postgres``."""
        self.durable = durable
        """Whether the server flushes to disk (``fsync``). Off by default: a commit still
        reaches the operating system before it is acknowledged, so it survives the server being
        killed (``stop("immediate")``), only not the machine; starts and stops take a fraction
        of the time. Turn it on to measure what a production server does."""
        self._user = _server_user()
        # /tmp when the server's user must reach the folder, or when the usual temporary
        # folder's path is too long for a Unix socket's (about 100 bytes)
        short = self._user is not None or len(tempfile.gettempdir()) > 60
        self.folder = Path(
            tempfile.mkdtemp(
                prefix="avanti-pg-", dir="/tmp" if short and Path("/tmp").is_dir() else None
            )
        )
        """The temporary folder: the data directory, the socket and the server's log."""
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        if self._user is not None:
            os.chown(self.folder, *self._user)

    @property
    def dsn(self) -> str:
        """The connection string of the test database."""
        return self.dsn_for(DATABASE)

    def dsn_for(self, database: str) -> str:
        """The connection string of ``database`` in this cluster."""
        return psycopg.conninfo.make_conninfo(
            host=str(self.folder), port=PORT, user=USER, dbname=database
        )

    def _run(self, *command: str) -> None:
        """Run a server binary as the server's user; :class:`ClusterError` on failure."""
        user, group = self._user if self._user is not None else (None, None)
        done = subprocess.run(
            [str(self.binaries / command[0]), *command[1:]],
            cwd=self.folder,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            user=user,
            group=group,
            extra_groups=[] if self._user is not None else None,
            env={**os.environ, "LC_ALL": "C", "LANG": "C"},
            check=False,
        )
        if done.returncode != 0:
            raise ClusterError(
                f"{command[0]} {command[-1]} failed ({done.returncode}): "
                f"{done.stderr.strip() or done.stdout.strip()}\n{self.log_tail()}"
            )

    def log_tail(self, lines: int = 20) -> str:
        """The last lines of the server's log (empty before the first start)."""
        try:
            text = self.log.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def init(self) -> None:
        """Create the cluster (``initdb``) and point it at the socket folder only."""
        self._run(
            "initdb",
            "--pgdata",
            str(self.data),
            "--username",
            USER,
            "--auth",
            "trust",
            "--encoding",
            "UTF8",
            "--locale",
            "C",
            "--no-sync",
        )
        with (self.data / "postgresql.conf").open("a", encoding="utf-8") as conf:
            conf.write(
                "\n# the private test cluster\n"
                "listen_addresses = ''\n"
                f"unix_socket_directories = '{self.folder}'\n"
                f"port = {PORT}\n"
                "max_connections = 200\n"
                "log_min_messages = warning\n"
                f"fsync = {'on' if self.durable else 'off'}\n"
            )

    def start(self) -> None:
        """Start the server and wait until it accepts connections."""
        self._run("pg_ctl", "--pgdata", str(self.data), "--log", str(self.log), "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        """Stop the server: ``fast`` (clean) or ``immediate`` (as if it crashed)."""
        self._run("pg_ctl", "--pgdata", str(self.data), "-m", mode, "-w", "stop")

    def create_database(self, name: str = DATABASE) -> None:
        """Create a database owned by the cluster's superuser."""
        with psycopg.connect(self.dsn_for("postgres"), autocommit=True) as connection:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))

    def remove(self) -> None:
        """Stop the server if it runs, and delete the folder."""
        if (self.data / "postmaster.pid").exists():
            with contextlib.suppress(ClusterError):
                self.stop("fast")
        shutil.rmtree(self.folder, ignore_errors=True)


@contextlib.contextmanager
def private_cluster(*, durable: bool = False) -> Iterator[Cluster]:
    """A started cluster with the test database; stopped and deleted on exit.

    ``durable`` turns ``fsync`` on (see :attr:`Cluster.durable`).

    :raises ClusterError: no server binaries (:data:`SERVER_NOT_FOUND`), or the cluster did not
        start (the message holds the end of the server's log).
    """
    binaries = server_binaries()
    if binaries is None:
        raise ClusterError(SERVER_NOT_FOUND)
    cluster = Cluster(binaries, durable=durable)
    try:
        cluster.init()
        cluster.start()
        cluster.create_database()
        yield cluster
    finally:
        cluster.remove()


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    """The session's private cluster; the tests fail with one line if PostgreSQL is missing."""
    with contextlib.ExitStack() as stack:
        problem = ""
        try:
            cluster = stack.enter_context(private_cluster())
        except ClusterError as error:
            problem = str(error)
        if problem:
            pytest.fail(problem, pytrace=False)
        yield cluster


@pytest.fixture(scope="session")
def postgres_dsn(postgres_cluster: Cluster) -> str:
    """The connection string of the session cluster's test database."""
    return postgres_cluster.dsn


_SCHEMAS = itertools.count()


@pytest.fixture
def schema() -> str:
    """A schema no other test of this process uses: every test starts on an empty store."""
    return f"test_{next(_SCHEMAS)}"


@pytest.fixture
def pg(postgres_dsn: str, schema: str) -> Iterator[PostgresEventStore]:
    """A fresh store of the session's cluster, on its own schema."""
    from avanti.store.postgres import PostgresEventStore

    with PostgresEventStore(postgres_dsn, schema=schema) as store:
        yield store
