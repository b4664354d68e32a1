"""The demo's SDK-based sample agent: asks a model (through the runner's relay) for a change, applies it.

Run inside the sandbox as `python -I demo_agent.py` in the workspace, with the variables the runner
sets for the relay (ANTHROPIC_BASE_URL, a placeholder ANTHROPIC_API_KEY). In `make demo` the model
is the fake API of demo_model_api.py on loopback; pointed at a real relay upstream, it is a real call.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import anthropic

PROMPT = "Add a function `farewell(name)` to src/app.py. Answer with the Python code to append, nothing else."


def main() -> int:
    """One model call, its answer appended to src/app.py; the model that answered goes to the log."""
    client = anthropic.Anthropic(max_retries=0, timeout=60)
    message = client.messages.create(model=os.environ.get("GATEKEEPER_MODEL") or "claude-sonnet-4-5",
                                     max_tokens=512, messages=[{"role": "user", "content": PROMPT}])
    code = "".join(block.text for block in message.content if block.type == "text")
    target = Path("src/app.py")
    target.write_text(target.read_text(encoding="utf-8").rstrip("\n") + "\n\n\n" + code.strip() + "\n",
                      encoding="utf-8")
    print(f"sample agent: {message.model} answered; appended {len(code.splitlines())} lines to {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
