/**
 * The body of a download as relayed to the caller, with two limits: it is closed when the
 * caller stops reading for `idleMs` (the register connection behind it is then freed), and when
 * it has run for `maxMs` in all. Written by hand: Node's stream timeouts and undici's
 * `bodyTimeout` watch the sender (the register), not the reader.
 */
import type { Readable } from 'node:stream';
import type { DownloadLimits } from '../services/settings';

export class DownloadStalled extends Error {
  override name = 'DownloadStalled';
}

/**
 * Watches `source` in place and returns it, so the HTTP response pipes the register's own body
 * (no stream in between: with one, the relay ran at about 0.8× a bare Node relay's speed, npm
 * run bench section 5; without it, 0.96–0.98×).
 * A pull is a call of `read()`, which is how every consumer, `pipe` included, takes bytes.
 */
export function watchedDownload(source: Readable, limits: DownloadLimits, onClose: () => void): Readable {
  let lastPull = performance.now();
  const read = source.read;
  source.read = function pull(this: Readable, size?: number) {
    lastPull = performance.now();
    return read.call(this, size);
  };
  source.once('close', () => {
    clearInterval(watch);
    clearTimeout(overall);
    onClose();
  });
  // Waiting bytes that nobody has asked for in idleMs: the caller has stopped reading.
  const watch = setInterval(
    () => {
      if (source.readableLength > 0 && performance.now() - lastPull > limits.idleMs) {
        source.destroy(new DownloadStalled('the caller stopped reading'));
      }
    },
    Math.max(10, Math.min(1_000, limits.idleMs / 4)),
  );
  const overall = setTimeout(() => source.destroy(new DownloadStalled('the download ran past its time limit')), limits.maxMs);
  watch.unref();
  overall.unref();
  return source;
}
