"""``imperial rules``: the rules pages on standard output, the same text as F1 in the app
(``imperial_tui.render.rules_text``)."""

from __future__ import annotations

from typing import Annotated

import typer

from imperial_tui.cli.common import EXIT_USAGE, _console, _fail
from imperial_tui.render.rules_text import topics as rules_topics

RULES_TOPICS = rules_topics()


def rules(
    topic: Annotated[
        str | None,
        typer.Argument(
            help=f"One of: {', '.join(RULES_TOPICS)}. Without one, every page.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Print the rules pages (the same text as F1 in the app).

    Each page ends with the rule options that change it and what their defaults do.

    Examples: `imperial rules maneuver`, `imperial rules options`
    """
    from imperial_tui.render.rules_text import all_pages, page, topics

    console = _console()
    if topic is None:
        console.print(all_pages(), markup=False)
        console.print(f"\nTopics: {', '.join(topics())}", markup=False)
        return
    try:
        title, text = page(topic)
    except KeyError as exc:
        _fail(str(exc.args[0]), EXIT_USAGE)
    console.print(f"{title.upper()}\n{text}", markup=False)
