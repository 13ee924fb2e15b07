/**
 * What `npm start` runs: checks the Node.js version before anything that needs Node 24 is
 * loaded (node:sqlite, the embedded store), so an old Node fails with one line that names the
 * fix instead of a module error from deep inside the start-up.
 */
export const REQUIRED_NODE_MAJOR = 24;

/** The line to print when `version` (process.versions.node) is too old; undefined when it will do. */
export function nodeVersionProblem(version: string): string | undefined {
  const major = Number(version.split('.')[0]);
  if (Number.isInteger(major) && major >= REQUIRED_NODE_MAJOR) return undefined;
  return (
    `titlegraph needs Node.js ${REQUIRED_NODE_MAJOR} or later, and this is ${version}. ` +
    'Run "npm install" (without --ignore-scripts): it installs the project\'s own Node 24, which npm start then uses; or install Node 24.'
  );
}

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  process.stderr.write(`${JSON.stringify({ level: 60, service: 'titlegraph', event: 'start', msg: problem })}\n`);
  process.exit(1);
}
await import('./main');
