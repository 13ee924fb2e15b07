/**
 * How many downloads each tenant may stream at once (per replica). A download holds a register
 * connection for as long as its caller reads, so without a cap one tenant's slow readers would
 * hold every connection its pool has; past the cap a caller is told to come back.
 */
export class DownloadSlots {
  private readonly active = new Map<string, number>();

  constructor(readonly perTenant: number) {}

  /** A release function (idempotent), or undefined when the tenant is at its cap. */
  acquire(tenant: string): (() => void) | undefined {
    const now = this.active.get(tenant) ?? 0;
    if (now >= this.perTenant) return undefined;
    this.active.set(tenant, now + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.active.get(tenant) ?? 1) - 1;
      if (left <= 0) this.active.delete(tenant);
      else this.active.set(tenant, left);
    };
  }

  inUse(tenant: string): number {
    return this.active.get(tenant) ?? 0;
  }
}
