// Site variants: one change to the EMR's "Add new patient" form and the appointment request
// form, switched on between runs without restarting the server, so a benchmark can record a
// routine on the plain site and then rerun it on a site that changed a little (a button
// renamed, a field added, an element moved, a confirmation added) or whose same-looking form
// does something else (the staff form). Off by default and after every reset: the plain sites
// are exactly what every other test sees.

export const DEMO_VARIANTS = {
  /** The submit button renamed: "Save" → "Save patient", "Submit request" → "Request appointment". */
  'rename-submit': 'the submit button renamed',
  /** An optional extra field: "Middle name" in the EMR, "Preferred date" on the form. */
  'extra-field': 'an optional field added',
  /** The submit button moved from the form's end to its start. */
  'move-submit': 'the submit button moved to the top of the form',
  /** "Are you sure?" with Confirm and Cancel after submit: only Confirm saves. */
  'confirm-dialog': 'a confirmation dialog after submit',
  /**
   * /emr/staff/new: the add-patient form's labels on a page that adds a staff member. A
   * different meaning behind the same form, on the same site.
   */
  'staff-form': 'the same form on another path adds a staff member',
} as const;

export type DemoVariant = keyof typeof DEMO_VARIANTS;

export const isDemoVariant = (value: unknown): value is DemoVariant =>
  typeof value === 'string' && Object.hasOwn(DEMO_VARIANTS, value);

export type VariantRequest =
  { ok: true; variant: DemoVariant | null } | { ok: false; message: string };

/** POST /api/demo/variant's body: `{ "name": "<variant>" }`, or `{ "name": null }` for none. */
export function parseVariantRequest(body: unknown): VariantRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('name' in body))
    return { ok: false, message: 'Body must be { "name": <variant> | null }.' };
  const { name } = body as { name: unknown };
  if (name === null) return { ok: true, variant: null };
  if (isDemoVariant(name)) return { ok: true, variant: name };
  return {
    ok: false,
    message: `Unknown variant ${JSON.stringify(name)}: one of ${Object.keys(DEMO_VARIANTS).join(', ')}, or null.`,
  };
}

/**
 * The page with the variant named on its root element (`data-demo-variant`), where the sites'
 * scripts read it before they render: the pages need no extra request, so with no variant set
 * they are served byte for byte as before.
 */
export function markVariant(html: string, variant: DemoVariant | null): string {
  if (variant === null) return html;
  return html.replace(/<html\b/i, `<html data-demo-variant="${variant}"`);
}
