/**
 * The README's Relay passage for a client's first compile: relay-compiler refuses to start
 * while its persisted-queries file is missing; the README's commands, run as written in a fresh
 * copy of examples/relay, create it and compile.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { ROOT } from '../support/processes';
import { docPage } from '../support/docs';

// Inside the repository (test-artifacts/ is ignored by git), so that `npx` finds this project's relay-compiler.
mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
const work = mkdtempSync(join(ROOT, 'test-artifacts', 'relay-first-run-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The sh block that follows the README's words on the persisted-queries file. */
function readmeCommands(): string {
  const readme = docPage('clients');
  const at = readme.indexOf('`relay-compiler` refuses to run until that file exists');
  expect(at, 'the README says the file must exist first').toBeGreaterThan(0);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at));
  return block![1]!;
}

test('a fresh Relay client: relay-compiler refuses without persisted-queries.json; the README’s commands create it and compile', () => {
  cpSync(join(ROOT, 'examples', 'relay', 'src', 'TitleQueries.ts'), join(work, 'src', 'TitleQueries.ts'), { recursive: true });
  const config = JSON.parse(readFileSync(join(ROOT, 'examples', 'relay', 'relay.config.json'), 'utf8'));
  writeFileSync(join(work, 'relay.config.json'), JSON.stringify({ ...config, schema: join(ROOT, 'schema.client.graphql') }));

  const without = spawnSync('npx', ['relay-compiler'], { cwd: work, encoding: 'utf8' });
  expect(without.status).not.toBe(0);
  expect(`${without.stdout}${without.stderr}`).toContain('persisted-queries.json` for the local query persisting does not exist');

  const run = spawnSync('sh', ['-ec', readmeCommands()], { cwd: work, encoding: 'utf8', env: { ...process.env, npm_config_yes: 'false' } });
  expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
  const persisted = JSON.parse(readFileSync(join(work, 'persisted-queries.json'), 'utf8')) as Record<string, string>;
  expect(Object.keys(persisted).length).toBeGreaterThan(0);
  expect(existsSync(join(work, 'src', '__generated__'))).toBe(true);
});
