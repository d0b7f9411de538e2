"""Turn live Python/torch values into observations (see docs/observations.md).

Runs inside the kernel process only: this module imports torch.
"""

from __future__ import annotations

import math
import reprlib
from typing import Any

import torch

from tutor.kernel.caps import (
    MAX_DEPTH,
    MAX_ELEMENTS,
    MAX_ITEMS,
    MAX_NODES,
    MAX_REPR,
    MAX_STR,
    MAX_TEXT,
    MAX_TOTAL_ELEMENTS,
)
from tutor.kernel.words import Worded

__all__ = ["MAX_DEPTH", "MAX_ELEMENTS", "MAX_ITEMS", "MAX_NODES", "MAX_REPR", "MAX_STR",
           "Observer", "exception", "safe_repr"]


def _float(x: float) -> float | str:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def _clean(values: Any) -> Any:
    if isinstance(values, list):
        return [_clean(v) for v in values]
    if isinstance(values, float):
        return _float(values)
    if isinstance(values, complex):
        return [_float(values.real), _float(values.imag)]
    return values


def _short_repr(value: Any, limit: int) -> str:
    """repr() of a huge or deeply nested builtin container, without building it all."""
    r = reprlib.Repr()
    r.maxlevel, r.maxlist, r.maxtuple, r.maxdict, r.maxset = 6, 100, 100, 50, 50
    r.maxfrozenset, r.maxdeque, r.maxarray = 50, 50, 50
    r.maxstring, r.maxother = min(limit, 2_000), min(limit, 2_000)
    return r.repr(value)


_CONTAINERS = (list, tuple, dict, set, frozenset)


def safe_repr(value: Any, limit: int = MAX_REPR) -> str:
    try:
        if isinstance(value, _CONTAINERS) and len(value) > 10_000:
            text = _short_repr(value, limit)
        else:
            text = repr(value)
    except BaseException as exc:  # a hostile __repr__ must not take the kernel down
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        if isinstance(exc, (RecursionError, MemoryError)) and isinstance(value, _CONTAINERS):
            try:
                return _short_repr(value, limit)[:limit]
            except Exception:  # noqa: BLE001
                pass
        return f"<{type(value).__name__}: repr() raised {type(exc).__name__}>"
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


def _type_name(value: Any) -> str:
    return type(value).__name__[:MAX_REPR]


def exception(exc: BaseException) -> dict[str, Any]:
    if isinstance(exc, KeyError):
        message = safe_repr(exc.args[0] if exc.args else "")
    else:
        try:
            message = str(exc)
        except BaseException as failure:  # noqa: B036 - a hostile __str__
            if isinstance(failure, (KeyboardInterrupt, SystemExit)):
                raise
            message = f"<str() raised {_type_name(failure)}>"
        if not isinstance(message, str):
            message = f"<str() returned {_type_name(message)}>"
    out: dict[str, Any] = {
        "type": "exception",
        "name": _type_name(exc),
        "message": message[:MAX_STR],
        "mro": [c.__name__[:MAX_REPR] for c in type(exc).__mro__ if c is not object][:64],
    }
    if isinstance(exc, Worded) and exc.words and len(message) <= MAX_STR:
        out["words"] = exc.words  # the kernel's own message, to translate (kernel/words.py)
    return out


class Observer:
    """Observes values for one lesson run; labels storages stably within it."""

    def __init__(self) -> None:
        self._storages: dict[int, tuple[str, Any]] = {}
        self._nodes = 0  # observations left for the value being observed
        self._text = 0  # characters of strings and reprs left for it
        self._elements = 0  # tensor values left for it

    def storage_label(self, t: torch.Tensor) -> str | None:
        try:
            storage = t.untyped_storage()
        except (RuntimeError, NotImplementedError):
            return None
        ptr = storage.data_ptr()
        if ptr not in self._storages:
            # keep the storage alive so its address cannot be reused by a new one
            self._storages[ptr] = (f"s{len(self._storages) + 1}", storage)
        return self._storages[ptr][0]

    def same_storage(self, a: Any, b: Any) -> dict[str, Any]:
        for name, t in (("first", a), ("second", b)):
            if not isinstance(t, torch.Tensor):
                raise TypeError(f"same_storage: the {name} expression is a "
                                f"{type(t).__name__}, not a tensor")
        return {"type": "bool",
                "value": a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()}

    def tensor(self, t: torch.Tensor) -> dict[str, Any]:
        obs: dict[str, Any] = {
            "type": "tensor",
            "dtype": str(t.dtype).removeprefix("torch."),
            "shape": list(t.shape),
            "requires_grad": bool(t.requires_grad),
            "is_leaf": bool(t.is_leaf),
            "grad_fn": type(t.grad_fn).__name__ if t.grad_fn is not None else None,
            "is_parameter": isinstance(t, torch.nn.Parameter),
            "device": str(t.device),
            "storage": self.storage_label(t),
            "storage_offset": int(t.storage_offset()) if not t.is_sparse else 0,
            "stride": list(t.stride()) if t.layout == torch.strided else [],
        }
        n = t.numel()
        if n > min(MAX_ELEMENTS, self._elements) or t.layout != torch.strided \
                or t.device.type == "meta":
            obs["truncated"] = True
        else:
            self._elements -= n
            with torch.no_grad():
                obs["values"] = _clean(t.detach().cpu().resolve_conj().resolve_neg().tolist())
        obs["repr"] = self._repr(t)
        return obs

    def _repr(self, value: Any) -> str:
        text = safe_repr(value)
        self._text -= len(text)
        return text

    def observe(self, value: Any, depth: int = 0) -> dict[str, Any]:
        if depth == 0:
            self._nodes, self._text, self._elements = MAX_NODES, MAX_TEXT, MAX_TOTAL_ELEMENTS
        self._nodes -= 1
        if value is None:
            return {"type": "none"}
        if isinstance(value, bool):
            return {"type": "bool", "value": value}
        if isinstance(value, int):
            if abs(value) >= 2**63:
                return {"type": "float", "value": _float(float(value))}
            return {"type": "int", "value": value}
        if isinstance(value, float):
            return {"type": "float", "value": _float(value)}
        if isinstance(value, complex):
            return {"type": "complex", "real": _float(value.real), "imag": _float(value.imag)}
        if isinstance(value, str):
            keep = min(MAX_STR, max(0, self._text))
            out: dict[str, Any] = {"type": "str", "value": value[:keep]}
            self._text -= len(out["value"])
            if len(value) > keep:
                out["truncated"] = True
            return out
        if isinstance(value, torch.Tensor):
            return self.tensor(value)
        if isinstance(value, torch.Size):
            return {"type": "size", "value": list(value)}
        if isinstance(value, torch.dtype):
            return {"type": "dtype", "value": str(value).removeprefix("torch.")}
        if isinstance(value, torch.device):
            return {"type": "device", "value": str(value)}
        if isinstance(value, BaseException):
            out = exception(value)
            self._text -= len(out["message"])
            return out
        if isinstance(value, torch.nn.Module):
            return {"type": "module", "class": _type_name(value), "repr": self._repr(value)}
        if hasattr(value, "next_functions") and hasattr(value, "name"):
            return {"type": "grad_fn", "name": _type_name(value)}
        if type(value).__module__ == "numpy" and hasattr(value, "item"):
            try:
                return self.observe(value.item(), depth)
            except (ValueError, TypeError):
                pass
        container = self._container(value, depth)
        if container is not None:
            return container
        return {"type": "object", "class": _type_name(value), "repr": self._repr(value)}

    def _container(self, value: Any, depth: int) -> dict[str, Any] | None:
        """Containers to MAX_DEPTH levels, MAX_ITEMS items each, MAX_NODES in all.

        What is cut is left out and the container says `truncated`; past the depth
        cap a container comes back with no items at all (so a 10,000-deep list costs
        nine observations, not a RecursionError).
        """
        if isinstance(value, dict):
            kind = "dict"
        elif isinstance(value, (list, tuple, set, frozenset)) or _is_view(value):
            kind = ("tuple" if isinstance(value, tuple)
                    else "set" if isinstance(value, (set, frozenset)) else "list")
        else:
            return None
        if depth >= MAX_DEPTH:
            return {"type": kind, "items": [], "truncated": True}
        pairs = kind == "dict"
        out: dict[str, Any] = {"type": kind, "items": []}
        for n, item in enumerate(value.items() if pairs else value):
            if n >= MAX_ITEMS or self._nodes <= 0 or self._text <= 0:
                out["truncated"] = True
                break
            if pairs:
                k, v = item
                out["items"].append([self.observe(k, depth + 1), self.observe(v, depth + 1)])
            else:
                out["items"].append(self.observe(item, depth + 1))
        return out


def _is_view(value: Any) -> bool:
    return type(value).__name__ in {"dict_keys", "dict_values", "dict_items", "odict_keys",
                                    "odict_values", "odict_items"}

