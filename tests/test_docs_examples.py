"""The code examples in docs/kernel.md run as written and print what they say."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.kernel
def test_the_kernel_api_example_runs() -> None:
    text = (DOCS / "kernel.md").read_text()
    (block,) = re.findall(r"```python\n(.*?)```", text, re.S)
    # each line's trailing comment states what the expression gives: print it to compare
    checked = "\n".join(
        re.sub(r"^(\s*)(run\.\w+\(.*?\)|reply\[.*?\])\s+#.*$", r"\1print(repr(\2))", line)
        for line in block.splitlines())
    proc = subprocess.run([sys.executable, "-c", checked + "\nprint(info['torch'])"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "'values': 10.0" in out and "'value': 'tensor(20.)'" in out
    assert "{'type': 'bool', 'value': True}" in out
