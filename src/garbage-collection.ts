/**
 * The one V8 setting the service makes, from its entry (main.ts) so that every way it starts
 * has it: `npm start`, the container's `node dist/start.js`, the bench's build of main.ts.
 *
 * V8's allocation-site pretenuring watches which object and array literals have their objects
 * survive a young collection, and has such a site allocate straight into the old generation from
 * then on. Under a server's load it misjudges: a literal whose objects live for one request (a
 * few ms) is caught alive by a collection often enough to be pretenured; its objects then sit in
 * the old generation after the request ends, and while they wait for the next full collection
 * they keep every young object they point to alive through the remembered set, so those are
 * promoted too, and their sites are pretenured in turn. Measured on a `title` at 16 connections
 * (docs/performance.md, "2026-11-29, third"): 1.8 MB promoted per young collection with it and
 * 0.08 MB without, young pauses of 3.5 ms against 1.2 ms, full collections that each freed about
 * 160 MB against about 15 MB, and 0.85 of the process's CPU per request on peer-bench without it
 * (the GC helper threads' share included, which a profile of the main thread alone does not show).
 *
 * Set at run time rather than on the command line: Node does not take V8 flags in NODE_OPTIONS
 * beyond a short list, and the container, npm start and the bench each have a command line of
 * their own. Set before the service serves anything, it holds for every collection that weighs
 * the sites under load (test/repo/garbage-collection.test.ts checks it takes effect on this Node).
 */
import { setFlagsFromString } from 'node:v8';

export function tuneGarbageCollection(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
