"""The host's commands: ``imperial serve export`` and ``import`` never overwrite or duplicate
unasked, ``migrate`` moves a SQLite server's games into PostgreSQL exactly, and ``--help``
names everything a host configures."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

from typer.testing import CliRunner

from imperial_tui.cli import app
from imperial_tui.server.hub import Hub
from imperial_tui.server.store import SQLiteStore, open_store
from rules import Game, RuleSet
from rules.bots import make_bot
from rules.savefile import save_game

runner = CliRunner()


def served_game(data: Path) -> None:
    hub = Hub(SQLiteStore(data / "imperial.db"))
    table = hub.create_game(
        "anna", [("anna", "human"), ("ben", "human")], RuleSet.preset(), 3, True
    )
    hub.join("ben", table)  # (the seat kept for him)
    bot = make_bot("greedy", 1)
    for _ in range(5):
        table.apply(table.game.awaiting.player, bot.choose(table.game))
    hub.store.close()


def test_export_never_overwrites_a_file_without_force(tmp_path: Path) -> None:
    data = tmp_path / "server"
    served_game(data)
    out = tmp_path / "notes.txt"
    out.write_text("my notes")
    result = runner.invoke(app, ["serve", "export", "1", str(out), "--data", str(data)])
    assert result.exit_code == 1
    assert "notes.txt exists; use --force to overwrite it" in result.output
    assert out.read_text() == "my notes"
    result = runner.invoke(app, ["serve", "export", "1", str(out), "--data", str(data), "--force"])
    assert result.exit_code == 0, result.output
    assert out.read_text().startswith("{")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temp left


def test_import_does_not_make_a_second_copy_without_force(tmp_path: Path) -> None:
    game = Game.new(["anna", "ben"], seed=4)
    bot = make_bot("greedy", 2)
    for _ in range(8):
        game.apply(bot.choose(game))
    save_game(game, tmp_path / "g.json", {})
    data = ["--data", str(tmp_path / "server")]
    assert runner.invoke(app, ["serve", "import", str(tmp_path / "g.json"), *data]).exit_code == 0
    again = runner.invoke(app, ["serve", "import", str(tmp_path / "g.json"), *data])
    assert again.exit_code == 1 and "is game #1 on this server already" in again.output
    forced = runner.invoke(app, ["serve", "import", str(tmp_path / "g.json"), *data, "--force"])
    assert forced.exit_code == 0 and "imported as game #2" in forced.output


def test_help_names_every_notify_variable_and_the_limits() -> None:
    result = runner.invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    for name in ("PLAYER", "GAME", "GAME_TITLE", "DECISION", "NATION", "ROUND"):
        assert f"IMPERIAL_{name}" in result.output
    for option in ("--max-per-user", "--max-per-address", "--max-startups", "--login-grace",
                   "--store"):  # fmt: skip
        assert option in result.output


def test_migrate_moves_a_sqlite_servers_games_exactly(tmp_path: Path, pg_url: str) -> None:
    url = pg_url
    data = tmp_path / "server"
    hub = Hub(SQLiteStore(data / "imperial.db"))
    hub.store.claim_user("anna", "ssh-ed25519 AAAA-anna")
    hub.store.claim_user("ben", "ssh-ed25519 AAAA-ben")
    playing = hub.create_game(
        "anna", [("anna", "human"), ("ben", "human")], RuleSet.preset(), 9, True, "a game"
    )
    hub.join("ben", playing)  # (the seat kept for him)
    bot = make_bot("greedy", 3)
    for _ in range(7):
        aw = playing.game.awaiting
        playing.apply(aw.player, bot.choose(playing.game))
    last = playing.game.plies[-1]
    playing.undo(last.before.players[last.before.awaiting_player])
    playing.say("ben", "hi")
    hub.create_game("ben", [("ben", "human"), ("", "open")], RuleSet.preset(), 2, False)
    gone = hub.create_game("ben", [("ben", "human"), ("", "open")], RuleSet.preset(), 1, False)
    hub.store.delete_game(gone.id)  # (numbers with a gap: kept as they are)
    hub.store.close()

    result = runner.invoke(app, ["serve", "migrate", "--from", str(data), "--to", url])
    assert result.exit_code == 0, result.output
    assert "moved 2 users and 2 games" in result.output
    src, dst = SQLiteStore(data / "imperial.db"), open_store(url)
    assert [asdict(u) for u in dst.list_users()] == [asdict(u) for u in src.list_users()]
    assert [asdict(g) for g in dst.games()] == [asdict(g) for g in src.games()]
    for g in src.games():
        assert [asdict(e) for e in dst.log(g.id)] == [asdict(e) for e in src.log(g.id)]
    # the games replay the same on PostgreSQL, and new games continue the numbering
    moved = Hub(dst)
    moved.load()
    assert moved.tables[playing.id].game.state == playing.game.state
    assert moved.tables[playing.id].chat == playing.chat
    assert dst.create_game("c", "c", {}, []) == 4
    again = runner.invoke(app, ["serve", "migrate", "--from", str(data), "--to", url])
    assert again.exit_code == 1 and "has games or users already" in again.output
    src.close()
    dst.close()


def test_server_doc_names_every_option_of_imperial_serve() -> None:
    import typer.main

    from imperial_tui.server.cli import serve_app

    text = (Path(__file__).resolve().parent.parent / "docs" / "SERVER.md").read_text()
    command = typer.main.get_group(serve_app)
    for param in command.params:
        for opt in param.opts:
            if opt.startswith("--") and opt != "--help":
                assert f"`{opt}" in text or f"[{opt}" in text, opt
    for sub in ("users", "games", "export", "import", "migrate"):
        assert f"imperial serve {sub}" in text, sub
