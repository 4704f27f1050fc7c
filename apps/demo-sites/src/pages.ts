/**
 * Where each demo page lives. e2e tests and benchmarks build URLs from these instead of
 * hard-coding paths, so a page can move without breaking them.
 */
export const DEMO_PAGES = {
  index: '/',
  emr: '/emr/',
  emrNewSearch: '/emr/patients/new',
  emrRecent: '/emr/patients/recent',
  /** Only with the staff-form variant on: the add-patient form's labels, adding staff. */
  emrStaffNew: '/emr/staff/new',
  form: '/form/',
  modal: '/modal/',
  modalOpen: '/modal/?open=1',
  iframe: '/iframe/',
  iframeWidget: '/iframe/widget.html',
  shadow: '/shadow/',
  rerender: '/rerender/',
  dropdown: '/dropdown/',
  docs: '/docs/',
  jobs: '/jobs/',
  jobsPage2: '/jobs/?page=2',
  jobsPage3: '/jobs/?page=3',
  catalog: '/catalog/',
  catalogPage2: '/catalog/?page=2',
  catalogPage3: '/catalog/?page=3',
  /** `/catalog/prices` redirects here, as every directory page does. */
  catalogPrices: '/catalog/prices/',
  canvas: '/canvas/',
  messages: '/messages/',
  /** The prompt-injection suite's index; the attack pages are INJECTION_ATTACKS. */
  injection: '/inject/',
  /** The clinic's sign-in page, where a stored secret is typed. */
  injectLogin: '/inject/login.html',
} as const;

export type DemoPage = keyof typeof DEMO_PAGES;

/** The JSON API the demo apps talk to; tests read it to check that an action really happened. */
export const DEMO_API = {
  patients: '/api/patients',
  rerenderClicks: '/api/rerender/clicks',
  formSubmissions: '/api/form/submissions',
  /** GET `{ messages }`; POST `{ to, body }`: the messages the EMR sent. */
  messages: '/api/messages',
  /** `?page=n`: `{ page, pageCount, jobs }` — the cards of that board page, in order. */
  jobs: '/api/jobs',
  /** `?page=n`: `{ page, pageCount, products, featuredSkus }` — the cards of that page, in order. */
  catalog: '/api/catalog',
  /** `{ rows }`: the 500 rows of the price list. */
  catalogPrices: '/api/catalog/prices',
  /** GET `{ staff }`; POST a staff member (the staff-form variant's page saves here). */
  staff: '/api/staff',
  /** GET `{ variant }`; POST `{ name }` switches the site variant (variants.ts), null for none. */
  variant: '/api/demo/variant',
  reset: '/__reset',
} as const;

export interface DemoSite {
  readonly title: string;
  readonly path: string;
  readonly description: string;
}

/** One entry per site, in the order the index page and the CLI list them. */
export const DEMO_SITES: readonly DemoSite[] = [
  {
    title: 'EMR',
    path: DEMO_PAGES.emr,
    description: 'Patients menu, patient search and an "Add new patient" form with a slow save',
  },
  {
    title: 'Form',
    path: DEMO_PAGES.form,
    description: 'Appointment request with text, email, select, radio, checkbox and textarea',
  },
  {
    title: 'Modal',
    path: DEMO_PAGES.modal,
    description: 'An overlay dialog that covers the page buttons (?open=1 opens it on load)',
  },
  {
    title: 'Iframe',
    path: DEMO_PAGES.iframe,
    description: 'A same-origin iframe widget with its own input and button',
  },
  {
    title: 'Shadow DOM',
    path: DEMO_PAGES.shadow,
    description: 'A custom element whose open shadow root holds a labelled input and a button',
  },
  {
    title: 'Re-rendering list',
    path: DEMO_PAGES.rerender,
    description: 'A list whose DOM nodes are replaced every 500 ms while clicks still count',
  },
  {
    title: 'Custom dropdown',
    path: DEMO_PAGES.dropdown,
    description: 'A combobox built from a button and a listbox, with keyboard support',
  },
  {
    title: 'Job board',
    path: DEMO_PAGES.jobs,
    description:
      '35 job cards over 3 pages with a detail panel; repeated listings, one card without an id',
  },
  {
    title: 'Product catalogue',
    path: DEMO_PAGES.catalog,
    description:
      '120 product cards over 3 pages (one repeated as "Featured"), a table without a header, and a 500-row price list',
  },
  {
    title: 'Messages',
    path: DEMO_PAGES.messages,
    description: 'Send a patient a message: a step the agent asks the user to approve first',
  },
  {
    title: 'Prompt injection',
    path: DEMO_PAGES.injection,
    description:
      'Pages that attack the agent (hidden instructions, fake system messages, exfiltrating links, phishing forms)',
  },
  {
    title: 'Canvas kiosk',
    path: DEMO_PAGES.canvas,
    description:
      'An order screen drawn on a canvas: its red Order button exists only as pixels (no element to click by id)',
  },
  {
    title: 'Developer docs',
    path: DEMO_PAGES.docs,
    description:
      'A 12-page docs site with a sitemap and robots.txt, for knowledge crawls (KNOWLEDGE_ALLOW_PRIVATE_URLS=true)',
  },
];
