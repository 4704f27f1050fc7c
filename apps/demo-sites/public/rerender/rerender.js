// A list whose DOM is thrown away and rebuilt (same markup) on a timer, like a poorly keyed
// framework list or a polling dashboard. Element handles an agent captured go stale within
// one interval, yet clicking the "same" button must still work. `?interval=ms` changes the
// period (default 500 ms).

const INVOICES = [
  { id: 'INV-1001', vendor: 'Acme Supplies', amount: '$1,200.00' },
  { id: 'INV-1002', vendor: 'Blue Harbor Logistics', amount: '$845.50' },
  { id: 'INV-1003', vendor: 'Cedar & Co. Printing', amount: '$312.75' },
  { id: 'INV-1004', vendor: 'Delta Office Furniture', amount: '$4,980.00' },
  { id: 'INV-1005', vendor: 'Evergreen Cleaning', amount: '$640.00' },
];

const list = document.getElementById('invoice-list');
const log = document.getElementById('click-log');
const requested = Number(new URLSearchParams(location.search).get('interval'));
const interval = Number.isFinite(requested) && requested >= 50 ? requested : 500;
let renders = 0;
let pressing = false;

function markup() {
  return INVOICES.map(
    (invoice) => `
      <li>
        <span><strong>${invoice.id}</strong> · ${invoice.vendor} · ${invoice.amount}</span>
        <button type="button" data-invoice="${invoice.id}" aria-label="Approve ${invoice.id}">Approve</button>
      </li>`,
  ).join('');
}

function render() {
  // A press that began on an old node and ended on a new one would fire no click at all;
  // real users hold the button for ~100 ms, so we wait for the release instead.
  if (pressing) return;
  const focused = document.activeElement?.closest?.('[data-invoice]')?.dataset.invoice;
  list.innerHTML = markup();
  renders += 1;
  list.dataset.renders = String(renders);
  // Keyboard users would otherwise lose their place on every refresh.
  if (focused) list.querySelector(`[data-invoice="${focused}"]`)?.focus();
}

list.addEventListener('pointerdown', () => {
  pressing = true;
});
window.addEventListener('pointerup', () => {
  // The click event follows pointerup in the same task; release the gate after it.
  setTimeout(() => (pressing = false), 0);
});
window.addEventListener('pointercancel', () => {
  pressing = false;
});

// Delegated: the buttons come and go, the list element stays.
list.addEventListener('click', async (event) => {
  const button = event.target instanceof Element ? event.target.closest('[data-invoice]') : null;
  if (!button) return;
  const itemId = button.dataset.invoice;
  try {
    const response = await fetch('/api/rerender/clicks', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ itemId }),
    });
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    const { total } = await response.json();
    log.textContent = `Approved ${itemId} (${total} ${total === 1 ? 'approval' : 'approvals'} so far).`;
  } catch (error) {
    log.textContent = `Could not approve ${itemId}: ${error.message}`;
  }
});

render();
setInterval(render, interval);
