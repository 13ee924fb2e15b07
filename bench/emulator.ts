/**
 * The register emulator as a child process of the benchmark (so its CPU and memory are not the
 * service's). Reports its URLs over IPC. The daily quota is lifted: a throughput run makes far
 * more than the register's 2 000 calls a day. BENCH_LATENCY_MS adds latency to every answer;
 * BENCH_LARGE_PLAN_BYTES sets the size of LAN50's plan (default 50 MB).
 */
import { startEmulator } from '../src/emulator';

const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 0);
const largePlanBytes = Number(process.env.BENCH_LARGE_PLAN_BYTES ?? 50 * 1024 * 1024);
const emulator = await startEmulator({ port: 0, host: '127.0.0.1', latencyMs, largePlanBytes, dailyQuota: 1e9 });
process.send?.({ ready: true, url: emulator.url, origin: emulator.origin });

const stop = async () => {
  await emulator.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', stop);
