// Opens and closes the overlay dialog. `?open=1` opens it on load, which is how cookie
// banners and "subscribe" pop-ups greet a visitor before they can touch the page.

const overlay = document.getElementById('overlay');
const dialog = document.getElementById('confirm-dialog');
const pageStatus = document.getElementById('page-status');
const openButton = document.getElementById('open-dialog');
let returnFocusTo = null;

function openDialog() {
  returnFocusTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  overlay.hidden = false;
  dialog.focus();
}

function closeDialog(message) {
  overlay.hidden = true;
  pageStatus.textContent = message;
  (returnFocusTo ?? openButton).focus();
}

openButton.addEventListener('click', openDialog);
document.getElementById('save-draft').addEventListener('click', () => {
  pageStatus.textContent = 'Draft saved.';
});
document.getElementById('publish').addEventListener('click', () => {
  pageStatus.textContent = 'Article published.';
});
document.getElementById('dialog-close').addEventListener('click', () => {
  closeDialog('Dialog closed without changes.');
});
document.getElementById('dialog-confirm').addEventListener('click', () => {
  closeDialog('Changes confirmed.');
});

document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && !overlay.hidden) closeDialog('Dialog closed without changes.');
});

// Keep keyboard focus inside the dialog while it is open, as aria-modal promises.
document.addEventListener('focusin', (event) => {
  if (!overlay.hidden && event.target instanceof Node && !overlay.contains(event.target)) {
    dialog.focus();
  }
});

if (new URLSearchParams(location.search).get('open') === '1') openDialog();
