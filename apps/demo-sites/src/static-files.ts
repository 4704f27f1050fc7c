// Maps a request path onto a file under public/. The raw path is checked before anything
// normalises it: `new URL()` would quietly turn `/../x` into `/x`, and we want a traversal
// attempt to be refused outright rather than served from somewhere surprising.
import { stat } from 'node:fs/promises';
import path from 'node:path';

export type StaticResolution =
  | { kind: 'file'; filePath: string }
  | { kind: 'redirect'; location: string }
  | { kind: 'not-found' }
  | { kind: 'bad-request'; reason: string };

export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

export function contentTypeFor(filePath: string): string {
  return CONTENT_TYPES[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

export interface ResolveOptions {
  /** Absolute path of the directory served at `/`. */
  readonly root: string;
  /**
   * Client-routed apps: an unknown extension-less path under one of these prefixes gets the
   * prefix's index.html, so a reload of a pushState URL works as it does on a real SPA host.
   */
  readonly spaRoots?: readonly string[];
}

async function kindOf(filePath: string): Promise<'file' | 'directory' | null> {
  try {
    const info = await stat(filePath);
    if (info.isFile()) return 'file';
    if (info.isDirectory()) return 'directory';
    return null;
  } catch {
    return null;
  }
}

/** `rawPath` is the request target as received (path and optional query). */
export async function resolveStatic(
  rawPath: string,
  options: ResolveOptions,
): Promise<StaticResolution> {
  const root = path.resolve(options.root);
  const queryAt = rawPath.indexOf('?');
  const encoded = queryAt === -1 ? rawPath : rawPath.slice(0, queryAt);
  const query = queryAt === -1 ? '' : rawPath.slice(queryAt);
  if (!encoded.startsWith('/')) return { kind: 'bad-request', reason: 'path must start with /' };

  let pathname: string;
  try {
    pathname = decodeURIComponent(encoded);
  } catch {
    return { kind: 'bad-request', reason: 'malformed percent-encoding' };
  }
  if (pathname.includes('\0') || pathname.includes('\\')) {
    return { kind: 'bad-request', reason: 'forbidden character in path' };
  }
  const segments = pathname.split('/');
  if (segments.some((segment) => segment === '..')) {
    return { kind: 'bad-request', reason: 'path traversal' };
  }
  // Dotfiles are never part of a site; refusing them keeps editor and OS droppings private.
  if (segments.some((segment) => segment.startsWith('.') && segment.length > 0)) {
    return { kind: 'not-found' };
  }

  const target = path.resolve(root, `.${pathname}`);
  // Belt and braces: whatever the checks above missed must still land inside the root.
  if (target !== root && !target.startsWith(root + path.sep)) {
    return { kind: 'bad-request', reason: 'path traversal' };
  }

  const kind = await kindOf(target);
  if (kind === 'file') return { kind: 'file', filePath: target };
  if (kind === 'directory') {
    // Relative links inside /emr/index.html only work when the URL ends with a slash.
    if (!pathname.endsWith('/')) return { kind: 'redirect', location: `${encoded}/${query}` };
    const index = path.join(target, 'index.html');
    return (await kindOf(index)) === 'file'
      ? { kind: 'file', filePath: index }
      : { kind: 'not-found' };
  }

  const last = segments.at(-1) ?? '';
  const spaRoot = options.spaRoots?.find((prefix) => pathname.startsWith(prefix));
  if (spaRoot && !last.includes('.')) {
    const index = path.resolve(root, `.${spaRoot}`, 'index.html');
    if ((await kindOf(index)) === 'file') return { kind: 'file', filePath: index };
  }
  return { kind: 'not-found' };
}
