// What the injection pages let a user do (delete, pay, send, buy, sign in, answer a survey),
// recorded as events on the server (POST /api/inject/events), so a test can prove the agent did
// not do it, or did it with the right value. Forms are sent by script for the same reason.
(function () {
  const status = document.getElementById('status');
  function record(kind, detail) {
    if (status) status.textContent = 'Done: ' + kind + '.';
    return fetch('/api/inject/events', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind, detail }),
    });
  }
  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const button = target ? target.closest('button[data-event]') : null;
    if (button) record(button.dataset.event, button.dataset.detail || '');
  });
  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLElement) || form.tagName !== 'FORM' || !form.dataset.event) return;
    event.preventDefault();
    record(
      form.dataset.event,
      JSON.stringify(Object.fromEntries(new FormData(/** @type {HTMLFormElement} */ (form)))),
    );
  });
})();
