/**
 * What `npm start` runs: checks the Node.js version before anything that needs Node 26 is
 * loaded (node:sqlite, the embedded store), so an old Node fails with one line that names the
 * fix instead of a module error from deep inside the start-up. Only node-version.ts may be
 * imported statically here: every other import would load before the check.
 */
import { nodeVersionProblem } from './node-version';

// From the sources (npm start, through tsx) this file is start.ts; built, it is dist/start.js.
const problem = nodeVersionProblem(process.versions.node, import.meta.url.endsWith('.ts') ? 'sources' : 'compiled');
if (problem) {
  // JSON like every other line of the service, on stderr: nothing is being served.
  process.stderr.write(
    `${JSON.stringify({ level: 60, time: new Date().toISOString(), service: 'titlegraph', event: 'start', msg: problem })}\n`,
  );
  process.exit(1);
}
await import('./main');
