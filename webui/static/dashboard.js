// The dashboard: renders each state message, runs the clock between messages, plays the violation cue.
(function () {
  const $ = id => document.getElementById(id);
  const clock = FR.clockModel();
  const sound = new Audio('/sound/violation.wav');
  let soundOn = localStorage.getItem('fuseRefereeSound') !== 'off';
  let seenViolations = null, state = null;

  function dieHtml(die, status) {
    if (!die) return '';
    const [colours, face] = [die.slice(0, -1).split('/'), die.slice(-1)];
    const bg = colours.length > 1 ? `linear-gradient(135deg, var(--${colours[0]}) 50%, var(--${colours[1]}) 50%)` : `var(--${colours[0]})`;
    return `<span class="die ${status || ''} c-${colours[0]}" style="background:${bg}" title="${die}">${face}</span>`;
  }
  function cardHtml(card, alerts) {
    const bad = alerts.some(a => a.action.includes(` ${card.id}:`));
    const unsure = card.chips && card.chips.some(c => c.status === 'unsure');
    const chips = (card.chips || []).map(c => `<span class="chip" title="chip ${c.chip}: ${FR.esc(c.need)}">${c.die ? dieHtml(c.die, c.status) : c.chip}</span>`).join('');
    return `<div class="card ${bad ? 'illegal' : unsure ? 'unsure' : ''} ${card.complete ? 'complete' : ''}">
      <div class="card-top"><b>${card.id}</b><span class="points">${card.points}</span></div>
      <div class="notation">${FR.esc(card.body)}</div><div class="chips">${chips}</div></div>`;
  }
  function alertsNow(s) {
    const now = clock.elapsed();
    return s.violations.filter(v => now - v.elapsed >= 0 && now - v.elapsed < s.alert_seconds);
  }
  function eventRow(e) {
    const verdict = e.undone ? 'undone' : !e.accepted ? `ILLEGAL: ${FR.esc(e.reason)}` : e.unsure ? 'unsure' : 'ok';
    const cls = e.undone ? 'undone' : !e.accepted ? 'illegal' : e.unsure ? 'unsure' : '';
    const buttons = e.undone ? '' : `${e.unsure ? `<button class="small" data-ev="${e.index}" data-do="confirm">confirm</button>` : ''}
      <button class="small" data-ev="${e.index}" data-do="correct">correct</button>
      <button class="small" data-ev="${e.index}" data-do="undo">undo</button>`;
    const src = e.inferred ? 'vision (inferred)' : e.source + (e.confidence < 1 ? ` (${e.confidence.toFixed(2)})` : '');
    return `<tr class="${cls}"><td>${e.index}</td><td>${FR.mmss(e.elapsed)}</td><td>${FR.esc(e.action)}</td><td>${src}</td><td>${verdict}</td><td>${buttons}</td></tr>`;
  }
  function render(s) {
    state = s;
    clock.set(s.clock);
    $('game-id').textContent = s.game.id;
    $('game-desc').textContent = `${s.game.edition} ${s.game.difficulty}, ${s.game.players} players`;
    $('feed-label').textContent = s.game.feed_label;
    $('status').textContent = s.game.status;
    $('score').textContent = s.score.total;
    $('bag').textContent = s.bag;
    $('turn').textContent = s.turn;
    $('leader').textContent = s.leader;
    $('waiting').textContent = `${s.waiting_for} (${s.actor})`;
    $('outcome').textContent = s.outcome ? `${s.outcome.won ? 'WON' : 'LOST'} (${s.outcome.reason}): ${s.score.total} points` : '';
    $('roll').innerHTML = s.roll.map(d => dieHtml(d)).join(' ') || '<span class="muted">no dice rolled</span>';
    const questions = s.questions || [];
    $('questions-head').hidden = !questions.length;
    $('question-count').textContent = questions.length;
    $('questions').innerHTML = questions.slice().reverse().map(q => `<li class="question"><b>${FR.mmss(q.elapsed)}</b>
      ${FR.esc(q.question)} ${q.action ? `<button class="small" data-q="${q.number}" data-do="answer">it happened</button>` : ''}
      <button class="small" data-q="${q.number}" data-do="dismiss">dismiss</button></li>`).join('');
    const alerts = alertsNow(s);
    $('row').innerHTML = s.row.map(c => cardHtml(c, alerts)).join('');
    $('players').innerHTML = s.players.map(p => `<div class="player"><h3>${FR.esc(p.name)}${p.role ? ` <span class="muted">(${p.role}${p.role_active ? '' : ', inactive'})</span>` : ''}${p.name === s.leader ? ' <span class="badge">leader</span>' : ''}</h3>
      <div class="cards">${p.cards.map(c => cardHtml(c, alerts)).join('') || '<span class="muted">no cards</span>'}</div></div>`).join('');
    $('violations').innerHTML = s.violations.slice().reverse().map(v => `<li class="violation"><b>${FR.mmss(v.elapsed)}</b> <code>${FR.esc(v.action)}</code>: ${FR.esc(v.reason)}</li>`).join('') || '<li class="muted">none</li>';
    $('violation-count').textContent = s.violations.length;
    $('event-count').textContent = s.event_count;
    $('events').innerHTML = s.events.slice().reverse().map(eventRow).join('');
    $('legal').innerHTML = s.legal.map(a => `<option value="${FR.esc(a)}">`).join('');
    if (seenViolations !== null && s.violations.length > seenViolations && soundOn) sound.play().catch(() => {});
    seenViolations = s.violations.length;
    renderAlerts();
  }
  function renderAlerts() {
    if (!state) return;
    const alerts = alertsNow(state);
    const html = alerts.slice().reverse().map(v => `<li class="alert"><b>ILLEGAL</b> <code>${FR.esc(v.action)}</code>: ${FR.esc(v.reason)}</li>`).join('');
    if ($('alerts').innerHTML !== html) $('alerts').innerHTML = html || '';
  }
  function tick() {
    const left = clock.remaining();
    if (left !== null) {
      const el = $('clock');
      el.textContent = FR.mmss(left);
      el.dataset.running = clock.running() ? 'true' : 'false';
      el.classList.toggle('low', left < 60);
    }
    renderAlerts();
  }
  setInterval(tick, 200);
  // after a server restart the event feed reconnects by itself; the video needs a new request
  FR.follow(render, () => { $('video').src = '/video.mjpg?t=' + Date.now(); });

  const msg = text => { $('control-msg').textContent = text || ''; };
  document.querySelectorAll('[data-clock]').forEach(b => b.addEventListener('click', async () => {
    const out = await FR.control(`/api/clock/${b.dataset.clock}`);
    msg(out.error || `clock: ${b.dataset.clock}`);
  }));
  $('report-form').addEventListener('submit', async ev => {
    ev.preventDefault();
    const out = await FR.control('/api/report', {action: $('report-action').value});
    if (out.error) return msg(out.error);
    msg(out.event.accepted ? `ok: ${out.event.action}` : `ILLEGAL: ${out.event.action}: ${out.event.reason}`);
    $('report-action').value = '';
  });
  $('events').addEventListener('click', async ev => {
    const b = ev.target.closest('button[data-ev]');
    if (!b) return;
    let body = {};
    if (b.dataset.do === 'correct') {
      const row = state.events.find(e => e.index === Number(b.dataset.ev));
      const action = prompt('The right action for this report:', row ? row.action : '');
      if (!action) return;
      body = {action};
    }
    const out = await FR.control(`/api/events/${b.dataset.ev}/${b.dataset.do}`, body);
    msg(out.error || `${b.dataset.do}: event ${b.dataset.ev}`);
  });
  $('questions').addEventListener('click', async ev => {
    const b = ev.target.closest('button[data-q]');
    if (!b) return;
    const out = await FR.control(`/api/questions/${b.dataset.q}/${b.dataset.do}`);
    if (out.error) return msg(out.error);
    const e = out.event;
    msg(!e ? `question ${b.dataset.q} dismissed` : e.accepted ? `ok: ${e.action}` : `ILLEGAL: ${e.action}: ${e.reason}`);
  });
  $('hint-button').addEventListener('click', async () => {
    const res = await fetch('/api/hint');
    const out = await res.json();
    $('hint').textContent = out.error || out.text || 'no suggestion';
  });
  $('sound-toggle').textContent = soundOn ? 'sound on' : 'sound off';
  $('sound-toggle').addEventListener('click', () => {
    soundOn = !soundOn;
    localStorage.setItem('fuseRefereeSound', soundOn ? 'on' : 'off');
    $('sound-toggle').textContent = soundOn ? 'sound on' : 'sound off';
    if (soundOn) sound.play().catch(() => {});
  });
  document.body.dataset.ready = 'true';  // the controls are wired (tests wait for this)
})();
