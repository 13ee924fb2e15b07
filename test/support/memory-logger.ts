/** A service logger writing to memory, and the parsed lines it wrote: what an operator would read, for a test to read. */
import { createLogger } from '../../src/observability/logging';

export function memoryLogger(level: 'debug' | 'info' = 'info') {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ level, destination: { write: (line: string) => lines.push(JSON.parse(line)) } });
  return { logger, lines };
}
