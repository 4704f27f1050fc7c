// The entry of each pool thread. The workspace packages export TypeScript source (no build
// step), so the thread loads them through tsx, as the CLI and the benches do; the server's own
// bundle is not used here because a bundler cannot see a file a pool opens at run time.
import { register } from 'tsx/esm/api';

register();
const { runJob } = await import('./jobs.ts');

export default runJob;
