/**
 * V8's settings for a long-running server, made from the entry (main.ts) so that every way the
 * service starts has them: `npm start`, the container's `node dist/start.js`, the bench's build
 * of main.ts. Set at run time rather than on the command line: Node does not take V8 flags in
 * NODE_OPTIONS beyond a short list, and the container, npm start and the bench each have a
 * command line of their own. Set before the service serves anything, each holds for everything
 * it weighs under load (test/repo/v8-settings.test.ts checks that both take effect on this Node).
 * The measurements are in docs/performance.md ("2026-11-29, third" and "2026-11-29, fourth").
 */
import { setFlagsFromString } from 'node:v8';

export const V8_SETTINGS = [
  // Allocation-site pretenuring watches which object and array literals have their objects
  // survive a young collection, and has such a site allocate straight into the old generation
  // from then on. Under a server's load it misjudges: a literal whose objects live for one
  // request (a few ms) is caught alive by a collection often enough to be pretenured; its objects
  // then sit in the old generation after the request ends, and while they wait for the next full
  // collection they keep every young object they point to alive through the remembered set, so
  // those are promoted too. Measured on a `title` at 16 connections: 1.8 MB promoted per young
  // collection with it and 0.08 MB without, and 0.85 of the process's CPU per request without it.
  '--no-allocation-site-pretenuring',
  // V8 compiles a function with its top compiler (TurboFan) once it has run about 3,000 times its
  // length in bytecode. A request runs a few hundred functions once each, so under load a fresh
  // replica goes on compiling them for 20 to 30 s, on a helper thread that competes with the
  // requests for the cores; a third of that count has it at full speed in about a third of the
  // time (in peer-bench's window 0.82 of the CPU per `title`; once warm, no difference either way).
  '--invocation-count-for-turbofan=1000',
] as const;

export function applyV8Settings(): void {
  for (const setting of V8_SETTINGS) setFlagsFromString(setting);
}
