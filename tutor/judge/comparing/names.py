"""Does a typed name name the live value?  Case counts where it carries meaning.

* A string (an attribute name, a `state_dict` key, a child's name) must be typed
  with its exact case: `fc.weight` is not `FC.WEIGHT`, `powModel` is not
  `PowModel`.  A string that reads as a class's name (`Parameter`, from
  `type(p).__name__`) may be typed with a module path: `nn.Parameter`.  A string
  that is a builtin type's or an autograd node's name (`'tuple'`,
  `'MulBackward0'`, from `type(x).__name__`) ignores case.
* Names of types, classes, modules, grad_fn nodes, dtypes, devices and
  exceptions ignore case, and may be written with their module path or repr
  (`torch.Size`, `<class 'torch.Size'>`, `<MulBackward0 object at 0x7f…>`).
"""

from __future__ import annotations

import builtins
import re

from ..base import dtypes
from ..base.obs import Obs, as_live, class_path, number_dtype, otype, token
from ..base.text import NONE_WORDS, collapse, normalise_chars, strip_noise
from ..reading.grammar import Num, number_in
from ..reading.phrases import lead_ins, says_none
from ..reading.words import exception_name, text_key
from .numbers import matches

_DEVICE = re.compile(
    r"(?:torch\.)?device\(\s*(?:type\s*=\s*)?['\"]?([\w]+)(?::(\d+))?['\"]?"
    r"(?:\s*,\s*(?:index\s*=\s*)?(\d+))?\s*\)")
_ARTICLE = re.compile(r"(?:a|an|the)\s+(\S.*)", re.I)
_CLASS_REPR = re.compile(r"<(?:class|enum)\s+'([\w.]+)'>")
_TRAILING = re.compile(r"\s+(?:class|type|object|instance|node)$", re.I)
_BUILTIN_TYPES = frozenset(
    name for name, obj in vars(builtins).items() if isinstance(obj, type)
) | {"NoneType", "function", "method", "generator", "module"}
_NODE_NAME = re.compile(r"\w*Backward\d*")
_PATH_ALIASES = frozenset({"torch", "nn", "builtins"})
# A string that reads as a class's `__name__` (`Parameter`, `MyModel`): it may be typed
# with a module path (`nn.Parameter`, `torch.nn.parameter.Parameter`, `__main__.MyModel`).
_CLASS_NAME = re.compile(r"[A-Z]\w*")
_QUALIFIED = re.compile(r"(?:[a-z_][a-z0-9_]*\.)+([A-Z]\w*)")


def _unqualified(typed: str) -> str:
    """`nn.Parameter` -> `Parameter`: the last part of a path whose other parts are
    module names (lower case), else the text as it is (`fc.weight` stays)."""
    m = _QUALIFIED.fullmatch(typed)
    return m.group(1) if m else typed


def typed_forms(typed: str) -> list[str]:
    """The typed token, and the same without form around it: a lead-in
    (`z.grad_fn =`, "it's", "I think"), an article ("a tuple"), a repr
    (`<class 'tuple'>`), a trailing "class"."""
    out = [typed]
    if len(typed) > 500:  # a long answer is not a name with form around it
        return out
    out += lead_ins(collapse(strip_noise(typed)))
    for v in list(out):
        v = v.strip()
        for pattern in (_ARTICLE, _CLASS_REPR):
            m = pattern.fullmatch(v)
            if m:
                out.append(m.group(1))
        m = _TRAILING.search(v)
        if m and m.start() > 0:
            out.append(v[: m.start()])
    return out


_NUMBER_NAMES = frozenset({"nan", "inf", "-inf", "+inf", "infinity", "pi", "e"})


def _number(text: str) -> Num | None:
    """The typed text as a number, if it is one (a quick look first: most names
    are not)."""
    first = text.lstrip()[:1]
    if len(text) > 200 or not (first.isdigit() or first in "+-.(" or "(" in text
                               or text.strip().casefold() in _NUMBER_NAMES):
        return None
    return number_in(strip_noise(text))


def _ignores_case(value: str) -> bool:
    """A string that is a type's or an autograd node's name."""
    return value in _BUILTIN_TYPES or _NODE_NAME.fullmatch(value) is not None


def _path_matches(typed: str, path: str) -> bool:
    """`torch.Size`, `Size` or `<class 'torch.Size'>` for the class torch.Size:
    the last parts agree, and the others are parts of the path (or `torch`/`nn`)."""
    want = path.casefold().split(".")
    got = text_key(typed).removesuffix("()").split(".")
    return got[-1] == want[-1] and all(g in want[:-1] or g in _PATH_ALIASES for g in got[:-1])


def _key(text: str) -> str:
    return collapse(strip_noise(normalise_chars(text)))


def name_matches(typed: str, live: Obs, *, forms: bool = True) -> bool:
    """Does the typed token (or, with `forms`, the same token without form around
    it: a whole answer, not an item of a list) name the live value?"""
    candidates = typed_forms(typed) if forms else [typed]
    if otype(live) == "none":
        return (forms and says_none(strip_noise(typed))) or any(
            text_key(v) in NONE_WORDS for v in candidates)
    return any(_form_matches(v, live) for v in candidates)


def _form_matches(typed: str, live: Obs) -> bool:
    t = otype(live)
    if t == "str":
        value = str(live.get("value", ""))
        live_dtype = dtypes.canonical(value)
        if live_dtype is not None and dtypes.canonical(typed.strip()) == live_dtype:
            return True
        if _ignores_case(value):
            # a custom Function's node prints as <torch.autograd.function.MyPowBackward …>
            key = text_key(typed)
            return key == value.casefold() or (
                "." in key and _NODE_NAME.fullmatch(value) is not None
                and key.rsplit(".", 1)[-1] == value.casefold())
        if _CLASS_NAME.fullmatch(value) and "." in typed:
            typed = _unqualified(_key(typed))  # `nn.Parameter` for a class's __name__
        return _key(typed) == _key(value) or typed == value
    if t == "dtype":
        return dtypes.canonical(typed.strip()) == str(live.get("value"))
    if t in ("int", "float"):
        num = _number(typed)
        return num is not None and matches(num.lit, as_live(live.get("value")), number_dtype(live))
    path = class_path(live)
    if path is not None:
        return _path_matches(typed, path)
    a = text_key(typed)
    if t in ("module", "object"):
        cls = str(live.get("class", "")).casefold()
        name = a.removesuffix("()")
        printed = text_key(str(live.get("repr", "")))
        if cls in (name, name.rsplit(".", 1)[-1]) or a == printed:
            return True
        # an object shown as <torch.autograd.function.MyPowBackward object at 0x…>
        # (a custom Function's node) is named by its last part
        return str(live.get("repr", "")).lstrip().startswith("<") and "." in printed \
            and "." not in a and a == printed.rsplit(".", 1)[-1]
    if t == "device":
        m = _DEVICE.fullmatch(a)
        if m:
            index = m.group(2) or m.group(3)
            a = m.group(1) + (f":{index}" if index else "")
        return a == str(live.get("value", "")).casefold()
    if t == "exception":
        return exception_name(a) == exception_name(str(live.get("name", "")))
    if t == "grad_fn":
        name = str(live.get("name", ""))
        if "." in a and "." not in name:
            # a custom Function prints as <torch.autograd.function.MyPowBackward …>
            a = a.rsplit(".", 1)[-1]
        return a == name.casefold()
    tok = token(live)
    if tok is not None:
        return a == text_key(tok)
    shown = live.get("repr")
    return isinstance(shown, str) and _key(typed) == _key(shown)
