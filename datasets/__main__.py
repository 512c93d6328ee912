"""``python -m datasets synth images ...`` (the same command as ``fuse-referee synth``)."""

from __future__ import annotations

import sys

from datasets.cli import main

if __name__ == "__main__":
    sys.exit(main())
