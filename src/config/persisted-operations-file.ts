/**
 * The codegen persisted-document files (PERSISTED_OPERATIONS_FILE): id → operation text, each checked at start.
 * graphql's parse is the one package src/config uses beside zod (biome.json allows it there): a
 * broken operation stops the start as a ConfigError naming the file and the id, and graphql runs
 * nothing on import (the server loads it anyway).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'graphql';
import { normaliseOperationId, PREFIXED_OPERATION_ID, type PersistedOperations } from '../server/settings';
import { ConfigError } from './config-error';
import type { Settings } from './env';

/** Reads one or more codegen persisted-document files; a bad file is a ConfigError naming the setting (PERSISTED_OPERATIONS_FILE). */
export function loadPersistedOperations(files: readonly string[], only: boolean): PersistedOperations {
  const store = new Map<string, string>();
  for (const file of files) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      throw new ConfigError(`PERSISTED_OPERATIONS_FILE: ${file} cannot be read as JSON`);
    }
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
      throw new ConfigError(`PERSISTED_OPERATIONS_FILE: ${file} must be a JSON object of id → operation text`);
    }
    for (const [key, value] of Object.entries(raw)) {
      const id = normaliseOperationId(key);
      if (!PREFIXED_OPERATION_ID.test(id) || typeof value !== 'string') {
        throw new ConfigError(`PERSISTED_OPERATIONS_FILE: ${file}: entry "${key}" is not an id → operation text`);
      }
      try {
        parse(value);
      } catch {
        throw new ConfigError(`PERSISTED_OPERATIONS_FILE: ${file}: operation "${key}" is not valid GraphQL`);
      }
      const existing = store.get(id);
      if (existing !== undefined && existing !== value) {
        throw new ConfigError(`PERSISTED_OPERATIONS_FILE: id "${key}" is listed twice with different operations`);
      }
      store.set(id, value);
    }
  }
  return { store, only };
}

export function persistedOperations(e: Settings): { persistedOperations?: PersistedOperations } {
  const files = (e.PERSISTED_OPERATIONS_FILE ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (files.length === 0) {
    if (e.PERSISTED_OPERATIONS_ONLY) {
      throw new ConfigError('PERSISTED_OPERATIONS_ONLY is true but PERSISTED_OPERATIONS_FILE is not set');
    }
    return {};
  }
  return { persistedOperations: loadPersistedOperations(files, e.PERSISTED_OPERATIONS_ONLY) };
}
