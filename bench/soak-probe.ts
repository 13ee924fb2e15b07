/**
 * Preloaded into the service by `npm run soak` (node --expose-gc --import tsx --import
 * ./bench/soak-probe.ts src/main.ts): answers the soak's IPC "sample" messages with the
 * process's memory, measured after a full garbage collection so the heap figures are comparable.
 */
if (process.send) {
  process.channel?.unref(); // the IPC channel must not keep the service alive after SIGTERM
  process.on('message', (message: unknown) => {
    if (message !== 'sample') return;
    globalThis.gc?.(); // --expose-gc
    const m = process.memoryUsage();
    process.send?.({ kind: 'memory', rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, at: Date.now() });
  });
}
