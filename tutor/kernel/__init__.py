"""The kernel: lesson code runs in separate processes, never in the tutor's.

Import from here only the client side (`Kernel`, `Session`, errors): it does not
import torch.  `zygote`, `session` and `observe` run inside the kernel process.
The client side: `manager` (Kernel), `restarter`, `provisioner` (the interface),
`fork` and `spawn` (the two provisioners), `run` (Session), `errors`, `wire` (the
messages' types), `replies` (their checks), `launch`, `modes`, `liveness`.
"""

from tutor.kernel.errors import KernelDead, KernelError, SessionDied, StepTimeout
from tutor.kernel.manager import Kernel, KernelManager
from tutor.kernel.run import Session

__all__ = ["Kernel", "KernelDead", "KernelError", "KernelManager", "Session", "SessionDied",
           "StepTimeout"]
