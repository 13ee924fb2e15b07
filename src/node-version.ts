/**
 * The Node.js check that `npm start` (src/start.ts) makes before loading anything that needs
 * Node 26. Kept apart from the entry so that it can be imported (and tested) without starting
 * the service.
 */
export const REQUIRED_NODE_MAJOR = 26;

/**
 * How this process was started: `sources` (npm start: tsx over src/, in a checkout with its dev
 * dependencies) or `compiled` (dist/start.js from npm run build: a production install or the image).
 */
export type StartKind = 'sources' | 'compiled';

/** The line to print when `version` (process.versions.node) is too old; undefined when it will do. */
export function nodeVersionProblem(version: string, kind: StartKind = 'sources'): string | undefined {
  const major = Number(version.replace(/^v/, '').split('.')[0]);
  if (Number.isInteger(major) && major >= REQUIRED_NODE_MAJOR) return undefined;
  const needed = `titlegraph needs Node.js ${REQUIRED_NODE_MAJOR} or later, and this is ${version}. `;
  if (kind === 'compiled') {
    // A production install (npm ci --omit=dev) has no project Node: npm install would not help.
    return (
      needed +
      `Run dist/start.js with Node ${REQUIRED_NODE_MAJOR}: install Node ${REQUIRED_NODE_MAJOR} on this machine and start it again with that node (node --enable-source-maps dist/start.js), or run the container image (Dockerfile, FROM node:${REQUIRED_NODE_MAJOR}-slim), which has it.`
    );
  }
  return (
    needed +
    `Run 'npm install' without --ignore-scripts: it installs the project's own Node ${REQUIRED_NODE_MAJOR} (package.json's allowScripts lets its install script run, under npm 11 and 12 alike), which npm start then uses; or install Node ${REQUIRED_NODE_MAJOR}.`
  );
}
