// The setup page: post the form with the token, then open the dashboard on the new game.
document.getElementById('setup-token').value = FR.token();  // for a plain form post too
document.getElementById('setup-form').addEventListener('submit', async ev => {
  ev.preventDefault();
  const data = Object.fromEntries(new FormData(ev.target));
  const out = await FR.control('/api/setup', data);
  const msg = document.getElementById('setup-msg');
  if (out.error) { msg.textContent = out.error; return; }
  location.href = '/';
});
