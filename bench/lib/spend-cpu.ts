/**
 * What spend control costs a purchase (issue 25: at most 5 % more CPU). Two services on the same
 * emulator, one without spending limits and one with a client and an organisation limit (so
 * every claim reads the day's totals and reserves inside its transaction), take the same
 * purchase load in turn, round by round; CPU per purchase is each service process's own
 * (/proc), over the purchases it answered.
 */
import autocannon from 'autocannon';
import { cpuMs, startService, type Emulator, type Service } from './procs';

export interface SpendCpuResult {
  rounds: { off: number; on: number }[];
  /** Median of the per-round ratios on / off. */
  ratio: number;
  requests: { off: number; on: number };
  errors: { off: number; on: number };
}

const PURCHASE = `mutation BenchPurchase($key: String!, $title: TitleNumber!) {
  purchaseTitleDetails(fas: "0877", input: { titleNumber: $title, idempotencyKey: $key }) { charges { fee } userErrors { code } }
}`;

async function purchases(svc: Service, seconds: number, run: number) {
  let n = 0;
  const before = cpuMs(svc.pid);
  const result = await autocannon({
    url: `${svc.base}/graphql`,
    method: 'POST',
    connections: 8,
    pipelining: 1,
    duration: seconds,
    timeout: 10,
    headers: { 'content-type': 'application/json', authorization: 'Bearer dev-key-a' },
    requests: [
      {
        setupRequest: (req: Record<string, unknown>) => {
          n++;
          // 200 titles: the first purchase of each charges, later ones are free (already bought
          // today), as a busy day mixes both; every request is a new key, so a claim each time.
          const variables = { key: `spend-cpu-${run}-${process.pid}-${n}`, title: `BLK${(n % 200) + 1}` };
          return { ...req, body: JSON.stringify({ query: PURCHASE, variables }) };
        },
      },
    ],
  });
  const ms = cpuMs(svc.pid) - before;
  return { cpuPerRequest: ms / Math.max(1, result.requests.total), requests: result.requests.total, errors: result.non2xx + result.errors };
}

export async function spendCpuPhase(emu: Emulator, opts: { seconds: number; rounds: number }): Promise<SpendCpuResult> {
  const off = await startService('spend-off', emu.url);
  const on = await startService('spend-on', emu.url, {
    CLIENT_DAILY_SPEND_LIMIT: '1000000.00',
    ORGANISATION_DAILY_SPEND_LIMIT: '1000000.00',
  });
  try {
    // Warm both (JIT of the service's own code, the SQLite pages, the register's token).
    await purchases(off, 2, -1);
    await purchases(on, 2, -2);
    const rounds: SpendCpuResult['rounds'] = [];
    const requests = { off: 0, on: 0 };
    const errors = { off: 0, on: 0 };
    for (let r = 0; r < opts.rounds; r++) {
      // Alternate which goes first, so that a drift of the machine weighs on both alike.
      const order = r % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
      const round = { off: 0, on: 0 };
      for (const which of order) {
        const measured = await purchases(which === 'off' ? off : on, opts.seconds, r * 2 + (which === 'on' ? 1 : 0));
        round[which] = measured.cpuPerRequest;
        requests[which] += measured.requests;
        errors[which] += measured.errors;
      }
      rounds.push(round);
    }
    const ratios = rounds.map((q) => q.on / q.off).sort((a, b) => a - b);
    const middle = ratios.length / 2;
    const ratio = ratios.length % 2 ? ratios[Math.floor(middle)]! : (ratios[middle - 1]! + ratios[middle]!) / 2;
    return { rounds, ratio, requests, errors };
  } finally {
    await off.stop();
    await on.stop();
  }
}
