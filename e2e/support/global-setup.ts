// Starts the e2e stack once: the demo sites and a fake Gemini API in this process, and the
// real Tandem server (`next start`, production build) as a child process wired to both.
import { startDemoSites } from '@tandem/demo-sites';
import { exportE2eEnv } from './env';
import { startFakeGemini } from './fake-gemini';
import { startTandemServer } from './tandem-server';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const demo = await startDemoSites({ port: 0 });
  const gemini = await startFakeGemini();
  const server = await startTandemServer({ gemini: gemini.url });
  exportE2eEnv({
    server: server.url,
    apiKey: server.apiKey,
    demo: demo.url,
    gemini: gemini.url,
    dataDir: server.dataDir,
  });

  return async () => {
    await server.close();
    await demo.close();
    await gemini.close();
  };
}
