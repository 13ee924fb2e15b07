/** Types of stryker.config.mjs for the scripts that read its groups. */
export declare const GROUPS: Record<string, { mutate: string[]; tests: string[] }>;
declare const config: Record<string, unknown>;
export default config;
