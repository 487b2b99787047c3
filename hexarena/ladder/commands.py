"""The ladder's commands: ``hexarena ladder serve|account`` and ``hexarena connect`` (docs/ladder.md).
Importing this module is cheap: trio, hypercorn and the referee load when a command runs."""
from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from hexarena.terminal import SafeGroup, echo

TOKEN_ENV = "HEXARENA_LADDER_TOKEN"
T = TypeVar("T")


def _say(line: str) -> None:
    echo(line)
    sys.stdout.flush()


def _log(line: str) -> None:
    """One line of the server's log on stderr: a line break inside it (a peer's words) shown as
    ``\\n``, so that no peer can start a line of its own."""
    echo("ladder: " + line.replace("\r", "\\r").replace("\n", "\\n"), err=True)
    sys.stderr.flush()


@click.group(cls=SafeGroup)
def ladder() -> None:
    """A rating server for engines over the network, as CGOS is for Go (docs/ladder.md)."""


@ladder.command("serve")
@click.argument("config", type=click.Path(dir_okay=False))
@click.option("--data", "data", required=True, type=click.Path(file_okay=False),
              help="The server's folder: accounts (SQLite) and one tournament folder per pool.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Port of the pages (0: a free one).")
@click.option("--ws-port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Port of the bridges' WebSocket endpoint (0: a free one).")
def serve(config: str, data: str, host: str, port: int, ws_port: int) -> None:
    """Run the ladder of CONFIG. The first line printed holds the pages' address and the
    bridges' WebSocket address; Ctrl-C or SIGTERM stops it (games in flight are void)."""
    from .config import ConfigError, load
    from .server import run
    try:
        conf = load(config)
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from None
    from hexarena.referee.tournament.folder_lock import FolderBusy
    from .accounts import StoreError
    try:
        stopped = run(conf, Path(data), host, port, _say, _log, ws_port)
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None
    except FolderBusy as exc:
        raise click.ClickException(f"{exc.folder} is in use by another hexarena process (pid {exc.holder}): a "
                                   "ladder server on the same --data, or a run in a pool's folder") from None
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    if stopped:
        sys.exit(130)


@ladder.group("account", cls=SafeGroup)
def account() -> None:
    """Make, list and revoke the accounts bridges log in with."""


@account.command("add")
@click.argument("name")
@click.option("--data", "data", required=True, type=click.Path(file_okay=False), help="The server's folder.")
def account_add(name: str, data: str) -> None:
    """Make account NAME and print its token (alone on the first line, shown once only). NAME
    may not be a built-in player's (`random`, `mcts:200`): those name a pool's anchors."""
    from hexarena.flag_errors import player_named
    if player_named([name]) is not None:
        raise click.UsageError(f"{name!r} is a built-in player's name, which names a pool's anchor: "
                               "choose another name for the account")
    token = _on_store(data, lambda store: store.add(name))
    click.echo(token)
    echo(f"account {name} made; give its bridge the token through {TOKEN_ENV} or --token-file "
         "(it is shown only now)", err=True)


@account.command("revoke")
@click.argument("name")
@click.option("--data", "data", required=True, type=click.Path(file_okay=False), help="The server's folder.")
def account_revoke(name: str, data: str) -> None:
    """Delete account NAME: its token stops working (its games stay in the journals)."""
    _on_store(data, lambda store: store.revoke(name))
    echo(f"account {name} revoked")


@account.command("list")
@click.option("--data", "data", required=True, type=click.Path(file_okay=False), help="The server's folder.")
def account_list(data: str) -> None:
    """The accounts' names."""
    for name in _on_store(data, lambda store: store.names()):
        echo(name)


@click.command("connect", context_settings={"ignore_unknown_options": True})
@click.argument("url")
@click.argument("engine", nargs=-1, required=True, type=click.UNPROCESSED, metavar="-- ENGINE COMMAND...")
@click.option("--account", required=True, help="The account to log in as.")
@click.option("--token-file", type=click.Path(dir_okay=False, exists=True),
              help=f"A file holding the account's token (else the environment variable {TOKEN_ENV}).")
@click.option("--pools", default="", metavar="P,...", help="The pools to play in (default: every pool of the "
              "engine's games).")
@click.option("--games", type=click.IntRange(1), default=None, help="Stop after this many games.")
@click.option("--out", default="hexarena-connect", show_default=True, type=click.Path(file_okay=False),
              help="Where the games' SGF records and the engine's log go.")
def connect(url: str, engine: tuple[str, ...], account: str, token_file: str | None, pools: str,
            games: int | None, out: str) -> None:
    """Connect the engine ENGINE COMMAND to the ladder server at URL (its ws://.../ladder/ws
    address) and play its games; one line per game. Ctrl-C finishes the game in hand, twice stops now."""
    from urllib.parse import urlsplit
    try:
        where = urlsplit(url)
        where.port                      # a port that is not a number in 0..65535: ValueError
    except ValueError as exc:
        raise click.BadParameter(f"{url!r}: {exc}", param_hint="URL") from None
    if where.scheme not in ("ws", "wss") or not where.hostname:
        raise click.BadParameter(f"{url!r}: expected the server's ws://HOST:PORT/ladder/ws address (or wss://)",
                                 param_hint="URL")
    token = _token(token_file)
    from hexarena.players import get as get_bot
    from hexarena.referee.tournament.config import player_cmd
    from hexarena.referee.tournament.run import expand
    from .bridge import Bridge, Options
    import trio
    argv = tuple(engine)
    if len(argv) == 1 and " " not in argv[0]:
        try:
            get_bot(argv[0])
            argv = tuple(expand(player_cmd(argv[0]), 0))       # a built-in player's name
        except ValueError:
            pass
    options = Options(url, account, token, argv, Path(out), tuple(p for p in pools.split(",") if p), games)
    status = trio.run(Bridge(options, _say).run)
    sys.exit(status)


def _on_store(data: str, act: Callable[[Any], T]) -> T:
    """`act(store)` on the accounts of DATA; an AccountError or StoreError (a database that cannot
    be used, named) becomes the command's error."""
    from .accounts import AccountError, Store, StoreError
    try:
        store = Store(Path(data))
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None
    try:
        return act(store)
    except (AccountError, StoreError) as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        store.close()


def _token(token_file: str | None) -> str:
    if token_file is not None:
        try:
            text = Path(token_file).read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as exc:
            raise click.ClickException(f"cannot read the token file {token_file}: {exc}") from None
    else:
        text = os.environ.get(TOKEN_ENV, "").strip()
    if not text:
        raise click.ClickException(f"no token: set {TOKEN_ENV} or give --token-file (never on the command line)")
    return text
