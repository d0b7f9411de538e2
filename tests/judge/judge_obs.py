"""Observation builders for the judge tests (plain dicts, as the kernel sends)."""

from __future__ import annotations

from typing import Any

from tutor.judge import JudgeSpec, Status, judge

NONE: dict[str, Any] = {"type": "none"}


def f(v: float | str) -> dict[str, Any]:
    return {"type": "float", "value": v}


def i(v: int) -> dict[str, Any]:
    return {"type": "int", "value": v}


def b(v: bool) -> dict[str, Any]:
    return {"type": "bool", "value": v}


def s(v: str) -> dict[str, Any]:
    return {"type": "str", "value": v}


def t(values: Any, shape: list[int], dtype: str = "float32", **kw: Any) -> dict[str, Any]:
    obs = {
        "type": "tensor", "dtype": dtype, "shape": shape, "values": values,
        "requires_grad": False, "is_leaf": True, "grad_fn": None, "is_parameter": False,
        "device": "cpu", "storage": "s1", "storage_offset": 0,
    }  # fmt: skip
    obs.update(kw)
    return obs


def exc(name: str, message: str = "", mro: list[str] | None = None) -> dict[str, Any]:
    return {
        "type": "exception", "name": name, "message": message,
        "mro": mro or [name, "Exception", "BaseException"],
    }  # fmt: skip


def seq(kind: str, *items: dict[str, Any]) -> dict[str, Any]:
    return {"type": kind, "items": list(items)}


def keys(*names: str) -> dict[str, Any]:
    return {"type": "dict", "items": [[s(n), t(1.0, [])] for n in names]}


def status(kind: str, text: str, live: dict[str, Any], **spec: Any) -> Status:
    return judge(JudgeSpec(kind=kind, **spec), text, live).status


C, P, X, INV = Status.CORRECT, Status.PARTIAL, Status.INCORRECT, Status.INVALID
