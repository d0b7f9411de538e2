"""The schemas of what the kernel sends back (tutor/kernel/replies.py): pure, no kernel.

Lesson code owns its process and can write any JSON on its channel; the client
refuses anything that does not fit, with a message that says where and why.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tutor.kernel import caps
from tutor.kernel.replies import (
    BadReply,
    check_control,
    check_observation,
    check_picture,
    check_session_reply,
)

RUN = {"id": 1, "op": "run", "prompts": [{"kind": "number", "expect": "x"}]}
TENSOR = {"type": "tensor", "dtype": "float32", "shape": [2], "values": [1.0, "nan"],
          "requires_grad": False, "is_leaf": True, "grad_fn": None, "is_parameter": False,
          "device": "cpu", "storage": "s1", "storage_offset": 0, "stride": [1],
          "repr": "tensor([1., nan])"}


def ok_run(**fields: Any) -> dict[str, Any]:
    reply = {"id": 1, "ok": True, "stdout": "", "stderr": "", "error": None,
             "observations": [{"type": "int", "value": 3}]}
    reply.update(fields)
    return reply


@pytest.mark.parametrize("observation", [
    {"type": "none"},
    {"type": "bool", "value": True},
    {"type": "int", "value": -5},
    {"type": "float", "value": "inf"},
    {"type": "complex", "real": 1.0, "imag": "nan"},
    {"type": "str", "value": "x" * caps.MAX_STR, "truncated": True},
    TENSOR,
    {**TENSOR, "dtype": "complex64", "values": [[1.0, 2.0], [3.0, 4.0]]},
    {"type": "size", "value": [2, 3]},
    {"type": "dtype", "value": "float64"},
    {"type": "grad_fn", "name": "MulBackward0"},
    {"type": "exception", "name": "KeyError", "message": "'a'",
     "mro": ["KeyError", "LookupError", "Exception", "BaseException"]},
    {"type": "module", "class": "Linear", "repr": "Linear(...)"},
    {"type": "object", "class": "Foo", "repr": "<Foo>"},
    {"type": "dict", "items": [[{"type": "str", "value": "w"}, TENSOR]]},
    {"type": "list", "items": [{"type": "list", "items": []}], "truncated": True},
])
def test_well_formed_observations_pass(observation: dict[str, Any]) -> None:
    assert check_observation(observation) is observation


@pytest.mark.parametrize(("observation", "message"), [
    (5, "observation should be an object, not a number"),
    ({"value": 1}, "observation.type is null, not a kind of observation"),
    ({"type": "weird"}, "observation.type is 'weird', not a kind of observation"),
    ({"type": "int", "value": "3"}, "observation.value should be a whole number, not a string"),
    ({"type": "int", "value": True}, "should be a whole number, not a boolean"),
    ({"type": "float", "value": "lots"}, "observation.value should be a number"),
    ({"type": "str", "value": "x" * (caps.MAX_STR + 1)}, "characters long (at most 100,000)"),
    ({"type": "str", "value": "x", "truncated": "yes"}, "truncated should be true or false"),
    ({**TENSOR, "values": "lots"}, "observation.values should be a number, not a string"),
    ({**TENSOR, "shape": [2, "3"]}, "observation.shape[1] should be a whole number"),
    ({**TENSOR, "values": [0.0] * (caps.MAX_ELEMENTS + 1)}, "has more than 10,000 values"),
    ({**TENSOR, "repr": None}, "observation.repr should be a string, not null"),
    ({"type": "exception", "name": "E", "message": 7, "mro": []}, "message should be a string"),
    ({"type": "list", "items": {"a": 1}}, "observation.items should be a list, not an object"),
    ({"type": "list", "items": [{"type": "none"}] * (caps.MAX_ITEMS + 1)}, "items (at most 1,000)"),
    ({"type": "dict", "items": [[{"type": "none"}]]}, "should be a [key, value] pair"),
    ({"type": "list", "items": [{"type": "int", "value": 1}, {"type": "int", "value": 1.5}]},
     "observation.items[1].value should be a whole number"),
])
def test_malformed_observations_are_refused_with_where_and_why(observation: Any,
                                                               message: str) -> None:
    with pytest.raises(BadReply) as refused:
        check_observation(observation)
    assert message in str(refused.value)


def test_deep_and_wide_forgeries_cost_little_and_are_refused() -> None:
    deep: dict[str, Any] = {"type": "none"}
    for _ in range(10_000):  # walked without recursion: no RecursionError
        deep = {"type": "list", "items": [deep]}
    with pytest.raises(BadReply, match="nested more than 8 levels"):
        check_observation(deep)
    strings = {"type": "list", "items": [{"type": "str", "value": "a" * 30_000}] * 1000}
    with pytest.raises(BadReply, match="more than 200,000 characters in one value"):
        check_observation(strings)
    tensors = {"type": "list", "items": [{**TENSOR, "values": [0.0] * 10_000}] * 20}
    with pytest.raises(BadReply, match="more than 100,000 tensor values"):
        check_observation(tensors)


@pytest.mark.parametrize(("reply", "message"), [
    (ok_run(stdout=7), "stdout should be a string, not a number"),
    (ok_run(observations=5), "observations should be a list, not a number"),
    (ok_run(observations=[]), "observations has 0 items for 1 prompts"),
    (ok_run(error="boom"), "error should be an object"),
    (ok_run(error={"type": "int", "value": 1}), "error should be an exception observation"),
    (ok_run(interrupted="no"), "interrupted should be true or false"),
    (ok_run(stderr="x" * (2 * caps.STDOUT_CAP + 201)), "stderr is"),
    ({"id": 1, "ok": "yes"}, "ok should be true or false, not a string"),
    ({"id": 1, "ok": False, "error": ["no"]}, "error should be a string"),
    (ok_run(fault="x", fault_kind="crashed"), "fault_kind is 'crashed', not one of"),
    (ok_run(fault="x", fault_kind=7), "fault_kind is 7, not one of"),
])
def test_malformed_run_replies_are_refused(reply: dict[str, Any], message: str) -> None:
    with pytest.raises(BadReply) as refused:
        check_session_reply(reply, RUN)
    assert message in str(refused.value)


def test_the_issue_s_forged_reply_is_refused() -> None:
    forged = json.loads('{"id": 1, "ok": true, "stdout": 7, "observations": 5}')
    with pytest.raises(BadReply, match="stdout should be a string"):
        check_session_reply(forged, RUN)


def test_good_replies_of_every_op_pass() -> None:
    assert check_session_reply(ok_run(), RUN)
    interrupted = ok_run(observations=[], interrupted=True, error={
        "type": "exception", "name": "KeyboardInterrupt", "message": "interrupted",
        "mro": ["KeyboardInterrupt", "BaseException"], "traceback": "..."})
    assert check_session_reply(interrupted, RUN)
    repl = {"id": 2, "ok": True, "stdout": "", "stderr": "", "value": "3", "error": None}
    assert check_session_reply(repl, {"id": 2, "op": "repl"})
    observe = {"id": 3, "ok": True, "observation": TENSOR}
    assert check_session_reply(observe, {"id": 3, "op": "observe"})
    picture = {"id": 4, "ok": True, "picture": {"type": "graph", "expr": "z", "nodes": [],
                                                "root": None, "saved": "none"}}
    assert check_session_reply(picture, {"id": 4, "op": "inspect"})
    with pytest.raises(BadReply, match="observation.value should be a whole number"):
        check_session_reply({"id": 3, "ok": True, "observation": {"type": "int", "value": []}},
                            {"id": 3, "op": "observe"})


def test_pictures_are_bounded() -> None:
    with pytest.raises(BadReply, match="not a kind of picture"):
        check_picture({"type": "painting"})
    with pytest.raises(BadReply, match="picture.nodes should be a list"):
        check_picture({"type": "graph", "nodes": "many"})
    with pytest.raises(BadReply, match="larger than a picture may be"):
        check_picture({"type": "storage", "storages": [{"label": "s" * 1000}] * 3000})


@pytest.mark.parametrize(("message", "why"), [
    ({"event": "exit", "pid": "12"}, "pid should be a whole number"),
    ({"event": "exit", "pid": 12, "signal": "KILL"}, "signal should be a whole number"),
    ({"event": "ready", "torch": 2, "python": "3.11"}, "torch should be a string"),
    ({"event": "party"}, "unknown event"),
    ({"id": "1", "ok": True, "pid": 3}, "id should be a whole number"),
    ({"id": 1, "ok": True}, "pid should be a whole number, not null"),
])
def test_control_messages_are_checked(message: dict[str, Any], why: str) -> None:
    with pytest.raises(BadReply, match=why):
        check_control(message)
    assert check_control({"event": "exit", "pid": 12, "code": None, "signal": 9, "reason": None})
    assert check_control({"event": "pong", "seq": 3})


MODULES = {"id": 5, "op": "modules", "modules": {"helpers": "x = 1", "ranks": "y = 2"}}


def test_a_modules_reply_names_only_the_modules_it_was_given() -> None:
    good = {"id": 5, "ok": True, "modules": ["helpers", "ranks"]}
    assert check_session_reply(good, MODULES) is good
    for reply, message in [
        ({"id": 5, "ok": True, "modules": "helpers"}, "modules should be a list, not a string"),
        ({"id": 5, "ok": True, "modules": ["helpers", 3]}, "modules[1] should be a string"),
        ({"id": 5, "ok": True, "modules": ["torch"]}, "modules[0] is 'torch', a module the "
         "request did not give"),
        ({"id": 5, "ok": True, "modules": ["helpers", "ranks", "helpers"]},
         "modules has 3 items (at most 2)"),
    ]:
        with pytest.raises(BadReply) as refused:
            check_session_reply(reply, MODULES)
        assert message in str(refused.value)


def test_words_may_hold_words_and_lists_of_words_but_not_deeper_or_wider() -> None:
    from tutor.kernel.replies import check_words
    from tutor.kernel.words import MAX_WORDS_LIST, english, said

    leaf = said("replaced {name}", name="sys.stdout")
    nested = said("the lesson's code {broke}", broke=[leaf, said("x {what}", what=said("y"))])
    check_words(nested, "words")
    assert english(nested) == "the lesson's code replaced sys.stdout, x y"
    for bad, why in [
            (said("a {b}", b=[said("c {d}", d=said("e {f}", f=said("g")))]), "args.d.args.f"),
            (said("a {b}", b=[]), "1 to"),
            (said("a {b}", b=[leaf] * (MAX_WORDS_LIST + 1)), "1 to"),
            (said("a {b}", b=["text"]), "b[0]")]:
        with pytest.raises(BadReply, match=why.replace("[", r"\[").replace("]", r"\]")):
            check_words(bad, "words")
        assert english(bad) is None  # (the tutor side reads them as the wire does)
