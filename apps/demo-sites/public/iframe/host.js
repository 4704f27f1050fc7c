// Shows what the embedded widget reports, so a test can see a frame's action reach the page.
const status = document.getElementById('host-status');

window.addEventListener('message', (event) => {
  // Only our own same-origin widget may talk to this page.
  if (event.origin !== location.origin) return;
  if (event.data?.type === 'greeting' && typeof event.data.text === 'string') {
    status.textContent = `Widget says: ${event.data.text}`;
  }
});
