"""The streaming overlay for OBS (a browser source): transparent, no login, sized by URL parameters.

``/overlay?width=1920&height=1080&scale=1&show=clock,score,alerts&align=right&alert_seconds=10``
"""

from __future__ import annotations

from flask import Blueprint, render_template, request

from webui.views import bad

bp = Blueprint("overlay", __name__)
PARTS = ("clock", "score", "alerts", "bag")
ALIGNS = ("left", "center", "right")


def _number(name: str, default: float, low: float, high: float) -> float:
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        bad(f"overlay parameter {name} must be a number, not {raw!r}")
    if not low <= value <= high:
        bad(f"overlay parameter {name} must be between {low:g} and {high:g}, not {raw!r}")
    return value


@bp.get("/overlay")
def overlay():
    show = [p.strip() for p in request.args.get("show", "clock,score,alerts").split(",") if p.strip()]
    unknown = [p for p in show if p not in PARTS]
    if unknown:
        bad(f"overlay parameter show: unknown part {unknown[0]!r}: expected some of {', '.join(PARTS)}")
    align = request.args.get("align", "right")
    if align not in ALIGNS:
        bad(f"overlay parameter align must be left, center or right, not {align!r}")
    options = {
        "width": int(_number("width", 0, 0, 7680)), "height": int(_number("height", 0, 0, 4320)),
        "scale": _number("scale", 1.0, 0.25, 6.0), "alert_seconds": _number("alert_seconds", 10.0, 0.0, 600.0),
        "show": show, "align": align,
    }
    return render_template("overlay.html", options=options)
