// The EMR shell: client-side routes (pushState, like a real SPA) and the Patients menu
// button, written to the WAI-ARIA menu-button pattern so agents meet a realistic widget.
import { initDashboard, initNewSearch, initRecent, initStaff } from './patient-views.js';

// A site variant (src/variants.ts) changes one thing; its code loads only when one is on, so
// the plain EMR makes no extra request.
const variant = document.documentElement.dataset.demoVariant ?? null;
const { applyFormVariant } = variant ? await import('./form-variant.js') : {};

const ROUTES = {
  '/emr/': { template: 'view-dashboard', title: 'Dashboard', init: initDashboard },
  '/emr/patients/new': {
    template: 'view-new-search',
    title: 'New/Search patients',
    init: (root) => initNewSearch(root, { confirm: applyFormVariant?.(root, variant) }),
  },
  '/emr/patients/recent': { template: 'view-recent', title: 'Recent patients', init: initRecent },
  '/emr/schedule': { template: 'view-schedule', title: 'Schedule', init: null },
};
if (variant === 'staff-form') {
  ROUTES['/emr/staff/new'] = { template: 'view-staff', title: 'Staff', init: initStaff };
}
const NOT_FOUND = { template: 'view-not-found', title: 'Page not found', init: null };

const main = document.getElementById('main');
const menuButton = document.getElementById('patients-menu-button');
const menu = document.getElementById('patients-menu');

function render({ moveFocus }) {
  const route = ROUTES[location.pathname] ?? NOT_FOUND;
  const template = document.getElementById(route.template);
  main.replaceChildren(template.content.cloneNode(true));
  document.title = `${route.title} · Tandem Health EMR`;
  for (const link of document.querySelectorAll('nav a[data-route]')) {
    if (link.getAttribute('href') === location.pathname) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  route.init?.(main);
  // After an in-app navigation, screen-reader users expect to land on the new heading.
  if (moveFocus) main.querySelector('h1')?.focus();
}

function navigate(href) {
  const url = new URL(href, location.href);
  if (url.pathname !== location.pathname || url.search !== location.search) {
    history.pushState({}, '', url);
  }
  render({ moveFocus: true });
}

document.addEventListener('click', (event) => {
  const link = event.target instanceof Element ? event.target.closest('a[data-route]') : null;
  if (!link) return;
  // Let the browser handle new-tab and similar clicks as it would on any site.
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
    return;
  }
  event.preventDefault();
  closeMenu({ returnFocus: false });
  navigate(link.href);
});

window.addEventListener('popstate', () => render({ moveFocus: true }));

// --- Patients menu -------------------------------------------------------------------------

function menuItems() {
  return [...menu.querySelectorAll('[role="menuitem"]')];
}

function isOpen() {
  return menuButton.getAttribute('aria-expanded') === 'true';
}

function openMenu(focusIndex) {
  menu.hidden = false;
  menuButton.setAttribute('aria-expanded', 'true');
  const items = menuItems();
  items.at(focusIndex)?.focus();
}

function closeMenu({ returnFocus }) {
  if (!isOpen()) return;
  menu.hidden = true;
  menuButton.setAttribute('aria-expanded', 'false');
  if (returnFocus) menuButton.focus();
}

menuButton.addEventListener('click', () => {
  if (isOpen()) closeMenu({ returnFocus: false });
  else openMenu(0);
});

menuButton.addEventListener('keydown', (event) => {
  if (event.key === 'ArrowDown') {
    event.preventDefault();
    openMenu(0);
  } else if (event.key === 'ArrowUp') {
    event.preventDefault();
    openMenu(-1);
  }
});

menu.addEventListener('keydown', (event) => {
  const items = menuItems();
  const index = items.indexOf(document.activeElement);
  const focusAt = (next) => {
    event.preventDefault();
    items.at(next % items.length)?.focus();
  };
  switch (event.key) {
    case 'ArrowDown':
      focusAt(index + 1);
      break;
    case 'ArrowUp':
      focusAt(index - 1);
      break;
    case 'Home':
      focusAt(0);
      break;
    case 'End':
      focusAt(-1);
      break;
    case 'Escape':
      event.preventDefault();
      closeMenu({ returnFocus: true });
      break;
    case 'Tab':
      closeMenu({ returnFocus: false });
      break;
    case ' ':
      // Links ignore Space; menu items are expected to activate on it.
      event.preventDefault();
      document.activeElement?.click();
      break;
  }
});

document.addEventListener('pointerdown', (event) => {
  if (!isOpen()) return;
  const target = event.target;
  if (target instanceof Node && (menu.contains(target) || menuButton.contains(target))) return;
  closeMenu({ returnFocus: false });
});

render({ moveFocus: false });
