/**
 * The tenants file (TITLEGRAPH_TENANTS_FILE): API keys, identity providers, organisations and
 * clients with their limits, read and checked at start, or the single tenant of the REGISTER_CLIENT_…
 * settings. A problem is a ConfigError naming the file and the entry.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import {
  ALL_SCOPES,
  type ApiKeyConfig,
  type ClientsConfig,
  type IdentityProviderConfig,
  isScope,
  issuerProblem,
  type OrganisationsConfig,
} from '../services/settings';
import { ConfigError } from './config-error';
import { amount, type Settings } from './env';

/** Who may call a real register, and their limits: AppConfig's `register` without its address. */
export interface RegisterTenants {
  tenants: ApiKeyConfig[];
  organisations: OrganisationsConfig;
  clients: ClientsConfig;
  identityProviders: IdentityProviderConfig[];
  /** The tenants file read, and its version (tenantsFileVersion); absent without one. */
  file?: { path: string; version: string } | undefined;
}

/**
 * A key's name is the subject of its principal (`key:<name>`), a provider's name part of its
 * people's (`person:<provider>:<sub>`, services/principal.ts), written to the journal, statements,
 * logs and metrics: letters, digits, `.`, `_` and `-` only, so it can never contain the separator of
 * a namespaced id nor look like another kind's.
 */
const KEY_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** An identity provider of the tenants file: the shape services/identity.ts takes. */
const IdentityProvider = z
  .object({
    name: z
      .string()
      .regex(
        KEY_NAME,
        'must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit (it is part of its people\'s ids)',
      ),
    /** The `iss` of its tokens, exactly: https, or http on a loopback address only. */
    issuer: z.string().superRefine((value, ctx) => {
      const problem = issuerProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
    audience: z.string().min(1),
    organisation: z.string().min(1),
    clientId: z.string().min(1),
    clientSecret: z.string().min(1),
    dailySpendLimitPerPerson: amount.optional(),
    /** Accept tokens typed `JWT` too, for a provider that cannot type its access tokens `at+jwt`. */
    acceptJwtTyp: z.boolean().optional(),
  })
  .strict() satisfies z.ZodType<IdentityProviderConfig>;

/** One issuer however its trailing slash is written: both spellings find the same discovery document. */
const sameIssuer = (issuer: string) => issuer.replace(/\/+$/, '');

/**
 * A register API client belongs to one organisation, whose quota and spending it counts against:
 * a client named by two entries with two organisations would let one organisation's accounts key
 * read the other's charges. `organisation` defaults to the client id, as services/tenants.ts reads it.
 */
function oneOwnerPerClient(file: {
  tenants: readonly { name: string; clientId?: string | undefined; organisation?: string | undefined }[];
  identityProviders?: readonly { name: string; clientId: string; organisation: string }[] | undefined;
}): { path: (string | number)[]; message: string }[] {
  const owners = new Map<string, { entry: string; organisation: string }>();
  const problems: { path: (string | number)[]; message: string }[] = [];
  const entries = [
    ...file.tenants.map((t, i) => ({
      path: ['tenants', i],
      label: `tenants.${i} ("${t.name}")`,
      clientId: t.clientId,
      organisation: t.organisation ?? t.clientId,
    })),
    ...(file.identityProviders ?? []).map((p, i) => ({
      path: ['identityProviders', i],
      label: `identityProviders.${i} ("${p.name}")`,
      clientId: p.clientId,
      organisation: p.organisation,
    })),
  ];
  for (const { path, label, clientId, organisation } of entries) {
    if (!clientId || !organisation) continue;
    const owner = owners.get(clientId);
    if (!owner) owners.set(clientId, { entry: label, organisation });
    else if (owner.organisation !== organisation)
      problems.push({
        path: [...path, 'organisation'],
        message: `gives register client "${clientId}" to organisation "${organisation}", but ${owner.entry} gives it to "${owner.organisation}": a register client belongs to one organisation`,
      });
  }
  return problems;
}

const TenantFile = z
  .object({
    /** The identity providers whose people call with sign-in tokens (JWT access tokens). */
    identityProviders: z
      .array(IdentityProvider)
      .superRefine((providers, ctx) => {
        // A token's provider is found by its issuer: two with one issuer could not be told apart.
        for (const field of ['issuer', 'name'] as const) {
          const seen = new Map<string, number>();
          providers.forEach((provider, i) => {
            const value = field === 'issuer' ? sameIssuer(provider.issuer) : provider.name;
            const first = seen.get(value);
            if (first !== undefined) {
              ctx.addIssue({
                code: 'custom',
                path: [i, field],
                message: `is the same as identityProviders.${first}.${field} ("${providers[first]!.name}" and "${provider.name}")`,
              });
            } else seen.set(value, i);
          });
        }
      })
      .optional(),
    /** Per organisation: its daily spending limit, and its charging accounts (quotes refuse any other). */
    organisations: z
      .record(
        z.string().min(1),
        z
          .object({
            dailySpendLimit: amount.optional(),
            fasAccounts: z.array(z.string().regex(/^\d{4,6}$/, 'must be 4 to 6 digits')).optional(),
          })
          .strict(),
      )
      .optional(),
    /** Per register API client: its daily spending limit, overriding CLIENT_DAILY_SPEND_LIMIT (a key's own limit is the key's). */
    clients: z.record(z.string().min(1), z.object({ dailySpendLimit: amount.optional() }).strict()).optional(),
    tenants: z
      .array(
        // The shape services/tenants.ts takes: a field added there is read here.
        z
          .object({
            name: z
              .string()
              .regex(KEY_NAME, 'must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit (it is the key\'s id)'),
            apiKeySha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be the hex SHA-256 of the API key'),
            /** The register API client this key acts as; none for a router. */
            clientId: z.string().min(1).optional(),
            clientSecret: z.string().min(1).optional(),
            /** The register organisation owning the client (its quota is the organisation's); default: the client id. */
            organisation: z.string().min(1).optional(),
            /** A federation router's key: it reads the schema (`_service { sdl }`) and nothing else, so it has no register client. */
            router: z.boolean().optional(),
            /** An accounts key: its charge statements cover every API client of its organisation. */
            accounts: z.boolean().optional(),
            /** This key's own daily spending limit (its API client's is CLIENT_DAILY_SPEND_LIMIT or `clients`). */
            dailySpendLimit: amount.optional(),
            /** What the key may do (services/scopes.ts); default: every scope but charges:organisation. */
            scopes: z
              .array(
                z.string().refine(isScope, {
                  message: `must be one of ${ALL_SCOPES.join(', ')}`,
                }),
              )
              .transform((scopes) => scopes.filter(isScope))
              .optional(),
          })
          // An unknown property is a typo that would otherwise be ignored silently (a limit that never applies).
          .strict()
          .superRefine((tenant, ctx) => {
            if (tenant.router && (tenant.clientId || tenant.clientSecret)) {
              ctx.addIssue({
                code: 'custom',
                message: `tenant "${tenant.name}" has router: true and register credentials: a router key only reads the schema, so remove its clientId and clientSecret (give the router's callers keys of their own)`,
              });
            } else if (!tenant.router && (!tenant.clientId || !tenant.clientSecret)) {
              ctx.addIssue({
                code: 'custom',
                message: `tenant "${tenant.name}" needs clientId and clientSecret (or router: true, for a federation router's key)`,
              });
            }
          }) satisfies z.ZodType<ApiKeyConfig>,
      )
      .superRefine((tenants, ctx) => {
        // Each entry is a caller of its own: the same key or name twice would merge two callers' rights and limits.
        for (const field of ['apiKeySha256', 'name'] as const) {
          const seen = new Map<string, number>();
          tenants.forEach((tenant, i) => {
            const first = seen.get(tenant[field]);
            if (first !== undefined) {
              ctx.addIssue({
                code: 'custom',
                path: [i, field],
                message: `is the same as tenants.${first}.${field}: each API key is listed once, under a name of its own`,
              });
            } else seen.set(tenant[field], i);
          });
        }
      })
      // With identity providers, a file may list no API key at all (people only).
      .default([]),
  })
  .strict()
  .refine((file) => file.tenants.length > 0 || (file.identityProviders ?? []).length > 0, {
    message: 'lists no tenants and no identityProviders: list at least one API key or identity provider',
  })
  .superRefine((file, ctx) => {
    for (const problem of oneOwnerPerClient(file)) ctx.addIssue({ code: 'custom', ...problem });
  });

/** The tenants file, or a ConfigError naming TITLEGRAPH_TENANTS_FILE and what is wrong with it. */
function readTenantsFile(path: string): z.infer<typeof TenantFile> & { version: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code;
    const why =
      code === 'ENOENT' ? 'there is no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'it may not be read' : code;
    throw new ConfigError(`Invalid configuration: TITLEGRAPH_TENANTS_FILE ${JSON.stringify(path)} cannot be read: ${why}.`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration: TITLEGRAPH_TENANTS_FILE ${JSON.stringify(path)} is not JSON (${(error as Error).message}).`,
    );
  }
  const file = TenantFile.safeParse(raw);
  if (!file.success) {
    const problems = file.error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'the file'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration: TITLEGRAPH_TENANTS_FILE ${JSON.stringify(path)}: ${problems.join('; ')}.`);
  }
  return { ...file.data, version: tenantsFileVersion(text) };
}

/** Which tenants file runs, as /ready and the metrics say it: the first 12 hex digits of its content's SHA-256. */
export const tenantsFileVersion = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

export function realTenants(e: Settings): RegisterTenants {
  const tenants: ApiKeyConfig[] = [];
  let organisations: OrganisationsConfig = {};
  let clients: ClientsConfig = {};
  let identityProviders: IdentityProviderConfig[] = [];
  let read: RegisterTenants['file'];
  if (e.TITLEGRAPH_TENANTS_FILE) {
    const file = readTenantsFile(e.TITLEGRAPH_TENANTS_FILE);
    read = { path: e.TITLEGRAPH_TENANTS_FILE, version: file.version };
    tenants.push(...file.tenants);
    organisations = file.organisations ?? {};
    clients = file.clients ?? {};
    identityProviders = file.identityProviders ?? [];
  }
  if (e.REGISTER_CLIENT_ID || e.REGISTER_CLIENT_SECRET || e.TITLEGRAPH_API_KEY_SHA256) {
    if (!e.REGISTER_CLIENT_ID || !e.REGISTER_CLIENT_SECRET || !e.TITLEGRAPH_API_KEY_SHA256) {
      throw new ConfigError(
        'Invalid configuration: REGISTER_CLIENT_ID, REGISTER_CLIENT_SECRET and TITLEGRAPH_API_KEY_SHA256 must be set together (or use TITLEGRAPH_TENANTS_FILE).',
      );
    }
    tenants.push({
      name: 'default',
      apiKeySha256: e.TITLEGRAPH_API_KEY_SHA256,
      clientId: e.REGISTER_CLIENT_ID,
      clientSecret: e.REGISTER_CLIENT_SECRET,
    });
  }
  if (tenants.length === 0 && identityProviders.length === 0) {
    throw new ConfigError(
      'Invalid configuration: REGISTER_BASE_URL is set but no tenant is: set TITLEGRAPH_TENANTS_FILE, or REGISTER_CLIENT_ID, REGISTER_CLIENT_SECRET and TITLEGRAPH_API_KEY_SHA256.',
    );
  }
  return { tenants, organisations, clients, identityProviders, ...(read ? { file: read } : {}) };
}
