/**
 * `npm run build`: the service and the emulator as JavaScript in dist/, for a production start
 * without tsx or esbuild at run time (`node dist/start.js`, as the Dockerfile runs it). Packages
 * stay imports from node_modules (a production install provides them); our code is bundled, with
 * source maps (run with --enable-source-maps). `--outdir DIR` writes elsewhere (the image test).
 *
 * Bundled with esbuild rather than emitted by tsc: the sources import one another without file
 * extensions (moduleResolution Bundler), which Node's ESM loader does not resolve.
 */
import { build } from 'esbuild';

const at = process.argv.indexOf('--outdir');
const outdir = at > 0 ? process.argv[at + 1] : 'dist';

await build({
  // start.ts checks the Node version before main.ts (and node:sqlite) loads: splitting keeps
  // main.ts a chunk of its own, loaded by start.ts's dynamic import after the check.
  entryPoints: { start: 'src/start.ts', 'emulator/main': 'src/emulator/main.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node26',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
console.log(`built ${outdir}/start.js and ${outdir}/emulator/main.js`);
