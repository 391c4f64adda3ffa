"""A worker process's copies of the owner's tables (``imperial serve --workers N``).

The owner process keeps every real table (it checks, stores and serialises each game's
actions, and runs the computer players); the worker processes run the connections' screens,
which are what costs the CPU. A worker keeps a copy of each table, rebuilt from the table's
log as a restart rebuilds it (the action list is the game), and brought up to date by the
owner's messages: ``delta`` below is the one message shape for that. Everything a worker's
player does (a move, an undo, a chat line, a seat) is a call to the owner, answered with the
table's new state, so the screen that made the move shows it at once, as in one process.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from dataclasses import astuple
from typing import Any

from imperial_tui.server.calls import Op
from imperial_tui.server.hub import Client, Hub
from imperial_tui.server.store import GameRecord, SeatRecord, Store
from imperial_tui.server.table import Refused, Seat, Table, clean_chat
from imperial_tui.server.wire import Caller, WireError
from rules import IllegalAction, RuleSet
from rules.savefile import SaveError, game_from_dict

log = logging.getLogger("imperial.server")


def delta(table: Table, since: int, header: bool = True) -> dict[str, Any]:
    """A table's state for a copy that holds the first ``since`` lines of its log (and, when
    ``header`` is False, already has the game's header: it never changes once set)."""
    since = max(0, min(since, len(table.log)))
    return {
        "id": table.id,
        "title": table.title,
        "creator": table.creator,
        "created": table.created,
        "status": table.status,
        "settings": table.settings,
        "header": table.header if header else None,
        "seats": [
            astuple(SeatRecord(s.seat, s.name, s.kind, s.user, s.notified)) for s in table.seats
        ],
        "damaged": table.damaged,
        "version": table.version,
        "game_version": table.game_version,
        "from": since,
        "log": table.log[since:],
    }


class MirrorTable(Table):
    """A table as a worker sees it: read like the owner's, changed only through the owner."""

    hub: MirrorHub
    taken = False  # a state of the owner's has been taken

    def take(self, d: dict[str, Any]) -> bool:
        """Bring this copy up to ``d`` (older news is ignored); True when it changed."""
        if d["version"] < self.version or (d["version"] == self.version and self.taken):
            return False  # the owner changes the version with everything a screen shows
        self.taken = True
        start = d["from"]
        if start > len(self.log):
            raise WireError(f"game {self.id}: a gap in the log ({start} > {len(self.log)})")
        self.title = d["title"]
        self.status = d["status"]
        self.settings = dict(d["settings"])
        self.seats = [Seat(*s) for s in d["seats"]]
        if self.header is None and d["header"] is not None:
            self.header = d["header"]
        if d["damaged"]:
            self.damaged = d["damaged"]  # the owner could not replay it: nor would a copy
        new = [tuple(e) for e in d["log"][len(self.log) - start :]]
        if self.game is None and self.header is not None and not self.damaged:
            self._build()
        for kind, text, ply in new:
            self.log.append((kind, text, ply))
            self._replay(kind, text, ply)
        self.version = max(self.version, d["version"])
        self.game_version = max(self.game_version, d["game_version"])
        self._views.clear()
        return True

    def _build(self) -> None:
        try:
            self.game = game_from_dict(
                dict(self.header or {}, actions=[]), source=f"game {self.id}"
            ).game
        except SaveError as exc:
            self.damaged = f"cannot be replayed: {exc}"
            return
        for kind, text, ply in self.log:
            if kind != "chat":  # (chat lines were taken as they came)
                self._replay(kind, text, ply)

    def _replay(self, kind: str, text: str, ply: int) -> None:
        if kind == "chat":
            self.chat.append((ply, text))
            return
        game = self.game
        if game is None or self.damaged:
            return
        try:
            if kind == "action":
                game.apply(text)
            elif kind == "undo":
                game.undo()
        except (IllegalAction, IndexError) as exc:
            self.damaged = f"cannot be replayed: {getattr(exc, 'reason', exc)}"
            log.error("game %s %s (in a worker's copy)", self.id, self.damaged)

    # -- what the owner does: here, calls to it -------------------------------------------------
    def _make_bots(self) -> None:
        """The owner runs the computer players."""

    def wake(self) -> None:
        """The owner notifies and moves computer players."""

    def set_pace(self, pace: float) -> None:
        """Kept by the owner; a failure leaves the old pace (a setting, never worth a crash)."""
        try:
            self.hub.call(Op.PACE, self, pace=pace)
        except IllegalAction as exc:
            log.error("game %s: the pace was not kept: %s", self.id, exc.reason)
            return
        self.settings["pace"] = pace

    def apply(self, user: str, action: Any, expect: int | None = None) -> None:
        self.hub.call(Op.APPLY, self, user=user, action=str(action), expect=expect)

    def undo(self, user: str) -> int:
        return int(self.hub.call(Op.UNDO, self, user=user).get("steps", 0))

    def say(self, user: str, text: str) -> None:
        line = clean_chat(text)  # here already: a pasted book never crosses to the owner
        if line:
            self.hub.call(Op.SAY, self, user=user, text=line)

    def reset(self) -> None:
        """Forget everything taken (before taking the whole table again)."""
        self.log, self.chat, self.game, self.header = [], [], None, None
        self.version = self.game_version = 0
        self.damaged = None
        self.taken = False
        self._views.clear()


class MirrorHub(Hub):
    """The hub of a worker: its own connections, copies of the tables, calls to the owner."""

    def __init__(self, store: Store, caller: Caller, default_pace: float = 0.6) -> None:
        super().__init__(store, default_pace=default_pace)
        self.caller = caller
        self._ids: dict[Client, int] = {}
        self._next_id = 0
        # what to do when the owner is gone (the worker process ends: its players are told)
        self.on_broken: Callable[[], None] = lambda: None

    # -- calls --------------------------------------------------------------------------------
    def call(self, op: Op, table: Table | None = None, **args: Any) -> dict[str, Any]:
        """Ask the owner; its answer's table state is taken before returning, and its refusal
        is raised as the same exception an in-process table raises."""
        if table is not None:
            args.update(id=table.id, have=len(table.log))
        try:
            answer = self.caller.call(op, **args)
        except WireError as exc:
            log.error("%s", exc)
            if self.caller.broken:
                self.on_broken()
                raise Refused("the server lost its games' process; reconnect") from None
            raise Refused("that is too large to send") from None
        for d in answer.get("tables", ()):
            self.take(d)
        if "refused" in answer:
            raise Refused(answer["refused"])
        if "illegal" in answer:
            raise IllegalAction(answer["illegal"], answer.get("rule"))
        return answer

    def take(self, d: dict[str, Any]) -> MirrorTable:
        table = self.tables.get(d["id"])
        if not isinstance(table, MirrorTable):
            record = GameRecord(
                d["id"], d["title"], d["creator"], d["created"], d["status"], d["settings"], None
            )
            table = MirrorTable(self, record)
            self.tables[table.id] = table
        try:
            changed = table.take(d)
        except WireError:
            # cannot happen on an ordered stream; if it does, take the whole table again (in
            # place: the screens showing it keep this object)
            log.exception("resynchronising game %s", table.id)
            table.reset()
            whole = self._tell(Op.TABLE, id=table.id, have=0).get("tables", ())
            if whole:
                table.take(whole[0])
            if not table.taken:
                table.damaged = "is out of step in this process; reconnect"
            changed = True
        if changed:
            for listener in list(table.listeners):
                try:
                    listener(table)
                except Exception:  # one broken connection must not stop the others
                    log.exception("a listener of game %s failed", table.id)
            self.table_changed(table)
        return table

    # -- the hub's interface ------------------------------------------------------------------
    def load(self) -> list[Table]:
        """Every table, one call each (a server's whole history in one message could be
        larger than a message may be)."""
        before = set(self.tables)
        for game_id in self.call(Op.HELLO)["ids"]:
            with contextlib.suppress(Refused):  # (gone in the meantime)
                self.call(Op.TABLE, id=int(game_id), have=0)
        return [t for i, t in self.tables.items() if i not in before]

    def wake(self) -> None:
        """The owner wakes its tables."""

    async def stop(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)

    def tell(self, op: Op, **args: Any) -> None:
        """A call whose answer does not matter."""
        self._tell(op, **args)

    def _tell(self, op: Op, **args: Any) -> dict[str, Any]:
        """A call whose failure only means the owner is gone (the worker then ends)."""
        try:
            return self.caller.call(op, **args)
        except WireError as exc:
            log.error("%s", exc)
            if self.caller.broken:
                self.on_broken()
            return {}

    def admit(self, user: str) -> str | None:
        answer = self._tell(Op.ADMIT, user=user)
        if not answer:
            return "the server lost its games' process; try again in a moment"
        return None if answer.get("ok") else str(answer.get("why") or "the server is full")

    def release(self, user: str) -> None:
        self._tell(Op.RELEASE, user=user)

    def connect(self, client: Client) -> None:
        super().connect(client)
        self._next_id += 1
        self._ids[client] = self._next_id
        self._tell(Op.CONNECT, user=client.user, client=self._next_id)

    def disconnect(self, client: Client) -> None:
        super().disconnect(client)
        cid = self._ids.pop(client, None)
        if cid is not None:
            self._tell(Op.DISCONNECT, client=cid)

    def turn(self, client_id: int, game_id: int) -> None:
        """The owner says it became this connection's user's decision in ``game_id``."""
        table = self.tables.get(game_id)
        for client, cid in list(self._ids.items()):
            if cid == client_id and table is not None:
                try:
                    client.on_turn(table)
                except Exception:
                    log.exception("ringing %s failed", client.user)

    def create_game(
        self,
        creator: str,
        seats: list[tuple[str, str]],
        rules: RuleSet,
        seed: int | None,
        hidden_cash: bool,
        title: str | None = None,
    ) -> Table:
        answer = self.call(
            Op.CREATE,
            creator=creator,
            seats=[list(s) for s in seats],
            rules={
                "game": rules.game,
                "edition": rules.edition,
                "variant": rules.variant,
                "options": rules.options(),
            },
            seed=seed,
            hidden_cash=hidden_cash,
            title=title,
        )
        return self.tables[int(answer["id"])]

    def join(self, user: str, table: Table) -> Seat:
        self.call(Op.JOIN, table, user=user)
        seat = table.seat_of(user)
        if seat is None:
            raise Refused("this game has no free seat")
        return seat
