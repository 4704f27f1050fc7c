// The server's request pipeline without Next.js around it, for benchmarks and tools that drive
// the real route handlers (auth, rate limits, validation, agent) in-process.
export { parseEnv } from './env';
export { createRuntime, type Runtime } from './server/runtime';
export { POST as interactRoute } from './app/api/agent/interact/route';
export { GET as healthRoute } from './app/api/health/route';
