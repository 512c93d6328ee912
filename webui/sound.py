"""The violation sound cue: two short falling beeps, made with the ``wave`` module (no files to download)."""

from __future__ import annotations

import io
import math
import struct
import wave
from functools import cache

RATE = 22050


@cache
def violation_wav() -> bytes:
    """A 0.45 s mono 16-bit WAV: 880 Hz then 660 Hz, with short fades so it does not click."""
    samples = []
    for freq, seconds in ((880.0, 0.18), (0.0, 0.05), (660.0, 0.22)):
        n = int(RATE * seconds)
        for i in range(n):
            fade = min(1.0, i / 200, (n - i) / 200)
            samples.append(int(0.45 * 32767 * fade * math.sin(2 * math.pi * freq * i / RATE)) if freq else 0)
    out = io.BytesIO()
    with wave.open(out, "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(RATE)
        wav.writeframes(struct.pack(f"<{len(samples)}h", *samples))
    return out.getvalue()
