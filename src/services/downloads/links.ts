/**
 * Download links a browser can follow: absolute (PUBLIC_URL, else the request's own origin) and
 * signed, so that `<a href>` works with no Authorization header. The signature is an HMAC over
 * the API client, the file and the expiry, so a link works only for the client that got it,
 * only for that file, and not after a quarter of an hour (nor after the file's own expiry).
 * Links are made when `downloadUrl` is resolved, so every answer (a replay too) has fresh ones.
 * A link cut short by the file's own expiry says so (`ends=day`, signed), so that its refusal
 * tells the caller to order again rather than to ask for a link that could never work.
 *
 * Keys rotate (docs/operations.md, Rotating DOWNLOAD_LINK_SECRET): the setting lists keys, comma-separated;
 * links are signed with the first and checked with any. Each link names its key (`kid`, an id
 * derived from the key, which shows nothing of it), so that a link signed with a key this
 * replica does not know is told apart from a forged one, and replicas can compare their keys.
 * A link without `kid` (made before keys had ids) is checked with every key.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { downloadLinkKeys } from '../settings';

export type FileKind = 'documents' | 'plans';

export interface FileRef {
  /** The API client (tenant id) the file belongs to. */
  tenant: string;
  titleNumber: string;
  kind: FileKind;
  id: string;
}

export const LINK_VALIDITY_MS = 15 * 60 * 1000;

export type LinkCheck =
  | { ok: true; tenant: string }
  | { ok: false; code: 'DOWNLOAD_LINK_INVALID' | 'DOWNLOAD_LINK_EXPIRED' | 'DOCUMENT_EXPIRED'; message: string };

/** A key's public name: 8 hex digits of an HMAC keyed by it, so equal keys have equal ids and the id reveals nothing. */
function keyIdOf(key: Buffer): string {
  return createHmac('sha256', key).update('titlegraph download link key id').digest('hex').slice(0, 8);
}

interface SigningKey {
  id: string;
  secret: Buffer;
}

const INVALID = {
  ok: false,
  code: 'DOWNLOAD_LINK_INVALID',
  message: 'This download link is not valid: ask the API for the document or plan again to get a new one.',
} as const;

export class DownloadLinks {
  /** The first signs; all verify. */
  private readonly keys: readonly SigningKey[];

  constructor(
    /** DOWNLOAD_LINK_SECRET: one key, or keys comma-separated (the first signs). */
    secret: string | undefined,
    private readonly publicUrl: string | undefined,
    private readonly now: () => number = Date.now,
    /** A link signed with a key this instance does not have arrived (replicas disagree on DOWNLOAD_LINK_SECRET). */
    private readonly onUnknownKey: (keyId: string, knownKeyIds: string[]) => void = () => undefined,
  ) {
    // One instance alone may sign with a key of its own; replicas share DOWNLOAD_LINK_SECRET.
    const secrets = secret ? downloadLinkKeys(secret).map((key) => Buffer.from(key, 'utf8')) : [randomBytes(32)];
    this.keys = secrets.map((key) => ({ id: keyIdOf(key), secret: key }));
  }

  /** The id of the key new links are signed with. */
  get signingKeyId(): string {
    return this.keys[0]!.id;
  }

  /** The ids of every key links are checked with, the signing one first. */
  get keyIds(): string[] {
    return this.keys.map((key) => key.id);
  }

  // Over the expiry's text as it appears in the link, so that no other spelling of the same
  // time (leading zeros, 1e9) passes as the signed one. The key id is not signed: a changed one
  // names another key, which cannot have made the signature.
  private signature(key: SigningKey, file: FileRef, expires: string, endsWithDay: boolean): string {
    const fields = ['v1', file.tenant, file.kind, file.titleNumber, file.id, expires, ...(endsWithDay ? ['day'] : [])];
    return createHmac('sha256', key.secret).update(fields.join('\n')).digest('base64url');
  }

  /** An absolute, signed link to the file, valid for 15 minutes at most and never past `fileExpiresAt`. */
  link(origin: string, file: FileRef, fileExpiresAt: Date): string {
    const endsWithDay = fileExpiresAt.getTime() <= this.now() + LINK_VALIDITY_MS;
    const expires = Math.floor(Math.min(this.now() + LINK_VALIDITY_MS, fileExpiresAt.getTime()) / 1000);
    const base = (this.publicUrl ?? origin).replace(/\/+$/, '');
    const path = `/downloads/titles/${encodeURIComponent(file.titleNumber)}/${file.kind}/${encodeURIComponent(file.id)}`;
    const key = this.keys[0]!;
    const query = new URLSearchParams({
      client: file.tenant,
      expires: String(expires),
      ...(endsWithDay ? { ends: 'day' } : {}),
      kid: key.id,
      signature: this.signature(key, file, String(expires), endsWithDay),
    });
    return `${base}${path}?${query}`;
  }

  /** Checks a link's parameters against the file it names; the tenant comes from the link itself. */
  check(file: Omit<FileRef, 'tenant'>, params: URLSearchParams): LinkCheck {
    const tenant = params.get('client') ?? '';
    const expiresText = params.get('expires') ?? '';
    const keyId = params.get('kid');
    const keys = keyId === null ? this.keys : this.keys.filter((key) => key.id === keyId);
    if (keys.length === 0) {
      // A live link: some replica signs with a key this one lacks. (An expired one may be from a
      // key retired since, as a rotation ends.)
      const live = /^\d{1,12}$/.test(expiresText) && Number(expiresText) * 1000 > this.now();
      if (live && /^[0-9a-f]{8}$/.test(keyId!)) this.onUnknownKey(keyId!, this.keyIds);
      return INVALID;
    }
    // The text is compared, not the decoded bytes: base64url decoding forgives a changed last
    // character (its low bits are padding) and stray characters, so a changed link would pass.
    const given = Buffer.from(params.get('signature') ?? '', 'utf8');
    const endsWithDay = params.get('ends') === 'day';
    const signedBy = (key: SigningKey) => {
      const expected = Buffer.from(this.signature(key, { ...file, tenant }, expiresText, endsWithDay), 'utf8');
      return given.length === expected.length && timingSafeEqual(given, expected);
    };
    if (!tenant || !/^\d{1,12}$/.test(expiresText) || !keys.some(signedBy)) return INVALID;
    if (Number(expiresText) * 1000 <= this.now()) {
      if (endsWithDay) {
        const what = file.kind === 'documents' ? 'document' : 'plan';
        return { ok: false, code: 'DOCUMENT_EXPIRED', message: `This ${what} ${expiredWithItsDay(what)}` };
      }
      return {
        ok: false,
        code: 'DOWNLOAD_LINK_EXPIRED',
        message: 'This download link has expired (links last 15 minutes): replay the order with the same idempotencyKey for a new one.',
      };
    }
    return { ok: true, tenant };
  }
}

/** Why a document or plan cannot come back: said alike by a replay's userError and by its link's refusal. */
export function expiredWithItsDay(what: 'document' | 'plan' | 'plans'): string {
  const again = what === 'document' ? 'order it' : what === 'plan' ? 'buy it' : 'buy them';
  return `expired with ${what === 'plans' ? 'their' : 'its'} day (documents and plans last until midnight, London time): ${again} again with a new idempotencyKey.`;
}
