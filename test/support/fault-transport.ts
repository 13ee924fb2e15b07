/** Register transport settings for fault tests: short deadlines so hangs and drips end quickly. */
export const FAULT_TEST_TRANSPORT = {
  timeouts: { connectMs: 500, headersMs: 500, bodyMs: 300, deadlineMs: 700 },
  retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 },
  // A breaker that never opens: a fault matrix fails on purpose many times in a row.
  breaker: { failureThreshold: 10_000, openMs: 100 },
};
