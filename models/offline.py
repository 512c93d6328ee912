"""Import ultralytics with every network call switched off: no telemetry, font, AMP-check or weight downloads."""

from __future__ import annotations

import os
from types import ModuleType

from models.errors import TrainingError


def ultralytics_offline() -> ModuleType:
    """Return the ``ultralytics`` module, imported offline.

    Sets ``YOLO_OFFLINE=1`` before the first import (ultralytics reads it once), and replaces the two helpers
    that fetch files even when offline: the Arial font check of dataset loading and the AMP check (which
    downloads a pretrained model on CUDA; AMP is assumed to work there, as it does on current GPUs).
    """
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ.setdefault("YOLO_VERBOSE", "True")
    try:
        import ultralytics
    except ModuleNotFoundError:
        raise TrainingError("ultralytics is not installed: pip install -e '.[train]'") from None
    import ultralytics.data.utils as data_utils
    import ultralytics.engine.trainer as trainer
    import ultralytics.utils.checks as checks

    def no_font(*_args: object, **_kwargs: object) -> None:
        return None

    def amp_on_cuda(model: object) -> bool:
        return next(model.parameters()).device.type == "cuda"  # type: ignore[attr-defined]

    data_utils.check_font = no_font
    checks.check_font = no_font
    trainer.check_amp = amp_on_cuda
    return ultralytics
