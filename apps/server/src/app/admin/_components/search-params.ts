// Query strings from the admin forms: an empty field means "not given" (a date input left
// blank submits `from=`), and a repeated parameter counts once.
export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export async function formParams(searchParams: SearchParams): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(await searchParams)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined && first.trim() !== '') out[key] = first.trim();
  }
  return out;
}

/** The page's own URL (path + its form parameters), to come back to after signing in. */
export function pagePath(pathname: string, params: Record<string, string>): string {
  const query = new URLSearchParams(params).toString();
  return query ? `${pathname}?${query}` : pathname;
}
