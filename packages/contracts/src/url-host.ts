/**
 * The host of a URL ("app.example.com:8080"), or null for a missing or unparsable one: the key
 * tenant-scoped records are kept per site by (skills, extraction strategies).
 */
export function hostOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).host || null;
  } catch {
    return null;
  }
}
