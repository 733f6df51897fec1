"""The ``dudo`` command: wires the parts together (web server, terminal game, replay, dice cup,
equilibrium solver, rules).

Each command imports its part only when run, so ``dudo --help`` stays fast. ``solve`` and
``arena`` declare their options once, as the fields of a dataclass (``SolveOptions`` in
:mod:`dudo.terminal.solve_options`, ``ArenaConfig`` in :mod:`dudo.arena.setup`, both light to
import), from which :func:`_options_command` builds the command.
"""

from __future__ import annotations

import dataclasses
import inspect
import os
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar, get_args, get_origin, get_type_hints

import typer
from rich.console import Console

from dudo.arena.setup import ArenaConfig
from dudo.terminal.solve_options import SolveOptions

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

Options = TypeVar("Options", bound="DataclassInstance")


def _options_command(config: type[Options], run: Callable[[Options], int]) -> Callable[..., None]:
    """A command whose parameters are the fields of the dataclass ``config``, the one place
    its options are declared: each field with a ``help`` in its ``metadata`` is an option
    named after the field (or by its ``flags``) with the field's type, default and
    ``metavar``, or an argument where ``argument`` is set; a ``tuple[X, ...]`` field is a
    repeatable option (an argument taking several values). The command builds ``config``
    from what it is given and exits with the code ``run`` returns."""
    hints = get_type_hints(config)
    parameters: list[inspect.Parameter] = []
    repeatable: set[str] = set()
    for item in dataclasses.fields(config):
        meta = item.metadata
        if "help" not in meta:
            continue  # set from Python only
        kind = hints[item.name]
        default: Any = item.default
        if default is dataclasses.MISSING:
            default = inspect.Parameter.empty
        if get_origin(kind) is tuple and get_args(kind)[1:] == (Ellipsis,):
            repeatable.add(item.name)  # typer reads a tuple as fixed-size: a list it is
            kind = types.GenericAlias(list, get_args(kind)[:1])
            if default is not inspect.Parameter.empty:
                kind, default = kind | None, None
        shown = {"metavar": meta.get("metavar"), "help": meta["help"]}
        if meta.get("argument"):
            declared = typer.Argument(**shown)
        else:
            declared = typer.Option(*meta.get("flags", ()), **shown)
        parameters.append(
            inspect.Parameter(
                item.name,
                inspect.Parameter.KEYWORD_ONLY,
                default=default,
                annotation=Annotated[kind, declared],
            )
        )

    def command(**given: Any) -> None:
        values = {k: tuple(v or ()) if k in repeatable else v for k, v in given.items()}
        raise typer.Exit(run(config(**values)))

    vars(command)["__signature__"] = inspect.Signature(parameters)  # what typer reads
    return command


app = typer.Typer(
    name="dudo",
    help="Dudo (Perudo, Cacho, Liar's Dice): play online or in the terminal, replay games, use the dice cup.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.command()
def play(
    players: Annotated[int, typer.Option(help="Seats at the table: you plus bots.")] = 4,
    rules: Annotated[str, typer.Option("--rules", help="Preset: see `dudo rules`.")] = "dudo",
    settings: Annotated[
        list[str] | None,
        typer.Option(
            "--set", help="House rule OPTION=VALUE (repeatable), e.g. --set spot_on=false."
        ),
    ] = None,
    lang: Annotated[str, typer.Option(help="Language of the game: en, es or it.")] = "en",
    seed: Annotated[int | None, typer.Option(help="Seed for dice and bots (replayable).")] = None,
    bots: Annotated[
        str,
        typer.Option(
            help="Bot level: random, easy, medium, hard, a sparring bot (caller, bluffer), "
            "or cmd:COMMAND."
        ),
    ] = "easy",
    name: Annotated[str, typer.Option(help="Your name at the table.")] = "You",
    record_dir: Annotated[Path | None, typer.Option(help="Where to save the game record.")] = None,
    faces: Annotated[
        str,
        typer.Option(
            help="Face names in English: usual (twos, threes, ...) or traditional "
            "(ducks, trains, quads, queens, hexes)."
        ),
    ] = "usual",
) -> None:
    """Play Dudo in the terminal against computer players."""
    from dudo.terminal.play import play_command

    code = play_command(
        players=players,
        rules_name=rules,
        settings=settings or [],
        lang=lang,
        seed=seed,
        bots=bots,
        name=name,
        record_dir=record_dir,
        console=Console(),
        input_fn=None,
        faces=faces,
    )
    raise typer.Exit(code)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game record (JSON).")],
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the final state as JSON instead.")
    ] = False,
    lang: Annotated[str, typer.Option(help="Language: en, es or it.")] = "en",
) -> None:
    """Replay a game record round by round, checking every action."""
    from dudo.terminal.replay import replay_command

    raise typer.Exit(replay_command(file, json_output, Console(), lang=lang))


@app.command()
def verify(
    file: Annotated[Path, typer.Argument(help="A finished game's record (JSON).")],
    lang: Annotated[str, typer.Option(help="Language: en, es or it.")] = "en",
) -> None:
    """Check a server game's dice: the commitment, and every roll from the revealed secret."""
    from dudo.terminal.verify import verify_command

    raise typer.Exit(verify_command(file, Console(), lang=lang))


@app.command()
def cup(
    action: Annotated[
        str | None,
        typer.Argument(help="roll, remove, add, hide, show, status or new; none: interactive."),
    ] = None,
    lang: Annotated[str, typer.Option(help="Language of the cup: en, es or it.")] = "en",
) -> None:
    """The dice cup for a real table: roll, remove a die, add a die, hide/show."""
    from dudo.terminal.cup_screen import cup_command

    raise typer.Exit(cup_command(action, Console(), sys.stdin, lang=lang))


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    data_dir: Annotated[
        Path | None,
        typer.Option(
            help="Folder for the SQLite database (default: $DUDO_HOME or the user data folder)."
        ),
    ] = None,
    database_url: Annotated[
        str | None,
        typer.Option(
            envvar="DUDO_DATABASE_URL",
            help="SQLAlchemy URL of the database, e.g. postgresql://user:pw@host/dudo (default: SQLite in the data folder).",
        ),
    ] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
    log_format: Annotated[
        str,
        typer.Option(
            help="text (lines for a terminal) or json (one JSON object a line, with table "
            "and game ids, for a log collector)."
        ),
    ] = "text",
    limits: Annotated[
        list[str] | None,
        typer.Option(
            "--limit",
            metavar="NAME=VALUE",
            help="Change a server limit (repeatable), e.g. --limit tables_per_minute=20; "
            "the names and defaults are in docs/limits.md.",
        ),
    ] = None,
    redis_url: Annotated[
        str | None,
        typer.Option(
            envvar="DUDO_REDIS_URL",
            help="Redis URL, e.g. redis://127.0.0.1:6379/0: serve one site with other "
            "processes (on this machine or others) that use the same Redis and database.",
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            min=1, help="Server processes on this machine (more than 1 needs --redis-url)."
        ),
    ] = 1,
) -> None:
    """Play online: serve the browser client and the game server (open the printed link)."""
    from dudo.server.run import serve_command

    raise typer.Exit(
        serve_command(
            host,
            port,
            data_dir,
            database_url,
            log_level,
            limits or [],
            log_format,
            redis_url=redis_url,
            workers=workers,
        )
    )


def _solve(options: SolveOptions) -> int:
    _one_blas_thread()
    from dudo.terminal.solve import solve_command

    return solve_command(options, Console())


app.command("solve", help="Compute an equilibrium of one heads-up round and save the strategy.")(
    _options_command(SolveOptions, _solve)
)


@app.command("evaluate")
def evaluate_file(
    file: Annotated[
        Path, typer.Argument(help="A strategy file (or checkpoint) from `dudo solve`.")
    ],
    plot: Annotated[
        Path | None, typer.Option(help="Draw the stored convergence history (.png/.svg/.pdf).")
    ] = None,
) -> None:
    """Evaluate a saved strategy exactly: value, best responses, exploitability."""
    from dudo.terminal.solve import evaluate_command

    raise typer.Exit(evaluate_command(file, plot, Console()))


def _one_blas_thread() -> None:
    """Solvers multiply thin matrices, where BLAS threads wait on each other more than they
    help (3 to 12 times slower on a busy 2-core machine): one thread, unless the user chose.
    Set before numpy is first imported, which the solver commands do lazily."""
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")


@app.command("solve-game")
def solve_game(
    rules: Annotated[str, typer.Option("--rules", help="Preset: see `dudo rules`.")] = "liars-dice",
    settings: Annotated[
        list[str] | None,
        typer.Option("--set", help="House rule OPTION=VALUE (repeatable)."),
    ] = None,
    max_dice: Annotated[int, typer.Option(help="Most dice a player starts with.")] = 2,
    target: Annotated[float, typer.Option(help="Exploitability each round is solved to.")] = 1e-3,
    seconds: Annotated[
        float | None, typer.Option("--time", help="Most seconds spent on each round.")
    ] = None,
    algorithm: Annotated[str, typer.Option(help="dcfr, dcfr+, pcfr+, linear or cfr+.")] = "dcfr",
    start: Annotated[
        list[str] | None,
        typer.Option(
            metavar="AvB",
            help="Solve only this start, e.g. 2v1 (repeatable; default: every start up to --max-dice).",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Book folder (default: $DUDO_HOME/strategies/<rules id>, where the solver bot looks)."
        ),
    ] = None,
    whole_tree_dice: Annotated[
        int,
        typer.Option(
            help="Rounds with more dice than this in all are solved under the imperfect-recall "
            "abstraction (players remember the last bids); fewer on the whole tree."
        ),
    ] = 3,
    iterations: Annotated[
        int, typer.Option(help="Iterations of CFR for each abstract round.")
    ] = 100,
    sweeps: Annotated[
        int,
        typer.Option(
            help="Where a right spot-on wins a die (values go round in a cycle), solve the "
            "positions concerned this many more times with the values just found: with a "
            "quarter of --iterations, the last time with all of them."
        ),
    ] = 3,
) -> None:
    """Solve whole heads-up games bottom-up and store every round's strategy (a book)."""
    _one_blas_thread()
    from dudo.terminal.solve import solve_game_command

    raise typer.Exit(
        solve_game_command(
            rules,
            settings or [],
            max_dice,
            target,
            seconds,
            algorithm,
            out,
            Console(),
            starts=[_start(text) for text in start or []],
            whole_tree_dice=whole_tree_dice,
            iterations=iterations,
            sweeps=sweeps,
        )
    )


@app.command()
def exploit(
    bots: Annotated[
        list[str] | None,
        typer.Option(
            "--bot",
            help="Bot to measure (repeatable): random, easy, medium, hard, caller, bluffer.",
        ),
    ] = None,
    positions: Annotated[
        list[str] | None,
        typer.Option(
            "--position",
            metavar="AvB",
            help="Heads-up round, e.g. 2v1: the opener's dice v the other's (repeatable).",
        ),
    ] = None,
    rules: Annotated[str, typer.Option("--rules", help="Preset: see `dudo rules`.")] = "liars-dice",
    settings: Annotated[
        list[str] | None,
        typer.Option("--set", help="House rule OPTION=VALUE (repeatable), e.g. --set faces=3."),
    ] = None,
    method: Annotated[
        str,
        typer.Option(
            help="auto (exact where the tree fits, else LBR), exact, or lbr (local best response)."
        ),
    ] = "auto",
    payoff: Annotated[
        str,
        typer.Option(
            help="Exact: game (a call pays the game value of the position it leads to) "
            "or round (+1/-1 for the call)."
        ),
    ] = "game",
    games: Annotated[int, typer.Option(help="LBR: rounds to play (half in each seat).")] = 2000,
    seed: Annotated[int, typer.Option(help="Seed of the bots and of LBR's deals.")] = 0,
    max_histories: Annotated[
        int, typer.Option(help="auto: the largest tree measured exactly (bid histories).")
    ] = 2**24,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Also write the results to this JSON file.")
    ] = None,
) -> None:
    """Measure how exploitable bots are at heads-up rounds (exact or local best response)."""
    _one_blas_thread()
    from dudo.terminal.exploit import exploit_command

    raise typer.Exit(
        exploit_command(
            rules_name=rules,
            settings=settings or [],
            bots=bots or [],
            positions=positions or [],
            method=method,
            payoff=payoff,
            games=games,
            seed=seed,
            max_histories=max_histories,
            json_out=json_out,
            console=Console(),
        )
    )


def _start(text: str) -> tuple[int, int]:
    """``2v1`` → (2, 1): the opener's dice, then the other player's."""
    first, sep, second = text.strip().lower().partition("v")
    if not (sep and first.isdigit() and second.isdigit()):
        raise typer.BadParameter(f"{text!r} is not a start such as 2v1 (opener's dice v other's)")
    return int(first), int(second)


def _arena(config: ArenaConfig) -> int:
    from dudo.arena.command import arena_command

    return arena_command(config, Console())


app.command(
    "arena",
    help="Play many games between bots (seats rotated) and report win rates, ratings and speed.",
)(_options_command(ArenaConfig, _arena))


@app.command("rules")
def rules_command(
    preset_name: Annotated[
        str | None, typer.Argument(metavar="PRESET", help="Show every option of one preset.")
    ] = None,
) -> None:
    """List the presets, or every option of one preset."""
    from dudo.engine import PRESET_SUMMARIES, PRESETS, DudoError, preset

    console = Console()
    if preset_name is None:
        for key, summary in PRESET_SUMMARIES.items():
            console.print(f"[bold]{key}[/bold]: {summary}")
        return
    try:
        chosen = preset(preset_name)
    except DudoError as error:
        console.print(f"[red]error:[/red] {error}")
        raise typer.Exit(2) from None
    for option, value in chosen.to_dict().items():
        default = PRESETS["dudo"].to_dict()[option]
        mark = "" if value == default else "  (differs from dudo)"
        console.print(f"{option} = {value}{mark}")


@app.command("bot-server")
def bot_server(
    bot: Annotated[
        str, typer.Option(help="Bot level: random, easy, medium or hard (or caller, bluffer).")
    ] = "easy",
    seed: Annotated[int | None, typer.Option(help="Seed of the bot's randomness.")] = None,
) -> None:
    """Run a bot behind the JSON-lines protocol on stdin/stdout (see docs/bot-protocol.md)."""
    from dudo.bots.bot_server import bot_server_command

    raise typer.Exit(bot_server_command(bot, seed))


@app.command("odds")
def odds(
    bid: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="BID",
            help="A bid in any notation: 5x3, 'five threes', 'cinco trenes'. "
            "None: every face's expected count and likeliest bids.",
        ),
    ] = None,
    dice: Annotated[
        str | None, typer.Option(help="Your dice, e.g. 1,3,3,5,6 (set-aside ones too).")
    ] = None,
    unknown: Annotated[
        int | None, typer.Option(help="Dice in play you cannot see (your own too, if hidden).")
    ] = None,
    others: Annotated[
        str | None,
        typer.Option(help="Instead of --unknown: the other players' dice counts, e.g. 5,4,5."),
    ] = None,
    revealed: Annotated[
        str | None,
        typer.Option(help="Other players' dice you can see (set aside face up, open round)."),
    ] = None,
    rules: Annotated[str, typer.Option("--rules", help="Preset: see `dudo rules`.")] = "dudo",
    settings: Annotated[
        list[str] | None,
        typer.Option("--set", help="House rule OPTION=VALUE (repeatable)."),
    ] = None,
    obliging: Annotated[
        bool, typer.Option("--obliging", help="An obliging round: aces are not wild.")
    ] = False,
    exact: Annotated[bool, typer.Option("--exact", help="Show exact fractions too.")] = False,
    lang: Annotated[str, typer.Option(help="Language of the output: en, es or it.")] = "en",
) -> None:
    """The exact chance that a bid is true, from your dice and the dice you cannot see."""
    from dudo.terminal.odds_screen import odds_command

    code = odds_command(
        bid or [],
        dice=dice,
        unknown=unknown,
        others=others,
        revealed=revealed,
        rules_name=rules,
        settings=settings or [],
        obliging=obliging,
        exact=exact,
        lang=lang,
        console=Console(),
    )
    raise typer.Exit(code)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
