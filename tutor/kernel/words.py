"""The kernel's messages a learner reads (a timeout, a process still running, a kernel
that died), in the language tutor speaks.

The kernel package imports nothing else of tutor (it is copied alone onto another
interpreter for `--python`, kernel/launch.py), so it does not import `tutor.i18n`: it
uses that layer when the process has loaded it (tutor's own process always has), and
speaks English where it has not.  The literals given to `_` and `ngettext` here are in
tutor's catalogs like any other (scripts/i18n_catalog.py finds them).
"""

from __future__ import annotations

import sys


def _(message: str) -> str:
    layer = sys.modules.get("tutor.i18n")
    return message if layer is None else str(layer._(message))


def ngettext(singular: str, plural: str, n: int) -> str:
    layer = sys.modules.get("tutor.i18n")
    if layer is None:
        return singular if n == 1 else plural
    return str(layer.ngettext(singular, plural, n))


def N_(message: str) -> str:
    """Marks `message` for the catalog (translated where it is shown, with `_`)."""
    return message
