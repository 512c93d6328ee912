// The OBS overlay: clock, score and current alerts on a transparent page.
(function () {
  const $ = id => document.getElementById(id);
  const root = $('overlay');
  const alertSeconds = Number(root.dataset.alertSeconds);
  const clock = FR.clockModel();
  let state = null;
  function render(s) {
    state = s;
    clock.set(s.clock);
    if ($('score')) $('score').textContent = s.score.total;
    if ($('bag')) $('bag').textContent = s.bag;
    $('result').textContent = s.outcome ? (s.outcome.won ? 'BOMBS DEFUSED!' : `LOST (${s.outcome.reason})`) : '';
    tick();
  }
  function tick() {
    const left = clock.remaining();
    const el = $('clock');
    if (el && left !== null) {
      el.textContent = FR.mmss(left);
      el.dataset.running = clock.running() ? 'true' : 'false';
      el.classList.toggle('low', left < 60);
    }
    const list = $('alerts');
    if (list && state) {
      const now = clock.elapsed();
      const html = state.violations.filter(v => now - v.elapsed >= 0 && now - v.elapsed < alertSeconds).slice(-3).reverse()
        .map(v => `<li><b>ILLEGAL</b> ${FR.esc(v.action)}<br><span>${FR.esc(v.reason)}</span></li>`).join('');
      if (list.innerHTML !== html) list.innerHTML = html;
    }
  }
  setInterval(tick, 200);
  FR.follow(render);
})();
