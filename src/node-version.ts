/**
 * The Node.js check that `npm start` (src/start.ts) makes before loading anything that needs
 * Node 26. Kept apart from the entry so that it can be imported (and tested) without starting
 * the service.
 */
export const REQUIRED_NODE_MAJOR = 26;

/** The line to print when `version` (process.versions.node) is too old; undefined when it will do. */
export function nodeVersionProblem(version: string): string | undefined {
  const major = Number(version.replace(/^v/, '').split('.')[0]);
  if (Number.isInteger(major) && major >= REQUIRED_NODE_MAJOR) return undefined;
  return (
    `titlegraph needs Node.js ${REQUIRED_NODE_MAJOR} or later, and this is ${version}. ` +
    `Run 'npm install' without --ignore-scripts: it installs the project's own Node ${REQUIRED_NODE_MAJOR} (package.json's allowScripts lets its install script run, under npm 11 and 12 alike), which npm start then uses; or install Node ${REQUIRED_NODE_MAJOR}.`
  );
}
