"""How a live value is shown to a learner (`display`) and written as a
lesson answer (`notation`)."""

from __future__ import annotations

from typing import Any

from . import dtypes
from .numbers import as_live, fmt_float, fmt_live
from .obs import Obs, items, otype, single_number, tensor_dtype, tensor_leaves, tensor_shape

MAX_MESSAGE = 300


def _fmt_scalar(v: Any) -> str:
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, complex):
        imag = fmt_float(v.imag)
        sign = "" if imag.startswith("-") else "+"
        return f"({fmt_float(v.real)}{sign}{imag}j)"
    return fmt_live(v)


def _tensor_elem(v: Any, cls: str) -> str:
    if isinstance(v, bool):
        return str(v)
    if cls == "int":
        return str(v)
    if isinstance(v, complex):
        return f"{_tensor_elem(v.real, 'float')}{'+' if v.imag >= 0 else '-'}" + (
            f"{_tensor_elem(abs(v.imag), 'float')}j"
        )
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e8:
        return f"{v:.0f}."
    return fmt_float(float(v))


def _nest_text(flat: list[str], shape: tuple[int, ...]) -> str:
    if not shape:
        return flat[0] if flat else ""
    if len(shape) == 1:
        return "[" + ", ".join(flat) + "]"
    step = len(flat) // shape[0] if shape[0] else 0
    return (
        "["
        + ", ".join(_nest_text(flat[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0]))
        + "]"
    )


def tensor_text(obs: Obs) -> str:
    """tensor([3., 1.], requires_grad=True), built from the observation."""
    shape, dtype = tensor_shape(obs), tensor_dtype(obs)
    leaves = tensor_leaves(obs)
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


def display_item(obs: Obs) -> str:
    """An item inside a collection: strings quoted."""
    if otype(obs) == "str":
        return repr(str(obs.get("value", "")))
    return display(obs)


def _seq(obs: Obs, kind: str | None) -> str:
    t = otype(obs)
    its = items(obs) or []
    more = ", ..." if obs.get("truncated") else ""
    if t == "dict" and kind != "set":
        pairs = obs.get("items", [])
        body = ", ".join(f"{display_item(k)}: {display_item(v)}" for k, v in pairs)
        return "{" + body + more + "}"
    body = ", ".join(display_item(i) for i in its)
    if t in ("set", "dict") or kind == "set":
        return "{" + body + more + "}" if its else "set()"
    if t == "tuple":
        return "(" + body + ("," if len(its) == 1 else "") + more + ")"
    return "[" + body + more + "]"


def display(live: Obs, kind: str | None = None) -> str:
    """The live value as a learner sees it, in the notation of `kind`."""
    t = otype(live)
    if t == "none":
        return "no error" if kind == "exception" else "None"
    if t == "exception":
        msg = str(live.get("message", ""))
        if len(msg) > MAX_MESSAGE:
            msg = msg[: MAX_MESSAGE - 1] + "\u2026"
        return f"{live.get('name', 'Exception')}: {msg}" if msg else str(live.get("name"))
    if t == "bool":
        v = bool(live.get("value"))
        return ("yes" if v else "no") if kind == "same_storage" else str(v)
    if t in ("int", "float", "complex"):
        return _fmt_scalar(single_number(live))
    if t == "str":
        return (
            str(live.get("value", ""))
            if kind in ("text", "stdout", "choice")
            else repr(str(live.get("value", "")))
        )
    if t == "tensor":
        if kind == "number" and single_number(live) is not None:
            return _fmt_scalar(single_number(live))
        if kind == "shape":
            return f"torch.Size({list(tensor_shape(live))})"
        if kind == "dtype":
            return f"torch.{tensor_dtype(live)}"
        if kind in ("bool", "same_storage") and single_number(live) is not None:
            return display({"type": "bool", "value": bool(single_number(live))}, kind)
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
        return _seq(live, kind)
    if t in ("module", "object"):
        return str(live.get("repr") or live.get("class"))
    return str(live)


__all__ = ["as_live", "display", "display_item", "tensor_text"]
