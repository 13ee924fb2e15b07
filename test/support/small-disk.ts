/**
 * A small filesystem of a test file's own (a 4 MiB tmpfs), to fill up for real, and the filling.
 * Mounting needs root: where it is not allowed, `mountPoint()` is undefined and the file's tests
 * say so themselves.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/** Mounts the tmpfs before the file's tests and unmounts it after them; call at the top of a test file. */
export function smallDiskForFile(): { mountPoint(): string | undefined } {
  let mountPoint: string | undefined;
  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'titlegraph-small-disk-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', dir], { stdio: 'ignore' });
      mountPoint = dir;
    } catch {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  afterAll(() => {
    if (!mountPoint) return;
    execFileSync('umount', ['-l', mountPoint], { stdio: 'ignore' });
    rmSync(mountPoint, { recursive: true, force: true });
  });
  return { mountPoint: () => mountPoint };
}

/** Writes a file until the filesystem has no byte left. */
export function fillDisk(path: string): void {
  const fd = openSync(path, 'w');
  try {
    for (const size of [64 * 1024, 512, 1]) {
      try {
        for (;;) writeSync(fd, Buffer.alloc(size));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
}
