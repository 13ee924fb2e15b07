/**
 * GET /downloads/titles/:titleNumber/documents/:documentId and …/plans/:planId: streams the
 * register's PDF bytes straight through (never buffered), with the caller's own credentials,
 * so a document or plan id only works for the API client that got it.
 */
import type { ServerResponse } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import type { Services } from '../graphql/context';
import { abandon, RegisterError, type RegisterDownload } from '../register/client';
import { isTitleNumber } from '../register/contract/rules';
import { requestIdOf } from '../observability/request-record';
import type { ApiClientRef } from '../services/callers';
import { authenticatedCaller, methodNotAllowed, problemResponse, type Refusal } from './route-problems';
import { isReadOnlyMethod } from '../observability/read-only-route';
import type { FileKind } from '../services/downloads/links';
import { watchedDownload } from './download-stream';
import { registerRefusal } from '../graphql/errors';

/** What the download route uses of the services. */
type DownloadServices = Pick<Services, 'callers' | 'downloadLinks' | 'downloadSlots' | 'downloadLimits' | 'events'>;

const DOWNLOAD_PATH = /^\/downloads\/titles\/([^/]+)\/(documents|plans)\/([^/]+)$/;
const DOWNLOADS_PREFIX = '/downloads/';

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** HTTP statuses of the refusals a download shares with GraphQL: the register's own failures are a bad gateway. */
const STATUS_OF_REFUSAL: Partial<Record<string, number>> = { RATE_LIMITED: 429, SERVICE_UNAVAILABLE: 503, BAD_USER_INPUT: 400 };

/** A register refusal in the same code and words as GraphQL's, with its status and `Retry-After`. */
function registerProblem(error: RegisterError): Refusal {
  const { code, message, retryAfterSeconds } = registerRefusal(error);
  const headers: Record<string, string> = retryAfterSeconds === undefined ? {} : { 'retry-after': String(Math.ceil(retryAfterSeconds)) };
  return { status: STATUS_OF_REFUSAL[code] ?? 502, code, message, headers };
}

export async function handleDownload(
  services: DownloadServices,
  request: Request,
  pathname: string,
  ResponseImpl: typeof Response = Response,
  /** Cuts the caller's connection: a body that fails mid-way must not look like a finished file. */
  abortResponse: () => void = () => undefined,
  /** Once per download request, when it is over: its outcome (a refusal's code, `ok`, or `cut` mid-file). */
  onDone: (outcome: string) => void = () => undefined,
): Promise<Response | undefined> {
  const match = DOWNLOAD_PATH.exec(pathname);
  if (!match) return undefined;
  const refuse = (refusal: Refusal) => {
    onDone(refusal.code.toLowerCase());
    return problemResponse(refusal);
  };
  const problem = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
    refuse({ status, code, message, headers });
  if (!isReadOnlyMethod(request)) return refuse(methodNotAllowed('Downloads'));
  const titleNumber = decode(match[1]!);
  const id = decode(match[3]!);
  const kind = match[2] as FileKind;
  // A signed link (from `downloadUrl`) names its own client; a bare path needs the caller's key.
  let client: ApiClientRef;
  const params = new URL(request.url).searchParams;
  if (params.has('signature')) {
    const checked = titleNumber && id ? services.downloadLinks.check({ titleNumber, kind, id }, params) : undefined;
    const known = checked?.ok ? services.callers.byClientId(checked.tenant) : undefined;
    if (!checked?.ok || !known) {
      const refusal = checked && !checked.ok ? checked : { code: 'DOWNLOAD_LINK_INVALID', message: 'This download link is not valid.' };
      // Gone, not forbidden: no link to this file will work again; it must be ordered anew.
      return problem(refusal.code === 'DOCUMENT_EXPIRED' ? 410 : 403, refusal.code, refusal.message);
    }
    client = known;
  } else {
    const caller = await authenticatedCaller(services, request, 'titles:read');
    if ('refusal' in caller) return refuse(caller.refusal);
    client = caller.caller;
  }
  if (!titleNumber || !isTitleNumber(titleNumber)) {
    return problem(400, 'INVALID_TITLE_NUMBER', 'titleNumber must be 3 uppercase letters then 1 to 8 digits.');
  }
  if (!id || id.length > 200) return problem(404, 'DOCUMENT_NOT_FOUND', 'No such document or plan for this caller.');
  const release = services.downloadSlots.acquire(client.clientId);
  if (!release) {
    return problem(
      429,
      'TOO_MANY_DOWNLOADS',
      `At most ${services.downloadSlots.perTenant} downloads at once per API client; retry when one of them has finished.`,
      { 'retry-after': '2' },
    );
  }
  const register = services.callers.clientFor(client);
  let download: RegisterDownload;
  try {
    download =
      match[2] === 'documents'
        ? await register.downloadDocument(titleNumber, id, { requestId: requestIdOf(request) })
        : await register.downloadPlan(titleNumber, id, { requestId: requestIdOf(request) });
  } catch (error) {
    release();
    if (error instanceof RegisterError) {
      if (error.code === 'DOCUMENT_NOT_FOUND' || error.code === 'TITLE_NOT_FOUND') {
        return problem(
          404,
          'DOCUMENT_NOT_FOUND',
          'No such document or plan for this caller, or it has expired (ids last until the end of the day of issue).',
        );
      }
      if (error.code === 'INVALID_TITLE_NUMBER') return problem(400, error.code, 'titleNumber is not a valid title number.');
      return refuse(registerProblem(error));
    }
    throw error;
  }
  const filename = download.filename ?? `${titleNumber}-${match[2] === 'documents' ? 'document' : 'plan'}.pdf`;
  const headers: Record<string, string> = {
    'content-type': download.contentType,
    'content-disposition': `attachment; filename="${filename.replace(/["\\\r\n]/g, '_')}"`,
    'cache-control': 'private, no-store',
  };
  if (download.contentLength !== undefined) headers['content-length'] = String(download.contentLength);
  if (request.method === 'HEAD') {
    abandon(download.body);
    release();
    onDone('ok');
    return new ResponseImpl(null, { status: 200, headers });
  }
  // The slot is freed when the body closes: finished, stalled, too long, or the caller gone.
  const body = watchedDownload(download.body, services.downloadLimits, release);
  // The relay pipes (whatwg-node `pipe`), which leaves the response open when the body fails
  // (stalled, too long, register gone): cut the connection so the caller sees a broken file.
  // A caller that goes away mid-download destroys the stream too; that is not an error of ours.
  body.on('error', abortResponse);
  body.once('close', () => onDone(body.readableEnded ? 'ok' : 'cut'));
  // The server's own Response (whatwg-node) takes the Node stream as it is and pipes it into the
  // socket: no web-stream conversion, no copy, back-pressure end to end.
  return new ResponseImpl(body as unknown as BodyInit, { status: 200, headers });
}

/** A request under /downloads/, answered here (or left to Yoga when it is no download link). */
async function serveDownload(
  services: DownloadServices,
  { request, url, endResponse, fetchAPI, serverContext }: Parameters<NonNullable<Plugin['onRequest']>>[0],
): Promise<void> {
  const res = (serverContext as { res?: ServerResponse } | undefined)?.res;
  const started = performance.now();
  const response = await handleDownload(
    services,
    request,
    url.pathname,
    fetchAPI.Response,
    () => res?.destroy(),
    (outcome) => services.events.emit('download', { outcome, durationMs: performance.now() - started }),
  );
  if (response) endResponse(response);
}

export function useDownloads(services: DownloadServices): Plugin {
  return {
    // Synchronous for every other path: a promise here would cost every GraphQL request a turn.
    onRequest(payload) {
      if (payload.url.pathname.startsWith(DOWNLOADS_PREFIX)) return serveDownload(services, payload);
    },
  };
}
