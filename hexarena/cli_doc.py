"""docs/cli.md, written from the click definitions of `hexarena`: every command and option.

    python -m hexarena.cli_doc > docs/cli.md

`markdown(group)` walks any click group (nested groups included) with click's own API:
each command's usage line, its help text, its arguments and its options with the help and
defaults `--help` prints. Hidden commands and options are left out, as `--help` leaves them.
tests/test_cli_doc.py fails when docs/cli.md differs from what this prints.
"""
from __future__ import annotations

import sys

import click

REGENERATE = "python -m hexarena.cli_doc > docs/cli.md"

#: The rules every command follows, printed before the commands (tests/test_cli_doc.py checks them).
RULES = """
## Flags and config keys

* **A config key says what is played**: the engines, the games and their variants, time, seeds,
  openings, adjudication, SPRT. It lives in a tournament config (docs/tournament.md) and is saved
  with the run in its folder (`tournament.json`); a resumed run keeps it (a key may only grow
  the run). A file says it best, so `hexarena tournament CONFIG.toml` takes one.
* **A flag says how this run goes**: where it writes (`--out`), how many games at once (`-j`), on
  which processes or machines (`--workers`, `--cluster`, `--affinity`), whether it continues
  (`--resume`), how much it prints (`-q`, `--serve`). A flag is never saved: the same run may
  go on with other flags. `match` and `tournament` take the same flags of a run and run the same
  way (`hexarena/commands_run.py`).
* **An option that sets a config key names it** in its help, as `[config: KEY]`
  (`hexarena match --move-time` sets `time.move`). `match` is a config written as options: it
  builds a config of one pairing from them and runs it as `tournament` runs a file, so
  `hexarena tournament --out OUT --resume` continues a match, and `--games-per-pair N` grows it.
  A flag that stands in for a config key for this run only (`--affinity`, `--log-protocol`)
  names that key too.
* **One command, one job**: the web pages of tournament folders are `serve`, the analysis
  board of one record is `analyse`, the play page is `play`.
* **Outside text**: an argument the program cannot use is an error naming the option or argument
  and the value (exit status 2, no traceback; an engine's command line is split as a shell
  splits it, so an unclosed quote is such an error); a run that fails on its way (a config, an
  engine, a folder) says what and where (exit status 1), as does a file a command cannot make
  or write (`FILE: No such file or directory`); Ctrl-C ends any command with exit status 130.
"""


def markdown(group: click.Group, name: str = "hexarena") -> str:
    """The Markdown page of `group` and every command under it, as one string ending in a newline."""
    root = click.Context(group, info_name=name)
    lines = [f"# The `{name}` command line", "",
             f"Every command and option of `{name}`, as `{name} COMMAND --help` prints them.",
             f"This page is generated from the click definitions (`{REGENERATE}`);",
             "edit the help texts in the code, not this page.", ""]
    lines += [f"* [`{path}`](#{_anchor(path)}): {summary}" for path, summary in _index(root)]
    lines += ["", *RULES.strip("\n").splitlines(), ""]
    lines += _section(root, level=2)
    return "\n".join(lines).rstrip("\n") + "\n"


def _index(ctx: click.Context) -> list[tuple[str, str]]:
    """(command path, one-line summary) of every visible command under `ctx`, depth first."""
    found = []
    for sub in _subcontexts(ctx):
        found.append((sub.command_path, _inline(sub.command.get_short_help_str(limit=120))))
        found += _index(sub)
    return found


def _subcontexts(ctx: click.Context) -> list[click.Context]:
    group = ctx.command
    if not isinstance(group, click.Group):
        return []
    subs = []
    for word in group.list_commands(ctx):
        command = group.get_command(ctx, word)
        if command is not None and not command.hidden:
            subs.append(click.Context(command, info_name=word, parent=ctx))
    return subs


def _section(ctx: click.Context, level: int) -> list[str]:
    """The heading, usage, help, arguments and options of `ctx.command`, then its subcommands."""
    command = ctx.command
    lines = [f"{'#' * level} {ctx.command_path}", "", "```", _usage(ctx), "```", ""]
    for paragraph in _paragraphs(command.help or ""):
        lines += [paragraph, ""]
    arguments = [p for p in command.params if isinstance(p, click.Argument)]
    if arguments:
        lines.append("Arguments: " + ", ".join(f"`{a.make_metavar(ctx)}`" for a in arguments) + ".")
        lines.append("")
    options = [p.get_help_record(ctx) for p in command.get_params(ctx) if isinstance(p, click.Option)]
    shown = [record for record in options if record is not None and record[0] != "--help"]
    if shown:
        lines += ["Options:", ""]
        lines += [f"* `{flags}`" + (f": {_inline(text)}" if text else "") for flags, text in shown]
        lines.append("")
    deeper = level if ctx.parent is None else min(level + 1, 6)     # the root's commands sit beside it
    for sub in _subcontexts(ctx):
        lines += _section(sub, deeper)
    return lines


def _usage(ctx: click.Context) -> str:
    pieces = ctx.command.collect_usage_pieces(ctx)
    return " ".join([ctx.command_path, *pieces])


def _paragraphs(text: str) -> list[str]:
    """click's help text as Markdown paragraphs: text after `\\f` dropped, a `\\b` block kept as lines."""
    text = text.split("\f", 1)[0]
    paragraphs = []
    for block in text.strip().split("\n\n"):
        rows = [row.strip() for row in block.strip().splitlines()]
        if rows and rows[0] == "\b":
            paragraphs.append("\n".join(f"    {row}" for row in rows[1:]))
        elif rows:
            paragraphs.append(_inline(" ".join(rows)))
    return paragraphs


def _inline(text: str) -> str:
    """One line of help text: spaces collapsed (click puts two before `[default: ...]`), and `<` and
    `*` outside code spans escaped, so that `<timestamp>` is not read as an HTML tag."""
    parts = " ".join(text.split()).split("`")
    for i in range(0, len(parts), 2):
        parts[i] = parts[i].replace("<", "\\<").replace("*", "\\*")
    return "`".join(parts)


def _anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, spaces to `-`, other punctuation but `-`/`_` dropped."""
    kept = "".join(c for c in heading.lower() if c.isalnum() or c in " -_")
    return kept.replace(" ", "-")


def main() -> None:
    from hexarena.cli import main as cli
    sys.stdout.write(markdown(cli))


if __name__ == "__main__":
    main()
