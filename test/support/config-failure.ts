/** What loadConfig refuses an environment with: its ConfigError's one line (any other outcome fails the test). */
import { expect } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';

export function configFailure(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}
