/**
 * A TCP relay in front of PostgreSQL that can freeze: while frozen it passes nothing either way
 * and keeps every connection open, as a database stopped with SIGSTOP (or a network that drops
 * packets) looks to its clients: no error, no answer, no cancelled statement.
 */
import { type AddressInfo, createServer, connect, type Socket } from 'node:net';

export interface FreezableRelay {
  /** The database URL through the relay. */
  url: string;
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

export async function freezableRelay(databaseUrl: string): Promise<FreezableRelay> {
  const target = new URL(databaseUrl);
  let frozen = false;
  const links: { from: Socket; to: Socket; held: Buffer[] }[] = [];
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      const link = { from, to, held: [] as Buffer[] };
      links.push(link);
      from.on('data', (chunk: Buffer) => {
        if (!frozen) to.write(chunk);
        else {
          link.held.push(chunk);
          from.pause();
        }
      });
      from.on('error', () => to.destroy());
      from.on('close', () => to.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
      for (const link of links) {
        for (const chunk of link.held.splice(0)) if (!link.to.destroyed) link.to.write(chunk);
        if (!link.from.destroyed) link.from.resume();
      }
    },
    async close() {
      for (const link of links) link.from.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
