/**
 * Out-of-process controls under /__control/ (outside /v1), for benchmarks:
 * GET ledger, GET calls, POST faults ({route, fault, times} or {clear: true}),
 * GET/POST clock ({set} | {advance} | {reset}), POST reset-calls.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RouteName } from '../register/contract/routes';
import type { Emulator, Fault } from './types';

function send(res: ServerResponse, status: number, body?: unknown) {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)) });
  res.end(text);
}

export function handleControl(
  emulator: Omit<Emulator, 'url' | 'origin' | 'port' | 'close'>,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  bodyText: string,
) {
  let body: Record<string, unknown> = {};
  try {
    body = bodyText ? (JSON.parse(bodyText) as Record<string, unknown>) : {};
  } catch {
    return send(res, 400, { code: 'INVALID_REQUEST', message: 'body: must be valid JSON' });
  }
  const action = `${req.method} ${path}`;
  try {
    switch (action) {
      case 'GET /__control/ledger':
        return send(res, 200, { charges: emulator.ledger.charges });
      case 'GET /__control/calls':
        return send(res, 200, { calls: emulator.calls.list() });
      case 'POST /__control/reset-calls':
        emulator.calls.reset();
        return send(res, 204);
      case 'POST /__control/faults':
        if (body.clear === true) emulator.faults.clear();
        else emulator.faults.inject(body.route as RouteName, body.fault as Fault, (body.times as number | undefined) ?? 1);
        return send(res, 204);
      case 'GET /__control/clock':
        return send(res, 200, { now: emulator.clock.now().toISOString() });
      case 'POST /__control/clock':
        if (typeof body.set === 'string' || typeof body.set === 'number') emulator.clock.set(new Date(body.set));
        else if (typeof body.advance === 'number') emulator.clock.advance(body.advance);
        else if (body.reset === true) emulator.clock.reset();
        else return send(res, 400, { code: 'INVALID_REQUEST', message: 'body: one of {set: ISO date}, {advance: ms}, {reset: true}' });
        return send(res, 200, { now: emulator.clock.now().toISOString() });
      default:
        return send(res, 404, { code: 'NOT_FOUND', message: `no control ${action}` });
    }
  } catch (e) {
    return send(res, 400, { code: 'INVALID_REQUEST', message: (e as Error).message });
  }
}
