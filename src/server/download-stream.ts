/**
 * The body of a download as relayed to the caller, with two limits: it is closed when the
 * caller stops reading for `idleMs` (the register connection behind it is then freed), and when
 * it has run for `maxMs` in all. Written by hand: Node's stream timeouts and undici's
 * `bodyTimeout` watch the sender (the register), not the reader.
 */
import { Readable } from 'node:stream';

export interface DownloadLimits {
  /** Close when the caller has read nothing for this long while bytes wait for it. */
  idleMs: number;
  /** Close after this long in all. */
  maxMs: number;
}

export class DownloadStalled extends Error {
  override name = 'DownloadStalled';
}

export function watchedDownload(source: Readable, limits: DownloadLimits, onClose: () => void): Readable {
  let lastPull = performance.now();
  const out = new Readable({
    // The caller's pace, not ours, decides how much is buffered: one 64 KiB chunk ahead.
    highWaterMark: 64 * 1024,
    read() {
      lastPull = performance.now();
      source.resume();
    },
    destroy(error, callback) {
      clearInterval(watch);
      clearTimeout(overall);
      source.destroy();
      callback(error);
    },
  });
  source.on('data', (chunk: Buffer) => {
    if (!out.push(chunk)) source.pause();
  });
  source.once('end', () => out.push(null));
  source.once('error', (error) => out.destroy(error));
  out.once('close', onClose);
  // Waiting bytes that nobody has asked for in idleMs: the caller has stopped reading.
  const watch = setInterval(
    () => {
      if (out.readableLength > 0 && performance.now() - lastPull > limits.idleMs) {
        out.destroy(new DownloadStalled('the caller stopped reading'));
      }
    },
    Math.max(10, Math.min(1_000, limits.idleMs / 4)),
  );
  const overall = setTimeout(() => out.destroy(new DownloadStalled('the download ran past its time limit')), limits.maxMs);
  watch.unref();
  overall.unref();
  return out;
}
