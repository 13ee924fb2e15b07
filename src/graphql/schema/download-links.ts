/** Until when a document or plan id is valid, and its link (signing: services/downloads/links.ts). */
import type { BuilderTypes } from '../builder';
import type { Context } from '../context';
import { endOfLondonDay } from '../../register/contract/london-day';
import { expiredWithItsDay, type FileKind } from '../../services/downloads/links';
import type { ChargeableResult } from '../mutations/run-chargeable';
import type { UserError } from '../../services/user-errors';

/** Ids are valid until the end of the register's day of issue (Europe/London). */
export function expiryOfIssue(issuedAt: Date): string {
  return endOfLondonDay(issuedAt).toISOString();
}

/**
 * The caller's absolute, signed link to a file, made now: every answer (a replay too) carries
 * a fresh one.
 */
function downloadUrlOf(ctx: Context, kind: FileKind, titleNumber: string, id: string, expiresAt: string): string {
  // `expiresAt` is the register's midnight, but links are checked on our clock: shift it by the
  // register's lead over us, else near midnight a link would die before the file does.
  const registerLeadMs = ctx.services.registerNow().getTime() - Date.now();
  const fileExpiresHere = new Date(Date.parse(expiresAt) - registerLeadMs);
  return ctx.services.downloadLinks.link(ctx.origin, { tenant: ctx.caller.clientId, titleNumber, kind, id }, fileExpiresHere);
}

/** A downloadable file as the schema shows it: the title it is of, and the end of its day of issue. */
interface IssuedFile {
  titleNumber: string;
  expiresAt: string;
}

/** The fields every downloadable file shares: when it expires, and a link to it made now. */
export function downloadFields<T extends IssuedFile>(
  t: PothosSchemaTypes.ObjectFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<BuilderTypes>, T>,
  file: { kind: FileKind; idOf: (file: T) => string; linkDescription: string },
) {
  return {
    expiresAt: t.field({
      type: 'DateTime',
      description: 'End of the register day of issue; downloads fail after it.',
      resolve: (f) => f.expiresAt,
    }),
    downloadUrl: t.string({
      description: file.linkDescription,
      // Made now, for every answer (replays too): a signed link lives 15 minutes.
      resolve: (f, _, ctx) => downloadUrlOf(ctx, file.kind, f.titleNumber, file.idOf(f), f.expiresAt),
    }),
  };
}

/**
 * A replay after the file's day has ended: its link could only be refused, and asking again
 * would bring the same dead link back, so the answer says to order again instead.
 */
function expiredOnReplay(ctx: Context, kind: FileKind, expiresAt: string): UserError | undefined {
  if (ctx.services.registerNow().getTime() < Date.parse(expiresAt)) return undefined;
  const what =
    kind === 'documents'
      ? `The document ordered with this idempotency key ${expiredWithItsDay('document')}`
      : `The plans bought with this idempotency key ${expiredWithItsDay('plans')}`;
  return {
    code: 'DOCUMENT_EXPIRED',
    message: `${what} The charges shown are those of the original order.`,
    field: ['input', 'idempotencyKey'],
  };
}

/** A chargeable answer as the caller gets it: on a replay after its files' day, no dead link, the charges still shown. */
export function withoutExpiredFiles<T>(
  ctx: Context,
  kind: FileKind,
  result: ChargeableResult<T>,
  expiresAt: string | undefined,
): ChargeableResult<T> {
  const expired = expiresAt !== undefined && expiredOnReplay(ctx, kind, expiresAt);
  return expired ? { ...result, value: null, userErrors: [expired] } : result;
}
