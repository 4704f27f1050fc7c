// `npm run demo-sites [-- --port 4000]`: serve every demo site and print
// where each one is, so a person (or an e2e script reading stdout) can open them.
import { USAGE, parseCliArgs } from './cli-args';
import { DEMO_API, DEMO_SITES } from './pages';
import { startDemoSites } from './server';

async function main(): Promise<void> {
  let options;
  try {
    options = parseCliArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (options.help) {
    console.log(USAGE);
    return;
  }

  const sites = await startDemoSites({ port: options.port, host: options.host });
  const width = Math.max(...DEMO_SITES.map((site) => site.title.length), 'Index'.length);
  const lines = [
    `Tandem demo sites on ${sites.url}`,
    '',
    `  ${'Index'.padEnd(width)}  ${sites.url}/`,
    ...DEMO_SITES.map((site) => `  ${site.title.padEnd(width)}  ${sites.url}${site.path}`),
    '',
    'API:',
    `  GET|POST ${sites.url}${DEMO_API.patients}`,
    `  GET|POST ${sites.url}${DEMO_API.rerenderClicks}`,
    `  GET|POST ${sites.url}${DEMO_API.formSubmissions}`,
    `  POST     ${sites.url}${DEMO_API.reset}`,
    '',
    'Press Ctrl+C to stop.',
  ];
  console.log(lines.join('\n'));

  const stop = () => {
    sites.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`demo-sites failed to start: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
});
