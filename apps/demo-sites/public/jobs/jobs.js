// Renders one page of the job board from the demo API (`?page=n`, default 1) and shows a job's
// details beside the list when its card is clicked. Pages are real navigations (links), as on
// a server-rendered board, so an agent pages with click or navigate alike.

const list = document.getElementById('job-list');
const summary = document.getElementById('results-summary');
const pagination = document.getElementById('pagination');
const detail = document.getElementById('job-detail');
const detailTitle = document.getElementById('job-detail-title');
const detailCompany = document.getElementById('job-detail-company');
const detailFields = document.getElementById('job-detail-fields');
const detailDescription = document.getElementById('job-detail-description');
const closeButton = document.getElementById('job-detail-close');

const requested = new URLSearchParams(location.search).get('page') ?? '1';
const page = /^\d{1,3}$/.test(requested) ? Number(requested) : 1;
/** Jobs of this page by card index (ids are not unique enough: one job has none). */
let jobs = [];
let selected = -1;

function text(tag, content, className) {
  const node = document.createElement(tag);
  node.textContent = content;
  if (className) node.className = className;
  return node;
}

function card(job, index, promoted) {
  const item = document.createElement('li');
  const article = document.createElement('article');
  article.className = 'job-card';
  article.dataset.index = String(index);
  if (job.id) article.dataset.jobId = job.id;
  const headingId = `job-card-${index}-title`;
  article.setAttribute('aria-labelledby', headingId);

  const heading = document.createElement('h3');
  heading.id = headingId;
  const open = text('button', job.title);
  open.type = 'button';
  open.setAttribute('aria-controls', 'job-detail');
  open.setAttribute('aria-expanded', 'false');
  heading.append(open);
  if (promoted) heading.append(text('span', 'Promoted', 'badge'));

  article.append(heading, text('p', job.company, 'company'), text('p', job.location, 'location'));
  if (job.id) article.append(text('p', `Job ID: ${job.id}`, 'job-id'));
  item.append(article);
  return item;
}

function field(term, value, name) {
  const dt = text('dt', term);
  const dd = text('dd', value);
  dd.dataset.field = name;
  return [dt, dd];
}

function select(index) {
  const job = jobs[index];
  if (!job) return;
  selected = index;
  for (const article of list.querySelectorAll('.job-card')) {
    const isSelected = Number(article.dataset.index) === index;
    article.classList.toggle('selected', isSelected);
    article.querySelector('h3 button').setAttribute('aria-expanded', String(isSelected));
  }
  detailTitle.textContent = job.title;
  detailCompany.textContent = job.company;
  const rows = [];
  if (job.id) rows.push(...field('Job ID', job.id, 'jobId'));
  rows.push(...field('Location', job.location, 'location'));
  // Like real boards, a job without a salary simply has no salary row.
  if (job.salary) rows.push(...field('Salary', job.salary, 'salary'));
  rows.push(...field('Employment type', job.employmentType, 'employmentType'));
  detailFields.replaceChildren(...rows);
  detailDescription.textContent = job.description;
  detail.hidden = false;
}

function closeDetail() {
  detail.hidden = true;
  const button = list.querySelector(`.job-card[data-index="${selected}"] h3 button`);
  for (const article of list.querySelectorAll('.job-card')) {
    article.classList.remove('selected');
    article.querySelector('h3 button').setAttribute('aria-expanded', 'false');
  }
  selected = -1;
  button?.focus();
}

function pageLink(target, label, rel) {
  const link = text('a', label);
  link.href = `/jobs/?page=${target}`;
  link.rel = rel;
  return link;
}

function renderPagination(current, pageCount) {
  const parts = [];
  if (current > 1) parts.push(pageLink(current - 1, 'Previous page', 'prev'));
  const position = text('span', `Page ${current} of ${pageCount}`);
  position.setAttribute('aria-current', 'page');
  parts.push(position);
  if (current < pageCount) parts.push(pageLink(current + 1, 'Next page', 'next'));
  else parts.push(text('span', 'Last page', 'hint'));
  pagination.replaceChildren(...parts);
}

// The whole card is a target for pointer users; the title button is the accessible one.
list.addEventListener('click', (event) => {
  const article = event.target instanceof Element ? event.target.closest('.job-card') : null;
  if (article) select(Number(article.dataset.index));
});
closeButton.addEventListener('click', closeDetail);
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && !detail.hidden) closeDetail();
});

async function load() {
  try {
    const response = await fetch(`/api/jobs?page=${page}`);
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    const board = await response.json();
    jobs = board.jobs;
    const previousIds = new Set();
    if (page > 1) {
      // A listing repeated from the previous page is marked "Promoted", as boards do.
      const previous = await (await fetch(`/api/jobs?page=${page - 1}`)).json();
      for (const job of previous.jobs) if (job.id) previousIds.add(job.id);
    }
    list.replaceChildren(
      ...jobs.map((job, index) => card(job, index, job.id !== null && previousIds.has(job.id))),
    );
    summary.textContent = `Page ${board.page} of ${board.pageCount} · ${jobs.length} jobs`;
    document.title = `Software jobs – page ${board.page} of ${board.pageCount} · Hireline`;
    renderPagination(board.page, board.pageCount);
  } catch (error) {
    summary.textContent = `Sorry, the jobs could not be loaded: ${error.message}`;
  } finally {
    list.setAttribute('aria-busy', 'false');
  }
}

load();
