// Modules this bench needs that @tandem/bench does not list yet (playwright-core,
// @tandem/chromium, @tandem/page). Until they are added to bench/package.json, they are
// resolved from @tandem/page, which has them all; the small interfaces below type just what
// the bench calls. Once the dependencies are installed here, replace this file with plain
// imports.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const fromPagePackage = createRequire(new URL('../../packages/page/package.json', import.meta.url));

async function load(specifier: string): Promise<unknown> {
  return import(pathToFileURL(fromPagePackage.resolve(specifier)).href);
}

export interface BenchPage {
  goto(
    url: string,
    options?: { waitUntil?: 'load' | 'domcontentloaded'; timeout?: number },
  ): Promise<unknown>;
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  ariaSnapshot(options?: {
    mode?: 'ai' | 'default';
    boxes?: boolean;
    timeout?: number;
  }): Promise<string>;
  locator(selector: string): {
    ariaSnapshot(options?: { timeout?: number }): Promise<string>;
    evaluate<R>(
      fn: (el: unknown) => R,
      arg?: undefined,
      options?: { timeout?: number },
    ): Promise<R>;
  };
  close(): Promise<void>;
}

export interface BenchContext {
  newPage(): Promise<BenchPage>;
  addInitScript(script: { content: string }): Promise<void>;
  close(): Promise<void>;
}

export interface BenchBrowser {
  newContext(options: { viewport: { width: number; height: number } }): Promise<BenchContext>;
  close(): Promise<void>;
}

export interface Deps {
  launch(args: string[]): Promise<BenchBrowser>;
  chromiumArgs: string[];
  buildIife(options: { write: false }): Promise<{ page: string; network: string }>;
}

export async function loadDeps(): Promise<Deps> {
  // playwright-core is CommonJS: require it, its ESM wrapper's named exports are not static.
  const playwright = fromPagePackage('playwright-core') as {
    chromium: {
      launch(options: {
        executablePath: string;
        args: string[];
        headless: boolean;
      }): Promise<BenchBrowser>;
    };
  };
  const chromium = (await load('@tandem/chromium')) as {
    chromiumPath(): string;
    CHROMIUM_ARGS: string[];
  };
  const build = (await load('@tandem/page/build')) as { buildIife: Deps['buildIife'] };
  return {
    launch: (args) =>
      playwright.chromium.launch({ executablePath: chromium.chromiumPath(), args, headless: true }),
    chromiumArgs: chromium.CHROMIUM_ARGS,
    buildIife: build.buildIife,
  };
}
