"""The dashboard and the overlay in a real headless browser (Debian's chromium, driven over the DevTools
protocol): the clock counts down, a violation of the sample (or simulated) game appears, and the overlay is
drawn on a transparent background. Skipped where chromium is not installed."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from webui.browser import Chromium, find_chromium
from webui.process import Server, first_violation_at

pytestmark = pytest.mark.skipif(find_chromium() is None,
                                reason="chromium is not installed (apt-get install chromium): no headless browser")


def seconds_left(text: str) -> int:
    match = re.fullmatch(r"(\d\d):(\d\d)", text.strip())
    assert match, f"the clock shows {text!r}"
    return int(match[1]) * 60 + int(match[2])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The default game (bundled sample, or the simulated one), started just before its first violation."""
    seek = max(0.0, first_violation_at() - 2.0)
    db = tmp_path_factory.mktemp("browser") / "sessions.sqlite"
    with Server(["--new", "--seek", f"{seek:.2f}"], db) as running:
        yield running


def test_dashboard_clock_counts_down_and_a_violation_appears(server: Server) -> None:
    expected = server.wait_for(lambda s: s["violations"], timeout=15)[0]
    with Chromium(1600, 1000) as browser:
        page = browser.open(server.url)
        page.wait_for("/^\\d\\d:\\d\\d$/.test(document.getElementById('clock').textContent)")
        first = page.text("#clock")
        assert page.eval("document.getElementById('clock').dataset.running") == "true"
        # the clock counts down; a loaded machine may deliver a tick late, so wait (up to 10 s) for it to be lower
        lower = (f"(m => m && +m[1] * 60 + +m[2] < {seconds_left(first)})"
                 "(document.getElementById('clock').textContent.match(/(\\d\\d):(\\d\\d)/))")
        page.wait_for(lower, 10)
        second = page.text("#clock")
        assert seconds_left(second) < seconds_left(first) <= 600
        page.wait_for("!!document.querySelector('#violations .violation')", 15)
        shown = page.text("#violations")
        assert expected["action"] in shown and expected["reason"] in shown
        assert page.text("#sim-badge") == ("SIMULATED TABLE" if server.get_json("api/state")["game"]["simulated"]
                                           else "")
        assert page.wait_for("document.getElementById('video').naturalWidth") == 1280  # the MJPEG stream plays


def test_overlay_renders_on_a_transparent_background(server: Server, tmp_path: Path) -> None:
    with Chromium(1280, 400, transparent=True) as browser:
        page = browser.open(server.url + "overlay?scale=0.8&alert_seconds=600")
        page.wait_for("/^\\d\\d:\\d\\d$/.test(document.getElementById('clock').textContent)")
        page.wait_for("!!document.querySelector('#alerts li')", 15)
        png = page.screenshot(str(tmp_path / "overlay.png"))
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
    assert image.ndim == 3 and image.shape[2] == 4, "the screenshot has no alpha channel"
    alpha = image[..., 3]
    assert (alpha == 0).mean() > 0.5, "most of the overlay should be see-through"
    assert (alpha == 255).sum() > 1000, "the clock and the alert should be opaque"


def test_dashboard_controls_use_the_token_from_the_address(server: Server) -> None:
    with Chromium(1600, 1000) as browser:
        page = browser.open(f"{server.url}?token={server.token}")
        page.wait_for("document.body.dataset.ready === 'true' && document.getElementById('token').value.length > 0")
        assert "token" not in page.eval("location.href")  # kept in the browser, taken out of the address bar
        page.eval("document.querySelector('[data-clock=pause]').click()")
        server.wait_for(lambda s: not s["clock"]["running"], timeout=5)
        page.wait_for("document.getElementById('clock').dataset.running === 'false'", 5)
        page.eval("document.querySelector('[data-clock=resume]').click()")
        server.wait_for(lambda s: s["clock"]["running"], timeout=5)


def test_a_late_answer_to_the_first_fetch_does_not_undo_a_newer_streamed_state(server: Server) -> None:
    """A page fetches the state once and follows the stream: when the stream's newer state (a pause, say) comes
    before the fetch's answer, the older answer is dropped, not shown over it."""
    with Chromium(800, 600) as browser:
        page = browser.open(f"{server.url}overlay")
        page.wait_for("!!window.FR")
        page.eval("""(() => {
            window.seen = [];
            let answer;
            window.fetch = () => new Promise(done => { answer = () => done({json: () => {
                window.answered = true; return {game: {id: 1}, version: 7}; }}); });
            window.EventSource = class { constructor() { window.stream = this; this.on = {}; }
                                         addEventListener(kind, f) { this.on[kind] = f; } };
            FR.follow(s => window.seen.push(s.version));
            window.stream.on.state({data: JSON.stringify({game: {id: 1}, version: 8})});
            answer();
        })()""")
        page.wait_for("window.answered === true")
        page.wait_for("window.seen.length > 0")
        assert page.eval("window.seen") == [8]
        page.eval("window.stream.on.state({data: JSON.stringify({game: {id: 2}, version: 1})})")  # a new game
        assert page.eval("window.seen") == [8, 1]

def test_setup_page_starts_a_new_game(tmp_path: Path) -> None:
    with Server(["--source", "manual"], tmp_path / "s.sqlite") as server, Chromium(1400, 1000) as browser:
        page = browser.open(f"{server.url}setup?token={server.token}")
        page.wait_for("document.readyState === 'complete' && !!document.getElementById('setup-form')")
        page.eval("""(() => { const f = document.getElementById('setup-form');
            f.edition.value = 'countdown'; f.players.value = '2'; f.difficulty.value = 'expert';
            f.names.value = 'Ann, Bo'; f.requestSubmit(); })()""")
        page.wait_for("location.pathname === '/' && document.getElementById('game-id').textContent === '2'", 10)
        page.wait_for("document.getElementById('game-desc').textContent.startsWith('countdown expert')", 10)
        assert page.wait_for("document.getElementById('players').textContent.includes('Ann')", 10)
        assert [g["status"] for g in server.get_json("api/history")["games"]] == ["playing", "abandoned"]
