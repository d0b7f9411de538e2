"""Simulates torch built against NumPy 1 with NumPy 2 installed (tests only): the kernel
process imports this at start (it is put on PYTHONPATH).  As torch 2.1 with NumPy 2 does:
`torch.from_numpy` fails with "Numpy is not available", and `torch.tensor(array)` reads
the array as a plain sequence (a float64 array gives a float32 tensor)."""

import numpy
import torch

_tensor = torch.tensor


def _from_numpy(*args, **kwargs):
    raise RuntimeError("Numpy is not available")


def _as_sequence(data, *args, **kwargs):
    if isinstance(data, numpy.ndarray):
        data = data.tolist()
    return _tensor(data, *args, **kwargs)


torch.from_numpy = _from_numpy
torch.tensor = _as_sequence
