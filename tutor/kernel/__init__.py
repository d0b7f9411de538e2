"""The kernel: lesson code runs in separate processes, never in the tutor's.

Import from here only the client side (`Kernel`, `Session`, errors): it does not
import torch.  `zygote`, `session` and `observe` run inside the kernel process.
"""

from tutor.kernel.client import (
    Kernel,
    KernelDead,
    KernelError,
    Session,
    SessionDied,
    StepTimeout,
)

__all__ = ["Kernel", "KernelDead", "KernelError", "Session", "SessionDied", "StepTimeout"]
