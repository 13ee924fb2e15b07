/**
 * Reloads a configuration file without a restart: on SIGHUP, and when the file changes. The
 * folder is watched, not the file: an editor's save and Kubernetes' update of a mounted
 * ConfigMap both replace the file (a rename, or a symlink swapped under `..data`), which a watch
 * of the file itself stops seeing after the first time. Changes that come together (an editor
 * writes, then renames) make one reload.
 */
import { watch } from 'node:fs';
import { basename, dirname } from 'node:path';

/** Changes closer together than this make one reload. */
const SETTLE_MS = 200;

/** Calls `reload` on SIGHUP and after `file` changes; returns what stops both. */
export function reloadOnChange(file: string, reload: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  const settle = () => {
    clearTimeout(timer);
    timer = setTimeout(reload, SETTLE_MS);
  };
  const name = basename(file);
  const watcher = watch(dirname(file), { persistent: false }, (_, changed) => {
    // No name (some platforms), the file itself, or a mounted ConfigMap's swap of `..data`.
    if (!changed || changed === name || changed.startsWith('..')) settle();
  });
  // A signal is an operator's explicit ask: at once, and even when the file looks the same.
  const onSignal = () => reload();
  process.on('SIGHUP', onSignal);
  return () => {
    clearTimeout(timer);
    watcher.close();
    process.off('SIGHUP', onSignal);
  };
}
