// Success checks on the demo sites' real state: the DOM of the task's tab (read with
// Playwright, shadow roots and frames included), the demo API's records, and for the data
// tasks the server's stored output compared with the demo's ground truth. A check never asks
// the agent or the model whether it succeeded.
import type { CheckContext, CheckResult } from './task';

export type Check = (ctx: CheckContext) => Promise<CheckResult>;

const pass = (detail: string): CheckResult => ({ ok: true, detail });
const fail = (detail: string): CheckResult => ({ ok: false, detail });

/** The text of the first element matching `selector` in the tab (shadow DOM pierced). */
export async function textIn(ctx: CheckContext, selector: string): Promise<string> {
  const locator = ctx.page.locator(selector).first();
  if ((await locator.count()) === 0) return '';
  return ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

/** The element's text equals `expected` (or matches it). */
export function textIs(selector: string, expected: string | RegExp): Check {
  return async (ctx) => {
    const text = await textIn(ctx, selector);
    const ok = typeof expected === 'string' ? text === expected : expected.test(text);
    return ok ? pass(`${selector}: "${text}"`) : fail(`${selector} shows "${text}"`);
  };
}

/** The tab's URL path (and query) is `expected`. */
export function pathIs(expected: string): Check {
  return async (ctx) => {
    const url = new URL(ctx.page.url());
    const at = `${url.pathname}${url.search}`;
    return at === expected ? pass(`at ${at}`) : fail(`at ${at}, expected ${expected}`);
  };
}

/** Every check holds; the details of all of them, or the first failure's. */
export function allOf(...checks: Check[]): Check {
  return async (ctx) => {
    const details: string[] = [];
    for (const check of checks) {
      const result = await check(ctx);
      if (!result.ok) return result;
      details.push(result.detail);
    }
    return pass(details.join('; '));
  };
}

export async function demoJson<T>(ctx: CheckContext, path: string): Promise<T> {
  const res = await fetch(`${ctx.demo}${path}`);
  if (!res.ok) throw new Error(`GET ${path} answered ${res.status}`);
  return (await res.json()) as T;
}

export async function serverJson<T>(ctx: CheckContext, path: string): Promise<T> {
  const res = await fetch(`${ctx.server.url}${path}`, {
    headers: { authorization: `Bearer ${ctx.server.apiKey}` },
  });
  if (!res.ok) throw new Error(`GET ${path} answered ${res.status}`);
  return (await res.json()) as T;
}

/** Compares the listed fields of a record with the expected values. */
export function sameFields(
  record: Record<string, unknown> | undefined,
  expected: Record<string, unknown>,
): CheckResult {
  if (!record) return fail('no record');
  const wrong = Object.entries(expected)
    .filter(([key, value]) => record[key] !== value)
    .map(
      ([key, value]) => `${key}=${JSON.stringify(record[key])} (expected ${JSON.stringify(value)})`,
    );
  return wrong.length === 0
    ? pass(
        Object.entries(expected)
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
          .join(', '),
      )
    : fail(wrong.join(', '));
}

export { fail, pass };
