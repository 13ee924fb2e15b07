/**
 * The README's federation section says nothing the tests do not run: its SDL for another
 * subgraph composes with titlegraph's, its rover config names the composition version the tests
 * use, and every configuration file it points at exists and is loaded by a gateway test.
 */
import { existsSync, readFileSync } from 'node:fs';
import { composeServices } from '@apollo/composition';
import { parse } from 'graphql';
import { expect, test } from 'vitest';
import { printSchema } from '../../src/graphql/schema';
import { docPage } from '../support/docs';

const ROOT = new URL('../../', import.meta.url);
const readme = docPage('federation');
const section = readme.slice(readme.indexOf('## Federation'), readme.indexOf('\n## ', readme.indexOf('## Federation') + 1));
const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, text: m[2]! }));

test('every code block of the federation section is one the tests check', () => {
  expect(blocks.map((b) => b.lang).sort()).toEqual(['graphql', 'yaml']);
});

test("the other subgraph's SDL in the README composes with titlegraph's", () => {
  const other = blocks.find((b) => b.lang === 'graphql')!.text;
  const composed = composeServices([
    { name: 'titlegraph', url: 'http://titlegraph.test/graphql', typeDefs: parse(printSchema()) },
    { name: 'matters', url: 'http://matters.test/graphql', typeDefs: parse(other) },
  ]);
  expect(composed.errors ?? []).toEqual([]);
  expect(composed.supergraphSdl).toContain('type Matter');
});

test('the rover config names the composition version the tests run', () => {
  const installed = JSON.parse(readFileSync(new URL('node_modules/@apollo/composition/package.json', ROOT), 'utf8')).version;
  expect(blocks.find((b) => b.lang === 'yaml')!.text).toContain(`federation_version: =${installed}`);
});

test('each configuration file the section points at exists and is loaded by a gateway test', () => {
  const files = [
    ...new Set([...section.matchAll(/\((examples\/federation\/[\w.-]+)\)|`(examples\/federation\/[\w.-]+)`/g)].map((m) => m[1] ?? m[2]!)),
  ];
  expect(files.length).toBeGreaterThanOrEqual(3);
  const tests = [
    'gateway-configs.test.ts',
    'demand-control.test.ts',
    'gateway-chargeable.test.ts',
    'apollo-cost-rule.test.ts',
    'gateway-routes.test.ts',
    'example-gateway.test.ts',
  ]
    .map((f) => readFileSync(new URL(`test/interop/${f}`, ROOT), 'utf8'))
    .join('\n');
  for (const file of files) {
    expect(existsSync(new URL(file, ROOT)), file).toBe(true);
    expect(tests, file).toContain(`../../${file.replace(/\.ts$/, '')}`);
  }
});
