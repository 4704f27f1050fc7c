import { loadDeps } from './deps';
import { loadCorpus } from './corpus';
import { servePages } from './server';
const name = process.argv[2] ?? '0005';
const deps = await loadDeps();
const bundles = await deps.buildIife({ write: false });
const corpus = loadCorpus(400).filter((p) => p.name === name);
const server = await servePages(new Map(corpus.map((p) => [`/p/${p.name}`, p.html])));
const browser = await deps.launch([
  ...deps.chromiumArgs,
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
]);
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
await context.addInitScript({ content: bundles.page });
const page = await context.newPage();
await page
  .goto(server.url(`/p/${name}`), { waitUntil: 'load', timeout: 20000 })
  .catch(() => undefined);
const r = await page.evaluate(() => {
  const g = globalThis as unknown as {
    performance: { now(): number };
    document: { getElementsByTagName(t: string): { length: number } };
    TandemPage: { captureTree(o?: object): { interactiveTree: unknown[] } };
  };
  const out: string[] = [];
  for (const o of [{ occlusion: false }, { occlusion: false }, {}, {}, { occlusion: false }, {}]) {
    const t = g.performance.now();
    const res = g.TandemPage.captureTree(o);
    out.push(
      `${JSON.stringify(o)} ${(g.performance.now() - t).toFixed(1)} n=${res.interactiveTree.length}`,
    );
  }
  return `${g.document.getElementsByTagName('*').length} elements\n` + out.join('\n');
}, undefined);
console.log(r);
await browser.close();
await server.close();
