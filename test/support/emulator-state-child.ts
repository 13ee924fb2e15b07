/** An emulator on a state file (argv[2]), for the kill test of test/emulator/state-file.test.ts: prints `listening <url>`. */
import { startEmulator } from '../../src/emulator/index';

const emulator = await startEmulator({ port: 0, stateFile: process.argv[2]! });
console.log(`listening ${emulator.url}`);
