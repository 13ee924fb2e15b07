/**
 * Relay object identification: the `Node` interface, global ids and `node(id:)`. A global id is
 * base64 of `Type:key`, as graphql-relay writes it, so Relay's tooling reads it the usual way;
 * clients are told not to parse it. Title is the only node: its key is the title number, which
 * stays the federation key too.
 */
import { builder } from '../builder';
import { isTitleNumber } from '../../register/contract/rules';

export interface NodeSource {
  titleNumber: string;
}

export const NodeInterface = builder.interfaceRef<NodeSource>('Node').implement({
  description: 'An object with a global id, for clients that normalise and refetch by id (Relay).',
  fields: (t) => ({
    id: t.id({ description: 'Opaque, stable global id. Clients must not parse it.', resolve: (n) => titleGlobalId(n.titleNumber) }),
  }),
});

export const titleGlobalId = (titleNumber: string): string => Buffer.from(`Title:${titleNumber}`, 'utf8').toString('base64');

/** The title number a global id names, or undefined when it is malformed or names another type. */
export function titleNumberOfGlobalId(id: string): string | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(id)) return undefined;
  const decoded = Buffer.from(id, 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator < 0 || decoded.slice(0, separator) !== 'Title') return undefined;
  const titleNumber = decoded.slice(separator + 1);
  return isTitleNumber(titleNumber) ? titleNumber : undefined;
}
