"""The kernel's state, always visible: starting / ready / busy / restarting / dead."""

from __future__ import annotations

from textual.widgets import Static

from tutor.i18n import N_, _

LABELS = {
    "new": N_("○ kernel: not started"),
    "starting": N_("◌ kernel: starting (loading torch)…"),
    "ready": N_("● kernel: ready"),
    "busy": N_("◉ kernel: busy"),
    "restarting": N_("◌ kernel: restarting…"),
    "dead": N_("✖ kernel: dead (ctrl+k restarts)"),
    "closed": N_("○ kernel: closed"),
}


class KernelStatus(Static):
    """Follows the app's `kernel_state` (the app follows the Kernel's events)."""

    def on_mount(self) -> None:
        self.watch(self.app, "kernel_state", self.show_state)

    def show_state(self, state: str) -> None:
        label = _(LABELS[state]) if state in LABELS else f"kernel: {state}"
        kernel = getattr(self.app, "kernel", None)
        if kernel is not None and state in ("ready", "busy"):
            from tutor.lesson.requires import numpy_note  # (packaging: once a kernel is up)

            version = kernel.info.get("torch")  # the torch the lessons run on
            label += f" · torch {version}" if version else ""
            label += numpy_note(kernel.info)  # torch built for NumPy 1 with NumPy 2
            label += f" · {kernel.mode}"  # fork or spawn; the tooltip says why
            self.tooltip = f"{kernel.describe_mode()}\n{kernel.describe_cuda()}"
        self.update(label)
        for name in LABELS:
            self.set_class(name == state, f"-{name}")
