/**
 * `npm run emulator`: the register emulator alone on 127.0.0.1:4010 (EMULATOR_PORT,
 * EMULATOR_LATENCY_MS), its state in memory unless EMULATOR_STATE_FILE names a file to keep it in.
 */
import { startEmulator } from './index';

const port = Number(process.env.EMULATOR_PORT ?? 4010);
const latencyMs = Number(process.env.EMULATOR_LATENCY_MS ?? 0);
const host = process.env.EMULATOR_HOST ?? '127.0.0.1';
const stateFile = process.env.EMULATOR_STATE_FILE || undefined;

const emulator = await startEmulator({ port, latencyMs, host, ...(stateFile ? { stateFile } : {}) });
console.log(
  `register emulator listening on ${emulator.url} (OpenAPI: ${emulator.url}/openapi.json, controls: ${emulator.origin}/__control/, state: ${stateFile ?? 'in memory'})`,
);

const stop = async () => {
  await emulator.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
