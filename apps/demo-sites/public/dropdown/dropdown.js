// Select-only combobox: focus stays on the button and the highlighted option is announced
// through aria-activedescendant, as in the WAI-ARIA APG example.

const combobox = document.getElementById('department-combobox');
const listbox = document.getElementById('department-listbox');
const valueLabel = document.getElementById('department-value');
const hiddenInput = document.getElementById('department-input');
const choice = document.getElementById('department-choice');
const options = [...listbox.querySelectorAll('[role="option"]')];
let activeIndex = -1;
let selectedIndex = -1;

function isOpen() {
  return combobox.getAttribute('aria-expanded') === 'true';
}

function setActive(index) {
  activeIndex = Math.max(0, Math.min(options.length - 1, index));
  options.forEach((option, i) => option.classList.toggle('active', i === activeIndex));
  const active = options[activeIndex];
  combobox.setAttribute('aria-activedescendant', active.id);
  active.scrollIntoView({ block: 'nearest' });
}

function open() {
  listbox.hidden = false;
  combobox.setAttribute('aria-expanded', 'true');
  setActive(selectedIndex >= 0 ? selectedIndex : 0);
}

function close() {
  listbox.hidden = true;
  combobox.setAttribute('aria-expanded', 'false');
  combobox.removeAttribute('aria-activedescendant');
  options.forEach((option) => option.classList.remove('active'));
}

function select(index) {
  selectedIndex = index;
  const option = options[index];
  options.forEach((candidate, i) =>
    candidate.setAttribute('aria-selected', i === index ? 'true' : 'false'),
  );
  valueLabel.textContent = option.textContent;
  hiddenInput.value = option.textContent;
  choice.textContent = `Selected department: ${option.textContent}`;
  close();
  combobox.focus();
}

combobox.addEventListener('click', () => (isOpen() ? close() : open()));

combobox.addEventListener('keydown', (event) => {
  const { key, altKey } = event;
  if (!isOpen()) {
    if (['ArrowDown', 'ArrowUp', 'Enter', ' ', 'Home', 'End'].includes(key)) {
      // Enter and Space would otherwise also "click" the button and close it again.
      event.preventDefault();
      open();
      if (key === 'ArrowUp' && selectedIndex < 0) setActive(0);
      if (key === 'Home') setActive(0);
      if (key === 'End') setActive(options.length - 1);
    }
    return;
  }
  switch (key) {
    case 'ArrowDown':
      event.preventDefault();
      setActive(activeIndex + 1);
      break;
    case 'ArrowUp':
      event.preventDefault();
      if (altKey) select(activeIndex);
      else setActive(activeIndex - 1);
      break;
    case 'Home':
      event.preventDefault();
      setActive(0);
      break;
    case 'End':
      event.preventDefault();
      setActive(options.length - 1);
      break;
    case 'Enter':
    case ' ':
      event.preventDefault();
      select(activeIndex);
      break;
    case 'Escape':
      event.preventDefault();
      close();
      break;
    case 'Tab':
      close();
      break;
    default:
      // Typing a letter jumps to the first department starting with it.
      if (key.length === 1 && /\S/.test(key)) {
        const match = options.findIndex((option) =>
          option.textContent.toLowerCase().startsWith(key.toLowerCase()),
        );
        if (match >= 0) setActive(match);
      }
  }
});

options.forEach((option, index) => {
  option.addEventListener('click', () => select(index));
  option.addEventListener('pointermove', () => setActive(index));
});

// Keep focus on the combobox when an option is pressed, so the button does not blur.
listbox.addEventListener('mousedown', (event) => event.preventDefault());

document.addEventListener('pointerdown', (event) => {
  if (!isOpen() || !(event.target instanceof Node)) return;
  if (combobox.contains(event.target) || listbox.contains(event.target)) return;
  close();
});
