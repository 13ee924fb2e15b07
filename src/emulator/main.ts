/** `npm run emulator`: the register emulator alone on 127.0.0.1:4010 (EMULATOR_PORT, EMULATOR_LATENCY_MS). */
import { startEmulator } from './index';

const port = Number(process.env.EMULATOR_PORT ?? 4010);
const latencyMs = Number(process.env.EMULATOR_LATENCY_MS ?? 0);
const host = process.env.EMULATOR_HOST ?? '127.0.0.1';

const emulator = await startEmulator({ port, latencyMs, host });
console.log(
  `register emulator listening on ${emulator.url} (OpenAPI: ${emulator.url}/openapi.json, controls: ${emulator.origin}/__control/)`,
);

const stop = async () => {
  await emulator.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
