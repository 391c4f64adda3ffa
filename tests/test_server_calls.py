"""The owner/worker contract is one table (imperial_tui/server/calls.py) that both sides read:
a method that changes a table is either a call in it or declared local with its reason, every
call has its handler in the owner, and a message that does not fit the table is refused."""

from __future__ import annotations

import ast
import inspect
import textwrap

import pytest

from imperial_tui.server import calls
from imperial_tui.server.hub import Hub
from imperial_tui.server.mirror import MirrorHub, MirrorTable
from imperial_tui.server.owner import Owner
from imperial_tui.server.table import Table
from imperial_tui.server.wire import WireError

MUTATORS = {"append", "extend", "clear", "pop", "insert", "remove", "update", "add", "discard"}
STORE_READS = {"get_user", "game", "games", "log", "list_users"}


def _rooted_at_self(node: ast.AST) -> bool:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return isinstance(node, ast.Name) and node.id == "self"


def _dotted(node: ast.AST) -> list[str]:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return parts[::-1]


def changing_methods(cls: type) -> set[str]:
    """The methods of ``cls`` (its own source) that change it: they assign to or through
    ``self``, call a mutating method of something of ``self``'s, write to the store, or call
    such a method of ``self``'s. Properties only read."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    (klass,) = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    methods = {
        n.name: n
        for n in klass.body
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
        and n.name != "__init__"  # (a table being made)
        and not any(_dotted(d)[-1:] == ["property"] for d in n.decorator_list)
    }
    direct: dict[str, bool] = {}
    calls_self: dict[str, set[str]] = {}
    for name, fn in methods.items():
        changes = False
        called = set()
        for node in ast.walk(fn):
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    elts = t.elts if isinstance(t, ast.Tuple) else [t]
                    if any(
                        isinstance(e, (ast.Attribute, ast.Subscript)) and _rooted_at_self(e)
                        for e in elts
                    ):
                        changes = True
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                path = _dotted(node.func)
                store_call = path[:3] == ["self", "hub", "store"] and len(path) > 3
                if store_call and path[3] not in STORE_READS:
                    changes = True
                elif path[:1] == ["self"] and len(path) == 2:
                    called.add(path[1])
                elif path[:1] == ["self"] and path[-1] in MUTATORS:
                    changes = True
        direct[name] = changes
        calls_self[name] = called & set(methods)
    changing = {n for n, c in direct.items() if c}
    grew = True
    while grew:  # a method that calls a changing method changes too
        grew = False
        for name, called in calls_self.items():
            if name not in changing and called & changing:
                changing.add(name)
                grew = True
    return changing


def test_every_method_that_changes_a_table_is_a_call_or_declared_local() -> None:
    forwarded = {k.split(".", 1)[1] for k in calls.FORWARDED if k.startswith("Table.")}
    changing = changing_methods(Table)
    assert {"apply", "undo", "say", "set_pace", "_commit", "start"} <= changing  # it finds them
    unclassified = changing - forwarded - set(calls.LOCAL)
    assert not unclassified, (
        f"Table methods {sorted(unclassified)} change a table but are neither a call in "
        "imperial_tui/server/calls.py (FORWARDED, with a handler in owner.py and an override "
        "in mirror.py) nor declared LOCAL there with the reason a copy may run them"
    )


def test_the_check_finds_a_new_changing_method() -> None:
    """A new operation added without a call is caught (the test above would fail)."""

    class Grown(Table):
        def kick_player(self, user: str) -> None:
            seat = self.seat_of(user)
            if seat is not None:
                self.hub.store.take_seat(self.id, seat.seat, "", "")

        def shout(self, text: str) -> None:
            self.chat.append((0, text))

        def helper(self) -> None:
            self.shout("x")

        def looks(self) -> int:
            return len(self.seats)

    assert changing_methods(Grown) == {"kick_player", "shout", "helper"}


def test_the_table_names_real_methods_and_both_sides_implement_every_call() -> None:
    for name in calls.LOCAL:
        assert callable(getattr(Table, name, None)), f"LOCAL names no Table method {name}"
    for dotted in calls.FORWARDED:
        cls_name, name = dotted.split(".")
        base, copy = (Table, MirrorTable) if cls_name == "Table" else (Hub, MirrorHub)
        assert callable(getattr(base, name, None)), dotted
        # a worker's copy turns it into the call: it must not run the owner's code
        assert getattr(copy, name) is not getattr(base, name), f"{copy.__name__}.{name}"
    assert set(calls.CALLS) == set(calls.Op)
    handlers = {n[4:] for n in vars(Owner) if n.startswith("_on_")}
    assert handlers == {op.value for op in calls.Op}


@pytest.mark.parametrize(
    ("message", "why"),
    [
        ({"op": "launch"}, "unknown call"),
        ({}, "unknown call"),
        ({"op": "apply", "id": 1, "user": "anna"}, "no action"),
        ({"op": "apply", "user": "anna", "action": "x"}, "no id"),
        ({"op": "apply", "id": "1", "user": "anna", "action": "x"}, "id is not a int"),
        ({"op": "apply", "id": 1, "user": "anna", "action": "x", "expect": "3"}, "expect"),
        ({"op": "pace", "id": 1, "pace": True}, "pace is not a number"),
        ({"op": "say", "id": 1, "user": ["anna"], "text": "hi"}, "user is not a str"),
        ({"op": "table", "id": 1, "have": 2.5}, "have is not a int"),
    ],
)
def test_a_message_that_does_not_fit_the_table_is_refused(message: dict, why: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(WireError, match=why):
        calls.check(message)


def test_a_message_that_fits_is_taken() -> None:
    op, call = calls.check({"op": "apply", "id": 3, "user": "anna", "action": "x", "have": 4})
    assert op is calls.Op.APPLY and call.game and call.hosts
    assert calls.check({"op": "pace", "id": 1, "pace": 1})[0] is calls.Op.PACE
