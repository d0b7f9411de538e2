"""What the kernel may send back, checked before anything in the tutor reads it.

A lesson run is lesson code's own process: it can write anything on its channel,
including a well-formed JSON reply whose fields have the wrong types or sizes
(`{"id": 1, "ok": true, "stdout": 7, "observations": 5}`).  The client checks
every reply and event against the schemas below (types, sizes, ids) and treats a
reply that does not fit as that run's failure (`BadReply`), so the engine, the
judge, the pictures and every front end only ever see well-formed data.

The caps are the kernel's own (`caps.py`): a run that was not tampered with never
exceeds them.  Pure: no torch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from tutor.kernel import caps
from tutor.kernel.wire import FAULT_KINDS
from tutor.kernel.words import MAX_WORDS_ARGS, MAX_WORDS_DEPTH, MAX_WORDS_LIST

if TYPE_CHECKING:
    from tutor.kernel.wire import KernelInfo, Observation, Picture, SessionReply


class BadReply(ValueError):
    """A message that does not fit its schema; the text says where and why."""


class Budget:
    """What one observed value may hold in all (nodes, characters, tensor values)."""

    def __init__(self) -> None:
        # (slack: the observer checks its budgets between items, so it may end one item over)
        self.nodes = caps.MAX_NODES + 4 * caps.MAX_DEPTH
        self.text = caps.MAX_TEXT + 2 * (caps.MAX_DEPTH + 1) * caps.MAX_REPR
        self.elements = caps.MAX_TOTAL_ELEMENTS + caps.MAX_ELEMENTS

    def spend(self, where: str, *, nodes: int = 0, text: int = 0, elements: int = 0) -> None:
        self.nodes -= nodes
        self.text -= text
        self.elements -= elements
        if self.nodes < 0:
            raise BadReply(f"{where}: more than {caps.MAX_NODES:,} observations in one value")
        if self.text < 0:
            raise BadReply(f"{where}: more than {caps.MAX_TEXT:,} characters in one value")
        if self.elements < 0:
            raise BadReply(f"{where}: more than {caps.MAX_TOTAL_ELEMENTS:,} tensor values "
                           "in one value")


# ------------------------------------------------------------------ primitives


def _name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def need_str(value: Any, where: str, limit: int, *, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise BadReply(f"{where} should be a string, not {_name(value)}")
    if len(value) > limit:
        raise BadReply(f"{where} is {len(value):,} characters long (at most {limit:,})")
    return value


def need_int(value: Any, where: str, *, optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadReply(f"{where} should be a whole number, not {_name(value)}")
    return value


def need_bool(value: Any, where: str, *, optional: bool = False) -> bool | None:
    if value is None and optional:
        return None
    if not isinstance(value, bool):
        raise BadReply(f"{where} should be true or false, not {_name(value)}")
    return value


def need_list(value: Any, where: str, limit: int) -> list[Any]:
    if not isinstance(value, list):
        raise BadReply(f"{where} should be a list, not {_name(value)}")
    if len(value) > limit:
        raise BadReply(f"{where} has {len(value):,} items (at most {limit:,})")
    return value


def need_dict(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BadReply(f"{where} should be an object, not {_name(value)}")
    return value


def need_number(value: Any, where: str) -> None:
    """A float as the kernel sends it: a number, or "nan", "inf", "-inf"."""
    if isinstance(value, bool) or not (
            isinstance(value, (int, float)) or value in ("nan", "inf", "-inf")):
        raise BadReply(f"{where} should be a number, not {_name(value)}")


def _ints(value: Any, where: str, limit: int = 64) -> None:
    for i, item in enumerate(need_list(value, where, limit)):
        need_int(item, f"{where}[{i}]")


def _names(value: Any, where: str, limit: int = 64) -> None:
    for i, item in enumerate(need_list(value, where, limit)):
        need_str(item, f"{where}[{i}]", caps.MAX_REPR)


# ---------------------------------------------------------------- observations


def _tensor_values(value: Any, where: str, budget: Budget) -> None:
    """Nested lists of numbers, booleans or [re, im] pairs, walked without recursion."""
    todo = [(value, 0)]
    count = 0
    while todo:
        item, depth = todo.pop()
        if isinstance(item, list):
            if depth > 64:
                raise BadReply(f"{where} is nested more than 64 levels deep")
            if len(item) == 2 and depth > 0 and all(
                    not isinstance(v, (list, bool)) for v in item):
                need_number(item[0], where)  # a complex value, [re, im]
                need_number(item[1], where)
                count += 1
            else:
                todo += [(v, depth + 1) for v in item]
        elif isinstance(item, bool):
            count += 1
        else:
            need_number(item, where)
            count += 1
        if count > caps.MAX_ELEMENTS:
            raise BadReply(f"{where} has more than {caps.MAX_ELEMENTS:,} values")
    budget.spend(where, elements=count)


def _check_tensor(obs: dict[str, Any], where: str, budget: Budget) -> None:
    need_str(obs.get("dtype"), f"{where}.dtype", 64)
    _ints(obs.get("shape"), f"{where}.shape")
    for key in ("requires_grad", "is_leaf", "is_parameter"):
        need_bool(obs.get(key), f"{where}.{key}")
    need_str(obs.get("grad_fn"), f"{where}.grad_fn", caps.MAX_REPR, optional=True)
    need_str(obs.get("device"), f"{where}.device", 64)
    need_str(obs.get("storage"), f"{where}.storage", 64, optional=True)
    need_int(obs.get("storage_offset"), f"{where}.storage_offset")
    _ints(obs.get("stride"), f"{where}.stride")
    budget.spend(where, text=len(need_str(obs.get("repr"), f"{where}.repr",
                                          caps.MAX_REPR) or ""))
    if "values" in obs:
        _tensor_values(obs["values"], f"{where}.values", budget)


def check_words(value: Any, where: str, depth: int = 0) -> None:
    """A `Words` (a kernel message to translate): a msgid and at most a few values, each
    a string, or (not too deep) words, or a short list of words."""
    if value is None:
        return
    words = need_dict(value, where)
    need_str(words.get("msgid"), f"{where}.msgid", 500)
    args = need_dict(words.get("args"), f"{where}.args")
    if len(args) > MAX_WORDS_ARGS:
        raise BadReply(f"{where}.args has more than {MAX_WORDS_ARGS} values")
    for key, arg in args.items():
        need_str(key, f"{where}.args key", 40)
        at = f"{where}.args.{str(key)[:40]}"
        if isinstance(arg, list) and depth < MAX_WORDS_DEPTH:
            if not 0 < len(arg) <= MAX_WORDS_LIST:
                raise BadReply(f"{at} should hold 1 to {MAX_WORDS_LIST} words")
            for i, item in enumerate(arg):
                check_words(need_dict(item, f"{at}[{i}]"), f"{at}[{i}]", depth + 1)
        elif isinstance(arg, dict) and depth < MAX_WORDS_DEPTH:
            check_words(arg, at, depth + 1)
        else:
            need_str(arg, at, caps.MAX_STR)


def _check_exception(obs: dict[str, Any], where: str, budget: Budget) -> None:
    need_str(obs.get("name"), f"{where}.name", caps.MAX_REPR)
    check_words(obs.get("words"), f"{where}.words")
    message = need_str(obs.get("message"), f"{where}.message", caps.MAX_STR) or ""
    _names(obs.get("mro"), f"{where}.mro")
    need_str(obs.get("traceback"), f"{where}.traceback", caps.MAX_TRACEBACK + caps.MAX_STR,
             optional=True)
    budget.spend(where, text=len(message))


def _value_str(key: str, limit: int) -> Callable[[dict[str, Any], str, Budget], None]:
    def check(obs: dict[str, Any], where: str, budget: Budget) -> None:
        budget.spend(where, text=len(need_str(obs.get(key), f"{where}.{key}", limit) or ""))
    return check


def _check_number(obs: dict[str, Any], where: str, budget: Budget) -> None:
    need_number(obs.get("value"), f"{where}.value")


def _check_complex(obs: dict[str, Any], where: str, budget: Budget) -> None:
    need_number(obs.get("real"), f"{where}.real")
    need_number(obs.get("imag"), f"{where}.imag")


def _check_class_repr(obs: dict[str, Any], where: str, budget: Budget) -> None:
    need_str(obs.get("class"), f"{where}.class", caps.MAX_REPR)
    budget.spend(where, text=len(need_str(obs.get("repr"), f"{where}.repr",
                                          caps.MAX_REPR) or ""))


def _check_bool(obs: dict[str, Any], where: str, budget: Budget) -> None:
    need_bool(obs.get("value"), f"{where}.value")


def _check_int(obs: dict[str, Any], where: str, budget: Budget) -> None:
    need_int(obs.get("value"), f"{where}.value")


def _check_size(obs: dict[str, Any], where: str, budget: Budget) -> None:
    _ints(obs.get("value"), f"{where}.value")


_LEAVES: dict[str, Callable[[dict[str, Any], str, Budget], None]] = {
    "none": lambda obs, where, budget: None,
    "bool": _check_bool,
    "int": _check_int,
    "float": _check_number,
    "complex": _check_complex,
    "str": _value_str("value", caps.MAX_STR),
    "tensor": _check_tensor,
    "size": _check_size,
    "dtype": _value_str("value", 64),
    "device": _value_str("value", 64),
    "grad_fn": _value_str("name", caps.MAX_REPR),
    "exception": _check_exception,
    "module": _check_class_repr,
    "object": _check_class_repr,
}
CONTAINERS = ("list", "tuple", "set", "dict")
OBSERVATION_TYPES = (*_LEAVES, *CONTAINERS)


def check_observation(value: Any, where: str = "observation",
                      budget: Budget | None = None) -> Observation:
    """`value` if it is a well-formed observation (docs/observations.md), else BadReply.

    Containers are walked without recursion, so a deep forgery cannot exhaust the stack.
    """
    budget = budget or Budget()
    todo = [(value, where, 0)]
    while todo:
        obs, at, depth = todo.pop()
        obs = need_dict(obs, at)
        kind = obs.get("type")
        budget.spend(at, nodes=1)
        need_bool(obs.get("truncated"), f"{at}.truncated", optional=True)
        if kind in _LEAVES:
            _LEAVES[kind](obs, at, budget)
            continue
        if kind not in CONTAINERS:
            shown = repr(kind)[:40] if isinstance(kind, str) else _name(kind)
            raise BadReply(f"{at}.type is {shown}, not a kind of observation")
        if depth >= caps.MAX_DEPTH + 1:
            raise BadReply(f"{at} is nested more than {caps.MAX_DEPTH} levels deep")
        items = need_list(obs.get("items"), f"{at}.items", caps.MAX_ITEMS)
        for i, item in enumerate(items):
            if kind == "dict":
                pair = need_list(item, f"{at}.items[{i}]", 2)
                if len(pair) != 2:
                    raise BadReply(f"{at}.items[{i}] should be a [key, value] pair")
                todo.append((pair[0], f"{at}.items[{i}][0]", depth + 1))
                todo.append((pair[1], f"{at}.items[{i}][1]", depth + 1))
            else:
                todo.append((item, f"{at}.items[{i}]", depth + 1))
    return cast("Observation", value)


# -------------------------------------------------------------------- pictures


def check_picture(value: Any, where: str = "picture") -> Picture:
    """A picture's plain data (docs/pictures.md): its kind, and bounds on its size.

    The renderers read it defensively; this keeps a forged picture from costing the
    tutor more than a real one could.
    """
    pic = need_dict(value, where)
    kind = pic.get("type")
    if kind == "exception":
        return cast("Picture", check_observation(pic, where))
    if kind not in ("graph", "storage", "tree"):
        shown = repr(kind)[:40] if isinstance(kind, str) else _name(kind)
        raise BadReply(f"{where}.type is {shown}, not a kind of picture")
    need_str(pic.get("expr"), f"{where}.expr", caps.MAX_STR, optional=True)
    listed = {"graph": "nodes", "storage": "storages", "tree": None}[kind]
    if listed is not None:
        need_list(pic.get(listed), f"{where}.{listed}", caps.MAX_PICTURE_NODES)
    if kind == "tree":
        need_dict(pic.get("root"), f"{where}.root")
    nodes, text = 0, 0
    todo: list[tuple[Any, int]] = [(pic, 0)]
    while todo:
        item, depth = todo.pop()
        nodes += 1
        if depth > 64:
            raise BadReply(f"{where} is nested more than 64 levels deep")
        if isinstance(item, dict):
            for key, sub in item.items():
                text += len(key)
                todo.append((sub, depth + 1))
        elif isinstance(item, list):
            todo += [(sub, depth + 1) for sub in item]
        elif isinstance(item, str):
            text += len(item)
        if nodes > caps.MAX_PICTURE_NODES or text > caps.MAX_PICTURE_TEXT:
            raise BadReply(f"{where} is larger than a picture may be")
    return cast("Picture", pic)


# --------------------------------------------------------------------- replies


def _output(reply: dict[str, Any], key: str) -> None:
    # a stream: what the capped writer kept, its note, and (stderr) the fd capture
    need_str(reply.get(key), f"{key}", 2 * caps.STDOUT_CAP + 200)
    check_words(reply.get(f"{key}_note"), f"{key}_note")


def _error(reply: dict[str, Any]) -> None:
    if reply.get("error") is not None:
        check_observation(reply["error"], "error")
        need_dict(reply["error"], "error")
        if reply["error"].get("type") != "exception":
            raise BadReply("error should be an exception observation")


def _run(reply: dict[str, Any], request: dict[str, Any]) -> None:
    _output(reply, "stdout")
    _output(reply, "stderr")
    _error(reply)
    need_bool(reply.get("interrupted"), "interrupted", optional=True)
    observations = need_list(reply.get("observations"), "observations", 10_000)
    asked = len(request.get("prompts") or ())
    if reply.get("interrupted") or (asked and not observations and reply.get("error")):
        expected: tuple[int, ...] = (0, asked)  # stopped before observing, or a syntax error
    else:
        expected = (asked,)
    if len(observations) not in expected:
        raise BadReply(f"observations has {len(observations)} items for {asked} prompts")
    for i, obs in enumerate(observations):
        check_observation(obs, f"observations[{i}]")


def _repl(reply: dict[str, Any], request: dict[str, Any]) -> None:
    _output(reply, "stdout")
    _output(reply, "stderr")
    _error(reply)
    need_str(reply.get("value"), "value", caps.MAX_REPL_VALUE + 1, optional=True)


def _observe(reply: dict[str, Any], request: dict[str, Any]) -> None:
    check_observation(reply.get("observation"))


def _inspect(reply: dict[str, Any], request: dict[str, Any]) -> None:
    check_picture(reply.get("picture"))


def _modules(reply: dict[str, Any], request: dict[str, Any]) -> None:
    # the names of the modules written: those the request gave, no other
    asked = request.get("modules")
    asked = asked if isinstance(asked, dict) else {}
    names = need_list(reply.get("modules"), "modules", len(asked))
    for i, name in enumerate(names):
        if need_str(name, f"modules[{i}]", 200) not in asked:
            raise BadReply(f"modules[{i}] is {str(name)[:40]!r}, a module the request did "
                           "not give")


SESSION_REPLIES: dict[str, Callable[[dict[str, Any], dict[str, Any]], None]] = {
    "run": _run, "repl": _repl, "observe": _observe, "inspect": _inspect, "modules": _modules,
}


def check_session_reply(reply: dict[str, Any], request: dict[str, Any]) -> SessionReply:
    """`reply` if it is a well-formed answer to `request` (its id already matched)."""
    ok = need_bool(reply.get("ok"), "ok")
    need_str(reply.get("fault"), "fault", caps.MAX_ERROR, optional=True)
    check_words(reply.get("fault_words"), "fault_words")
    if reply.get("fault_kind") is not None and reply["fault_kind"] not in FAULT_KINDS:
        shown = repr(reply["fault_kind"])[:40]
        raise BadReply(f"fault_kind is {shown}, not one of {', '.join(FAULT_KINDS)}")
    if not ok:
        need_str(reply.get("error"), "error", caps.MAX_ERROR, optional=True)
        check_words(reply.get("words"), "words")
        return cast("SessionReply", reply)
    check = SESSION_REPLIES.get(request["op"])
    if check is not None:
        check(reply, request)
    return cast("SessionReply", reply)


# ------------------------------------------------------------- control channel


def check_kernel_info(message: dict[str, Any]) -> KernelInfo:
    """What a zygote's `ready` and a spawned worker's `hello` say about the kernel."""
    for key in ("torch", "python"):
        need_str(message.get(key), key, 200)
    need_str(message.get("torch_full"), "torch_full", 200, optional=True)
    need_bool(message.get("cuda"), "cuda", optional=True)
    need_int(message.get("cuda_devices"), "cuda_devices", optional=True)
    need_str(message.get("cuda_error"), "cuda_error", caps.MAX_ERROR, optional=True)
    need_str(message.get("gpu_memory"), "gpu_memory", 200, optional=True)
    if "cuda_names" in message:
        for i, name in enumerate(need_list(message["cuda_names"], "cuda_names", 64)):
            need_str(name, f"cuda_names[{i}]", 200)
    if "limits" in message:
        need_dict(message["limits"], "limits")
    return cast("KernelInfo", message)


def check_control(message: dict[str, Any]) -> dict[str, Any]:
    """A message from the zygote: `ready`, `exit`, `pong`, or a reply to `spawn`."""
    event = message.get("event")
    if event == "ready":
        check_kernel_info(message)
        need_bool(message.get("cuda"), "cuda")
        need_int(message.get("pid"), "pid")
        need_int(message.get("threads"), "threads", optional=True)
    elif event == "exit":
        need_int(message.get("pid"), "pid")
        need_int(message.get("code"), "code", optional=True)
        need_int(message.get("signal"), "signal", optional=True)
        need_str(message.get("reason"), "reason", 2_000, optional=True)
    elif event == "pong":
        need_int(message.get("seq"), "seq")
    elif event is not None:
        raise BadReply(f"unknown event {str(event)[:40]!r}")
    else:
        need_int(message.get("id"), "id")
        if need_bool(message.get("ok"), "ok"):
            need_int(message.get("pid"), "pid")
        else:
            need_str(message.get("error"), "error", caps.MAX_ERROR, optional=True)
            need_bool(message.get("fatal"), "fatal", optional=True)
    return message
