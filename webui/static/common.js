// Shared helpers: the control token (from ?token=..., kept in localStorage), control POSTs, formatting.
(function () {
  const KEY = 'fuseRefereeToken';
  const params = new URLSearchParams(location.search);
  if (params.get('token')) {
    localStorage.setItem(KEY, params.get('token'));
    params.delete('token');
    const rest = params.toString();
    history.replaceState(null, '', location.pathname + (rest ? '?' + rest : ''));
  }
  const box = document.getElementById('token');
  if (box) {
    box.value = localStorage.getItem(KEY) || '';
    box.addEventListener('change', () => localStorage.setItem(KEY, box.value.trim()));
  }
  function token() { return localStorage.getItem(KEY) || ''; }
  async function control(url, body) {
    try {
      const res = await fetch(url, {method: 'POST', headers: {'Content-Type': 'application/json', 'X-Referee-Token': token()},
                                    body: JSON.stringify(body || {})});
      const data = await res.json().catch(() => ({error: `HTTP ${res.status}`}));
      if (!res.ok && !data.error) data.error = `HTTP ${res.status}`;
      return data;
    } catch (err) { return {error: String(err)}; }
  }
  function mmss(seconds) {
    const whole = Math.max(0, Math.ceil(seconds - 0.001));
    return String(Math.floor(whole / 60)).padStart(2, '0') + ':' + String(whole % 60).padStart(2, '0');
  }
  // The countdown between server messages: remaining at receipt minus the time since, when running.
  function clockModel() {
    let base = null, at = 0;
    return {
      set(clock) { base = clock; at = performance.now(); },
      remaining() { if (!base) return null; return base.running ? base.remaining - (performance.now() - at) / 1000 : base.remaining; },
      elapsed() { if (!base) return 0; return base.running ? base.elapsed + (performance.now() - at) / 1000 : base.elapsed; },
      running() { return !!(base && base.running); },
    };
  }
  // State messages: server-sent events, with the JSON state fetched once at start (and again on reconnect).
  // The fetch and the stream race: a state older than one already shown (the same game, a lower version) is
  // dropped, or a fetch answered late would put back a clock the stream had already shown paused.
  function follow(onState, onReconnect) {
    let shown = null;
    const take = s => {
      if (shown && s.game.id === shown.game && s.version < shown.version) return;
      shown = {game: s.game.id, version: s.version};
      onState(s);
    };
    fetch('/api/state').then(r => r.json()).then(take).catch(() => {});
    const source = new EventSource('/api/stream');
    source.addEventListener('state', ev => take(JSON.parse(ev.data)));
    let lost = false;
    source.addEventListener('error', () => { lost = true; });
    source.addEventListener('open', () => {
      if (lost) {
        shown = null;  // a restarted server counts versions from 0 again
        if (onReconnect) onReconnect();
      }
      lost = false;
    });
    return source;
  }
  function esc(text) { const d = document.createElement('div'); d.textContent = String(text); return d.innerHTML; }
  window.FR = {token, control, mmss, clockModel, follow, esc};
})();
