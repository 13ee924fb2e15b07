/**
 * What a register call weighs, published on the fields that make one as federation
 * demand-control directives (`@cost`, `@listSize`): a router prices an operation from the
 * supergraph as the service does (security/cost.ts reads the same directives from the schema).
 */

/** The weight of one register call, in cost units; a field or plain type costs far less. */
export const REGISTER_CALL = 10;

/** Field options for a field that makes `calls` register calls each time it resolves. */
export const callsRegister = (calls = 1) => ({ cost: calls * REGISTER_CALL });
