const form = document.getElementById('greeting-form');
const input = document.getElementById('visitor-name');
const greeting = document.getElementById('greeting');

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const name = input.value.trim() || 'stranger';
  greeting.textContent = `Hello, ${name}!`;
  if (window.parent !== window) {
    window.parent.postMessage({ type: 'greeting', text: greeting.textContent }, location.origin);
  }
});
