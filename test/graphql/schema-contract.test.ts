import { existsSync, readFileSync } from 'node:fs';
import { CriticalityLevel, diff } from '@graphql-inspector/core';
import { buildSchema as buildSdl, isEnumType, isInputObjectType, isObjectType, isSpecifiedScalarType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema, printClientSchema, printSchema } from '../../src/graphql/schema';

const CONTRACT = new URL('../../../shared/spec/graphql-contract.graphql', import.meta.url);
const PRINTED = new URL('../../schema.graphql', import.meta.url);
const CLIENT = new URL('../../schema.client.graphql', import.meta.url);

describe('schema.graphql', () => {
  it('is the schema printed from the code (run `npm run schema:print` when this fails)', () => {
    expect(readFileSync(PRINTED, 'utf8')).toBe(printSchema());
  });

  it('has a client twin, schema.client.graphql, fresh, with every type and none of federation (run `npm run schema:print`)', () => {
    const client = readFileSync(CLIENT, 'utf8');
    expect(client).toBe(printClientSchema());
    expect(client).not.toMatch(/@link|@key|@cost|_entities|_service|_Any|_Entity/);
    const full = buildSchema();
    const plain = buildSdl(client);
    for (const type of Object.values(full.getTypeMap()).filter((t) => !t.name.startsWith('_') && !isSpecifiedScalarType(t)))
      expect(plain.getType(type.name), type.name).toBeDefined();
  });

  it.skipIf(!existsSync(CONTRACT))('has no breaking difference from the public contract', async () => {
    const contract = buildSdl(readFileSync(CONTRACT, 'utf8'));
    const changes = await diff(contract, buildSchema());
    const breaking = changes.filter((c) => c.criticality.level === CriticalityLevel.Breaking).map((c) => c.message);
    expect(breaking).toEqual([]);
    // The contract's own descriptions are kept word for word.
    const changedDescriptions = changes.filter((c) => /description changed/i.test(c.message)).map((c) => c.message);
    expect(changedDescriptions).toEqual([]);
  });

  it('describes every type, field, argument and enum value', () => {
    const missing: string[] = [];
    for (const type of Object.values(buildSchema().getTypeMap())) {
      if (type.name.startsWith('__') || type.name.startsWith('_') || ['String', 'Int', 'Boolean', 'Float', 'ID'].includes(type.name))
        continue;
      if (!type.description) missing.push(type.name);
      if (isObjectType(type) || isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (field.name.startsWith('_')) continue;
          if (!field.description) missing.push(`${type.name}.${field.name}`);
          for (const arg of 'args' in field ? field.args : [])
            if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
        }
      }
      if (isEnumType(type)) for (const v of type.getValues()) if (!v.description) missing.push(`${type.name}.${v.name}`);
    }
    expect(missing).toEqual([]);
  });

  it('has no description of 5 characters or fewer (the Grafbase composer panics on them)', () => {
    const descriptions: string[] = [];
    for (const type of Object.values(buildSchema().getTypeMap())) {
      if (type.name.startsWith('__')) continue;
      descriptions.push(type.description ?? '');
      if (isObjectType(type) || isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          descriptions.push(field.description ?? '');
          for (const arg of 'args' in field ? field.args : []) descriptions.push(arg.description ?? '');
        }
      }
      if (isEnumType(type)) for (const v of type.getValues()) descriptions.push(v.description ?? '');
    }
    expect(descriptions.filter((text) => text !== '' && text.trim().length <= 5)).toEqual([]);
  });
});
