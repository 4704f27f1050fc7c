// V3 trees of the demo EMR (apps/demo-sites/public/emr), written by hand from its markup, for
// the re-planning tests. `*Interactive` is what the extension sends (interactive elements
// only); the `*Rich` trees add the landmarks, headings and tables a structural capture sees.
import type { SemanticNodeV3 } from '@tandem/contracts';

/** The shell header present on every EMR route (the Patients menu closed). */
export const emrHeader: SemanticNodeV3[] = [
  { i: '1', r: 'link', n: 'Skip to main content' },
  { i: '2', r: 'link', n: 'Tandem Health EMR' },
  { i: '3', r: 'link', n: 'Dashboard' },
  { i: '4', r: 'btn', n: 'Patients', s: 'collapsed' },
  { i: '5', r: 'link', n: 'Schedule' },
];

/** The Patients menu items, in the tree only while the menu is open. */
export const emrPatientsMenu: SemanticNodeV3[] = [
  { i: '6', r: 'menu', n: 'New/Search' },
  { i: '7', r: 'menu', n: 'Recent' },
];

const shellStructure: SemanticNodeV3[] = [
  { i: 's1', r: 'banner' },
  { i: 's2', r: 'navigation', n: 'Main' },
  { i: 's3', r: 'text', n: 'Signed in as Dr. Rivera' },
  { i: 's4', r: 'main' },
  { i: 's5', r: 'contentinfo', n: 'Tandem Health EMR · demo data only' },
];

/** /emr/ — the dashboard view. */
export const dashboardInteractive: SemanticNodeV3[] = [...emrHeader];
export const dashboardRich: SemanticNodeV3[] = [
  ...emrHeader,
  ...shellStructure,
  { i: 'd1', r: 'heading', n: 'Dashboard' },
  {
    i: 'd2',
    r: 'text',
    n: 'Welcome back, Dr. Rivera. Use the Patients menu to find or add a patient.',
  },
  { i: 'd3', r: 'region', n: 'Today' },
  { i: 'd4', r: 'heading', n: 'Today' },
  { i: 'd5', r: 'list' },
  { i: 'd6', r: 'listitem', n: 'Patients on file: 3' },
  { i: 'd7', r: 'listitem', n: 'Appointments: 0' },
  { i: 'd8', r: 'listitem', n: 'Unread messages: 2' },
];

/** /emr/patients/new — patient search and the "Add new patient" form. */
export const newSearchInteractive: SemanticNodeV3[] = [
  ...emrHeader,
  { i: '10', r: 'inp', n: 'Search patients', v: '' },
  { i: '11', r: 'btn', n: 'Search' },
  { i: '12', r: 'inp', n: 'First name', v: '', s: 'required' },
  { i: '13', r: 'inp', n: 'Last name', v: '', s: 'required' },
  { i: '14', r: 'inp', n: 'Date of birth', v: '' },
  { i: '15', r: 'sel', n: 'Sex', v: 'Select…' },
  { i: '16', r: 'inp', n: 'Phone', v: '' },
  { i: '17', r: 'btn', n: 'Save' },
  { i: '18', r: 'btn', n: 'Clear form' },
];
export const newSearchRich: SemanticNodeV3[] = [
  ...newSearchInteractive,
  ...shellStructure,
  { i: 'n1', r: 'heading', n: 'Patients' },
  { i: 'n2', r: 'region', n: 'Patient search' },
  { i: 'n3', r: 'heading', n: 'Patient search' },
  { i: 'n4', r: 'search', n: 'Patient search' },
  { i: 'n5', r: 'table', n: 'Patients' },
  { i: 'n6', r: 'columnheader', n: 'Patient ID' },
  { i: 'n7', r: 'columnheader', n: 'Name' },
  { i: 'n8', r: 'columnheader', n: 'Date of birth' },
  { i: 'n9', r: 'columnheader', n: 'Sex' },
  { i: 'n10', r: 'columnheader', n: 'Phone' },
  { i: 'n11', r: 'region', n: 'Add new patient' },
  { i: 'n12', r: 'heading', n: 'Add new patient' },
  { i: 'n13', r: 'form', n: 'Add new patient' },
  { i: 'n14', r: 'text', n: 'Format: MM/DD/YYYY' },
  { i: 'n15', r: 'status' },
];
