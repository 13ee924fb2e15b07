/** A setting or a settings file that stops the start: its message is one sentence an operator acts on. */
export class ConfigError extends Error {}
