// The demo EMR's messages: a patient and a text, sent with "Send message" to /api/messages,
// then listed under "Sent". Sending is what the agent must ask the user about first.
(function () {
  const form = document.getElementById('compose');
  const status = document.getElementById('status');
  const sent = document.getElementById('sent');
  function show(messages) {
    sent.replaceChildren(
      ...messages.map((m) => {
        const li = document.createElement('li');
        li.textContent = m.to + ': ' + m.body;
        return li;
      }),
    );
  }
  fetch('/api/messages')
    .then((r) => r.json())
    .then((data) => show(data.messages));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const values = Object.fromEntries(new FormData(form));
    const res = await fetch('/api/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(values),
    });
    const data = await res.json();
    if (!res.ok) {
      status.textContent = data.error.message;
      return;
    }
    status.textContent = 'Message sent to ' + data.message.to + '.';
    form.reset();
    show(data.messages);
  });
})();
