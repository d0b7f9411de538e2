"""The prediction kinds a prompt can have.

Shared by the lesson loader (validation, JSON Schema) and the judge (parsing and
comparison).  Pure data: no torch, no textual.
"""

from __future__ import annotations

KINDS: dict[str, str] = {
    "number": "A single number, e.g. a gradient: 0.6, 1.6094, 6e-1, tensor(0.6000).",
    "tensor": "A tensor by shape and values: tensor([3., 1.]) or [3, 1].",
    "bool": "Yes or no: True/False, yes/no.",
    "text": "An exact token such as a grad_fn name or a dtype; case is ignored.",
    "choice": "One of the prompt's `choices`, by text or by number.",
    "set": "Names in any order, e.g. state_dict keys: ['a', 'b'] or a, b.",
    "list": "Names or values in order: ['a', 'b'] or a, b.",
    "shape": "A shape: (2, 3), torch.Size([2, 3]) or 2x3.",
    "dtype": "A dtype: torch.float32, float32, float, long.",
    "exception": "The exception raised (RuntimeError), 'raises', or 'no error'.",
    "same_storage": "Whether two tensors share memory: yes/no.",
    "stdout": "What the step printed; whitespace differences are ignored.",
}

# Kinds whose prompt may omit `expect`: the live value is then the step's outcome.
OUTCOME_KINDS = frozenset({"exception", "stdout"})

# What the answer entry says it reads, per kind: the notation, and that None (or,
# for `exception`, no error at all) is an answer too.  The same words for every
# prompt of a kind, so they never tell which answer is right; the app shows them
# under the field and `tutor play` in the question's line.
ENTRY: dict[str, str] = {
    "number": "a number, or None",
    "tensor": "a tensor's values, or None",
    "bool": "yes or no",
    "text": "a name (case is ignored), or None",
    "choice": "one of the choices",
    "set": "items in any order, separated by commas; or None",
    "list": "items in order, separated by commas; or None",
    "shape": "a shape, or None",
    "dtype": "a dtype, or None",
    "exception": "the exception's name, or: no error",
    "same_storage": "yes (one memory) or no",
    "stdout": "the printed lines, or: nothing",
}
