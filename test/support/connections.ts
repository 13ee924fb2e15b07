/**
 * The connections undici opens to one port, from now until the current test ends (seen through
 * its diagnostics channel): a test that closed the other side waits until the client has seen
 * every one of them close, instead of sleeping for it. Call it inside a test.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { onTestFinished } from 'vitest';

const CONNECTED = 'undici:client:connected';

export function connectionsTo(port: number | string): { readonly opened: number; allClosed(): Promise<void> } {
  const sockets: Socket[] = [];
  const onConnected = (message: unknown) => {
    const { socket } = message as { socket: Socket };
    if (String(socket.remotePort) === String(port)) sockets.push(socket);
  };
  subscribe(CONNECTED, onConnected);
  onTestFinished(() => {
    unsubscribe(CONNECTED, onConnected);
  });
  return {
    get opened() {
      return sockets.length;
    },
    async allClosed() {
      await Promise.all(sockets.map((socket) => socket.destroyed || new Promise((closed) => socket.once('close', closed))));
    },
  };
}
