/**
 * Injected faults, queued per route (FIFO, each for `times` calls). Phase 'before' (default)
 * replaces the call before anything happens; 'after' lets the real effect happen (charge,
 * case, deed) and then replaces the response. A drip always sends the real response, slowly.
 */
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { ROUTES, type RouteName } from '../register/contract/routes';
import type { WireResponse } from './respond';
import type { Fault } from './types';

const FAULT_KINDS = ['status', 'hang', 'reset', 'drip', 'malformed'] as const;

export class FaultBook {
  private readonly queues = new Map<string, { fault: Fault; left: number }[]>();

  inject(route: RouteName, fault: Fault, times = 1): void {
    if (!(route in ROUTES)) throw new TypeError(`unknown route ${String(route)}; one of ${Object.keys(ROUTES).join(', ')}`);
    if (!fault || !FAULT_KINDS.includes(fault.kind)) throw new TypeError(`fault.kind must be one of ${FAULT_KINDS.join(', ')}`);
    if (fault.kind === 'status' && !(Number.isInteger(fault.status) && fault.status >= 100 && fault.status <= 599)) {
      throw new TypeError('a status fault needs an HTTP status 100-599');
    }
    if (!(Number.isInteger(times) && times >= 1)) throw new TypeError('times must be a positive integer');
    const q = this.queues.get(route) ?? [];
    q.push({ fault, left: times });
    this.queues.set(route, q);
  }

  /** The fault for this call of the route, if any (consumes one use). */
  take(route: string): Fault | undefined {
    const q = this.queues.get(route);
    const head = q?.[0];
    if (!q || !head) return undefined;
    head.left -= 1;
    if (head.left <= 0) q.shift();
    return head.fault;
  }

  clear(): void {
    this.queues.clear();
  }
}

const DEFAULT_CODES: Record<number, string> = {
  400: 'INVALID_REQUEST',
  401: 'UNAUTHORISED',
  402: 'CREDIT_LIMIT_EXCEEDED',
  403: 'FAS_NOT_AUTHORISED',
  404: 'NOT_FOUND',
  429: 'TOO_MANY_REQUESTS',
};

/** Status recorded for the call when this fault answers it (0 = no response at all). */
export function faultStatus(fault: Fault, real?: WireResponse): number {
  switch (fault.kind) {
    case 'status':
      return fault.status;
    case 'malformed':
      return 200;
    case 'drip':
      return real?.status ?? 200;
    default:
      return 0;
  }
}

/** Carries out the fault on the response. `real` is the route's real response (drip, phase after). */
export async function applyFault(fault: Fault, res: ServerResponse, routeName: string, real: WireResponse | undefined): Promise<void> {
  switch (fault.kind) {
    case 'hang':
      return; // never answers; the socket is destroyed by close()
    case 'reset':
      res.socket?.destroy();
      return;
    case 'status': {
      const headers: Record<string, string> = {};
      if (fault.retryAfterSeconds !== undefined) headers['Retry-After'] = String(fault.retryAfterSeconds);
      if (fault.status === 401) headers['WWW-Authenticate'] = 'Bearer realm="register"';
      if (fault.status === 204 || fault.status === 304 || fault.status < 200) {
        res.writeHead(fault.status, headers).end();
        return;
      }
      const body =
        fault.body === undefined
          ? JSON.stringify({
              code: DEFAULT_CODES[fault.status] ?? (fault.status >= 500 ? 'INTERNAL_ERROR' : 'ERROR'),
              message: `injected fault: HTTP ${fault.status}`,
            })
          : typeof fault.body === 'string'
            ? fault.body
            : JSON.stringify(fault.body);
      res.writeHead(fault.status, {
        ...headers,
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': String(Buffer.byteLength(body)),
      });
      res.end(body);
      return;
    }
    case 'malformed': {
      const pdf = ROUTES[routeName as RouteName]?.response === 'pdf';
      const body = pdf ? 'this is not a PDF: the emulator sent a malformed body' : '{"data": {"titleNumber": "MID15313", "status": tru';
      res.writeHead(200, {
        'Content-Type': pdf ? 'application/pdf' : 'application/json; charset=utf-8',
        'Content-Length': String(Buffer.byteLength(body)),
      });
      res.end(body);
      return;
    }
    case 'drip': {
      if (!real) return;
      const chunkBytes = Math.max(1, fault.chunkBytes ?? 16);
      const intervalMs = Math.max(0, fault.intervalMs ?? 100);
      res.writeHead(real.status, { ...real.headers, 'Content-Length': String(real.length) });
      res.flushHeaders();
      for await (const chunk of real.body) {
        for (let i = 0; i < chunk.length; i += chunkBytes) {
          if (res.destroyed) return;
          await sleep(intervalMs);
          if (res.destroyed) return;
          res.write(chunk.subarray(i, i + chunkBytes));
        }
      }
      if (!res.destroyed) res.end();
      return;
    }
  }
}
