/**
 * The options the tests build the service from: the settings a start with no environment gets
 * (from loadConfig, so tests run on the defaults users run on), with what a test changes. No
 * vitest here: the replica processes of the multi-process tests use it too.
 */
import { type AppConfig, loadConfig } from '../../src/config';
import type { ServiceOptions } from '../../src/services/create-services';
import { DEV_ORGANISATIONS, DEV_API_KEYS } from '../../src/services/callers';

/** The settings sections of the services; a test names only the parts it changes. */
const SETTINGS_SECTIONS = ['reads', 'quota', 'spend', 'apq', 'downloads'] as const;
type SettingsSection = (typeof SETTINGS_SECTIONS)[number];
export type ServiceOverrides = Partial<Omit<ServiceOptions, SettingsSection>> & { [K in SettingsSection]?: Partial<ServiceOptions[K]> };

/**
 * The configuration a start with no settings gets, so tests run on the defaults users run on;
 * under NODE_ENV=production (the vitest project of that name) a production start's: no
 * introspection, no hints, no GraphiQL.
 */
export function startConfig(): AppConfig {
  // NODE_ENV is fixed for a test process: read the configuration once, not at every service start.
  start ??= process.env.NODE_ENV === 'production' ? loadConfig({ NODE_ENV: 'production', REGISTER: 'emulator' }) : loadConfig({});
  return start;
}
let start: AppConfig | undefined;

/** `more` on top of `base`, section by section (a restart keeps what the first start changed). */
export function mergeOverrides(base: ServiceOverrides, more: ServiceOverrides = {}): ServiceOverrides {
  const merged: ServiceOverrides = { ...base, ...more };
  for (const section of SETTINGS_SECTIONS) {
    if (base[section] || more[section]) Object.assign(merged, { [section]: { ...base[section], ...more[section] } });
  }
  return merged;
}

/** The options createServices gets in tests: the start's settings, with what the test changes. */
export function serviceOptions(registerBaseUrl: string, dataDir: string, overrides: ServiceOverrides = {}): ServiceOptions {
  const config = startConfig();
  const { reads, quota, spend, apq, downloads, ...rest } = overrides;
  return {
    dataDir,
    registerBaseUrl,
    apiKeys: DEV_API_KEYS,
    organisations: DEV_ORGANISATIONS,
    anonymousKey: 'dev-key-a',
    // Tests change the emulator's reference lists between calls: no list is served from memory.
    reads: { ...config.reads, referenceListTtlMs: 0, ...reads },
    quota: { ...config.quota, ...quota },
    spend: { ...config.spend, ...spend },
    apq: { ...config.apq, ...apq },
    downloads: { ...config.downloads, ...downloads },
    ...rest,
  };
}
