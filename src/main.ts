import './compile-cache.js';

// loaded once the compile cache is on (a static import would load them first)
const { startsWorkers, superviseWorkers } = await import('./server-workers.js');
try {
  if (startsWorkers()) await superviseWorkers();
  else await import('./server.js');
} catch (error) {
  process.stderr.write(`${error instanceof Error && error.name === 'ConfigurationError' ? error.message : String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
}
