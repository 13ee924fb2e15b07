/**
 * Another commit to measure against: checked out once as a detached git worktree under the
 * system temp folder, and reused by later runs. A release is its code and its dependencies: a
 * commit whose package-lock.json differs from this checkout's gets its own node_modules (`npm ci`
 * from its lock, once); one with the same lock shares this checkout's (a symlink).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './procs';

export interface BaselineCheckout {
  /** The ref as given (e.g. a tag, `main~3`). */
  ref: string;
  /** Its short commit id. */
  sha: string;
  root: string;
}

export function baselineCheckout(ref: string): BaselineCheckout {
  const sha = execFileSync('git', ['rev-parse', '--short', `${ref}^{commit}`], { cwd: ROOT, encoding: 'utf8' }).trim();
  const root = join(tmpdir(), `titlegraph-baseline-${sha}`);
  if (!existsSync(join(root, 'src', 'main.ts'))) {
    execFileSync('git', ['worktree', 'prune'], { cwd: ROOT, stdio: 'ignore' });
    execFileSync('git', ['worktree', 'add', '--force', '--detach', root, sha], { cwd: ROOT, stdio: 'ignore' });
  }
  const modules = join(root, 'node_modules');
  const lock = (dir: string) => readFileSync(join(dir, 'package-lock.json'), 'utf8');
  const sameLock = lock(root) === lock(ROOT);
  const shared = existsSync(modules) && lstatSync(modules).isSymbolicLink();
  if (!sameLock && shared) rmSync(modules);
  if (!existsSync(modules)) {
    if (sameLock) symlinkSync(join(ROOT, 'node_modules'), modules);
    else {
      try {
        execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: root, stdio: 'ignore' });
      } catch (error) {
        // Half an install would be taken as done by the next run: none is left instead.
        rmSync(modules, { recursive: true, force: true });
        throw error;
      }
    }
  }
  return { ref, sha, root };
}
