"""How a live value is shown to a learner, in the notation of the prompt's kind.

A kind's `Style` says how: which view of the live value it looks at (a tensor's
shape for `shape`, the exception raised or "no error" for `exception`), whether
yes/no or True/False, whether strings are quoted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..base import dtypes
from ..base.obs import (
    Obs,
    as_live,
    class_path,
    items,
    numel,
    otype,
    public_exception_name,
    single_number,
    tensor_dtype,
    tensor_leaves,
    tensor_shape,
)  # fmt: skip
from ..comparing.values import live_dtype, live_shape
from ..comparing.words import live_bool, live_exception

MAX_MESSAGE = 300  # characters of an exception's message
MAX_ITEMS = 100  # items of a collection shown
MAX_SHOWN = 4000  # characters of a collection shown (nested ones included): then "…"
MAX_ELEMENTS = 1000  # elements of a tensor shown (torch summarises above 1000 too)


def _same(obs: Obs) -> Obs:
    return obs


@dataclass(frozen=True)
class Style:
    """How one kind shows a live value."""

    view: Callable[[Obs], Obs] = _same  # the live value as this kind sees it
    yes_no: bool = False  # a bool as yes/no (same_storage) instead of True/False
    quote_strings: bool = True  # a str as 'text' (False: as printed)
    none: str = "None"  # how None reads ("no error" for exception)
    as_set: bool = False  # a dict or list as {items}


PLAIN = Style()


def view_number(obs: Obs) -> Obs:
    """A one-element tensor, for a number prompt: its number."""
    if otype(obs) == "tensor":
        v = single_number(obs)
        if v is not None:
            return _scalar(v, tensor_dtype(obs))
    return obs


def view_bool(obs: Obs) -> Obs:
    if otype(obs) != "bool" and otype(obs) == "tensor":
        v = live_bool(obs)
        if v is not None:
            return {"type": "bool", "value": v}
    return obs


def view_shape(obs: Obs) -> Obs:
    dims = live_shape(obs) if otype(obs) == "tensor" else None
    return {"type": "size", "value": list(dims)} if dims is not None else obs


def view_dtype(obs: Obs) -> Obs:
    name = live_dtype(obs) if otype(obs) == "tensor" else None
    return {"type": "dtype", "value": name} if name is not None else obs


view_exception = live_exception


def _scalar(v: Any, dtype: str) -> Obs:
    if isinstance(v, bool):
        return {"type": "bool", "value": v}
    if isinstance(v, complex):
        return {"type": "complex", "real": v.real, "imag": v.imag}
    if isinstance(v, int) and dtypes.dtype_class(dtype) != "float":
        return {"type": "int", "value": v}
    return {"type": "float", "value": float(v)}


def fmt_float(x: float) -> str:
    """A float as torch prints a scalar: 4 decimals, scientific when tiny or huge."""
    if x != x:
        return "nan"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    if x.is_integer() and abs(x) < 1e8:
        return f"{x:.1f}"
    if 1e-4 <= abs(x) < 1e8:
        return f"{x:.4f}"
    return f"{x:.4e}"


def fmt_live(value: int | float) -> str:
    return str(value) if isinstance(value, int) else fmt_float(value)


def _fmt_scalar(v: Any) -> str:
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, complex):
        imag = fmt_float(v.imag)
        sign = "" if imag.startswith("-") else "+"
        return f"({fmt_float(v.real)}{sign}{imag}j)"
    return fmt_live(v)


def _tensor_elem(v: Any, cls: str) -> str:
    if isinstance(v, bool) or cls == "int":
        return str(v)
    if isinstance(v, complex):
        sign = "+" if v.imag >= 0 else "-"
        return f"{_tensor_elem(v.real, 'float')}{sign}{_tensor_elem(abs(v.imag), 'float')}j"
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e8:
        return f"{v:.0f}."
    return fmt_float(float(v))


def _nest_text(flat: list[str], shape: tuple[int, ...]) -> str:
    if not shape:
        return flat[0] if flat else ""
    if len(shape) == 1:
        return "[" + ", ".join(flat) + "]"
    step = len(flat) // shape[0] if shape[0] else 0
    rows = [_nest_text(flat[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])]
    return "[" + ", ".join(rows) + "]"


def tensor_text(obs: Obs) -> str:
    """tensor([3., 1.], requires_grad=True), built from the observation."""
    shape, dtype = tensor_shape(obs), tensor_dtype(obs)
    leaves = tensor_leaves(obs) if numel(shape) <= MAX_ELEMENTS else None
    cls = dtypes.dtype_class(dtype)
    if leaves is None:
        body = f"... {len(shape)}-d, shape {list(shape)} ..."
    else:
        body = _nest_text([_tensor_elem(v, cls) for v in leaves], shape)
    extra = []
    if leaves == [] and len(shape) != 1:
        body = "[]"
        extra.append(f"size={tuple(shape)}")
    if dtype not in dtypes.REPR_DEFAULTS or (leaves == [] and dtype != "float32"):
        extra.append(f"dtype=torch.{dtype}")
    if obs.get("grad_fn"):
        extra.append(f"grad_fn=<{obs['grad_fn']}>")
    elif obs.get("requires_grad"):
        extra.append("requires_grad=True")
    text = f"tensor({', '.join([body, *extra])})"
    return f"Parameter containing:\n{text}" if obs.get("is_parameter") else text


def show_item(obs: Obs, budget: list[int] | None = None) -> str:
    """An item inside a collection: strings quoted."""
    if otype(obs) == "str":
        return repr(str(obs.get("value", "")))
    if otype(obs) in ("list", "tuple", "set", "dict"):
        return _seq(obs, False, budget)
    return show(obs)


def _joined(parts: Iterable[Callable[[], str]], budget: list[int]) -> tuple[str, bool]:
    """Items joined by commas until the budget of characters is spent (each item
    is made only when there is budget left for it)."""
    out: list[str] = []
    for part in parts:
        if budget[0] <= 0:
            return ", ".join(out), True
        text = part()
        budget[0] -= len(text) + 2
        out.append(text)
    return ", ".join(out), False


def _pair(key: Obs, value: Obs, budget: list[int]) -> str:
    return f"{show_item(key, budget)}: {show_item(value, budget)}"


def _alike_floats(its: list[Obs]) -> list[str] | None:
    """Floats side by side in one format, as torch prints a tensor's elements: a whole
    one beside fractions keeps the fractions' 4 decimals ([1.0000, 0.5000], not
    [1.0, 0.5000]).  None unless every item is a float and the formats differ."""
    if not its or any(otype(i) != "float" for i in its):
        return None
    values = [single_number(i) for i in its]
    floats = [float(v) for v in values if isinstance(v, (int, float))]
    if len(floats) != len(values):
        return None
    texts = [fmt_float(v) for v in floats]
    whole = [t.endswith(".0") for t in texts]
    if all(whole) or not any(whole) or any("e" in t or "n" in t for t in texts):
        return None
    return [f"{v:.4f}" if w else t for v, w, t in zip(floats, whole, texts, strict=True)]


def _seq(obs: Obs, as_set: bool, budget: list[int] | None = None) -> str:
    budget = [MAX_SHOWN] if budget is None else budget
    t = otype(obs)
    its = items(obs) or []
    cut = bool(obs.get("truncated")) or len(its) > MAX_ITEMS
    if t == "dict" and not as_set:
        pairs = obs.get("items", [])[:MAX_ITEMS]
        body, spent = _joined((partial(_pair, k, v, budget) for k, v in pairs), budget)
        return "{" + body + (", ..." if cut or spent else "") + "}"
    floats = _alike_floats(its[:MAX_ITEMS])
    if floats is not None:
        body, spent = _joined((partial(str, text) for text in floats), budget)
    else:
        body, spent = _joined((partial(show_item, i, budget) for i in its[:MAX_ITEMS]),
                              budget)
    more = ", ..." if cut or spent else ""
    if t in ("set", "dict") or as_set:
        return "{" + body + more + "}" if its else "set()"
    if t == "tuple":
        return "(" + body + ("," if len(its) == 1 else "") + more + ")"
    return "[" + body + more + "]"


def show(live: Obs, style: Style = PLAIN) -> str:
    """The live value as a learner sees it, in a kind's style."""
    live = style.view(live)
    t = otype(live)
    if t == "none":
        return style.none
    if t == "exception":
        msg = str(live.get("message", ""))
        if len(msg) > MAX_MESSAGE:
            msg = msg[: MAX_MESSAGE - 1] + "\u2026"
        return f"{public_exception_name(live)}: {msg}" if msg else public_exception_name(live)
    if t == "bool":
        v = bool(live.get("value"))
        return ("yes" if v else "no") if style.yes_no else str(v)
    if t in ("int", "float", "complex"):
        return _fmt_scalar(single_number(live))
    if t == "str":
        value = str(live.get("value", ""))
        return repr(value) if style.quote_strings else value
    if t == "tensor":
        rep = live.get("repr")
        return str(rep) if isinstance(rep, str) and rep else tensor_text(live)
    if t == "size":
        return f"torch.Size({[int(d) for d in live.get('value', [])]})"
    if t == "dtype":
        return f"torch.{live.get('value')}"
    if t == "device":
        return str(live.get("value"))
    if t == "grad_fn":
        return str(live.get("name"))
    if t in ("list", "tuple", "set", "dict"):
        return _seq(live, style.as_set)
    path = class_path(live)
    if path is not None:
        return path
    if t in ("module", "object"):
        return str(live.get("repr") or live.get("class"))
    return str(live)


__all__ = ["PLAIN", "Style", "as_live", "fmt_float", "show", "show_item", "tensor_text"]
