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
