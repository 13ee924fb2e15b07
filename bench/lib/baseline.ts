/**
 * Another commit to measure against: checked out once as a detached git worktree under the
 * system temp folder, sharing this checkout's node_modules (a symlink), and reused by later runs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
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
  if (!existsSync(join(root, 'node_modules'))) symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  return { ref, sha, root };
}
