/**
 * Whether a text mentions a value as a value: not as digits inside a longer number or id. A search
 * for a FAS such as 0877 in a serialized span or log line otherwise meets random ports (40877),
 * millisecond times and hex ids often enough to fail a suite by chance.
 */
export function mentioning(...values: string[]): RegExp {
  const escaped = values.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(^|[^0-9A-Za-z])(${escaped.join('|')})([^0-9A-Za-z]|$)`);
}
