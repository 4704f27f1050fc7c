// What a bench/tasks run stands on, started in order and closed in reverse: the demo sites, the
// model (the scripted one records every request it answers), the fault proxy in front of it
// under --faults, the Tandem server, Chromium with the extension, and the server's records.
import { startDemoSites } from '@tandem/demo-sites';
import { serverEnv, type ModelChoice } from './env';
import type { FaultPlan } from './faults/plan';
import { startFaultProxy, type FaultProxy } from './faults/proxy';
import { launchExtension, type ExtensionBrowser } from './harness/browser';
import { serverRecords, type ServerRecords } from './harness/records';
import { startServer, type TandemServer } from './harness/server';
import type { ModelDouble } from '@tandem/agent/testing/model-double';
import { startScriptedModel } from './model/answer';

export interface Stack {
  demo: { url: string };
  /** The scripted model; null with a real one. */
  model: ModelDouble | null;
  /** The fault proxy; null outside faults mode. */
  proxy: FaultProxy | null;
  server: TandemServer;
  browser: ExtensionBrowser;
  records: ServerRecords;
  close(): Promise<void>;
}

/**
 * The scripted model's variables. The plain run turns retries off so a wrong answer fails at
 * once; under faults the server keeps the product's retry defaults, since how it rides out
 * faults with them is what the run measures.
 */
function scriptedEnv(baseUrl: string, faults: boolean): Record<string, string> {
  return {
    GEMINI_API_KEY: 'scripted',
    GEMINI_BASE_URL: baseUrl,
    ...(faults ? {} : { LLM_MAX_RETRIES: '0' }),
  };
}

export async function startStack(
  model: ModelChoice,
  faults: FaultPlan | null,
  modelLatencyMs = 0,
): Promise<Stack> {
  const demo = await startDemoSites();
  const scripted = model.kind === 'scripted' ? await startScriptedModel(modelLatencyMs) : null;
  const proxy = scripted && faults ? await startFaultProxy(scripted.url, faults) : null;
  const modelEnv =
    model.kind === 'real'
      ? model.env
      : scriptedEnv(proxy?.url ?? scripted?.url ?? '', proxy !== null);
  const server = await startServer((own) => serverEnv(modelEnv, own));
  const browser = await launchExtension(server);
  const records = await serverRecords(server);
  return {
    demo,
    model: scripted,
    proxy,
    server,
    browser,
    records,
    async close() {
      await records.close();
      await browser.close();
      await server.close();
      await proxy?.close();
      await scripted?.close();
      await demo.close();
    },
  };
}
