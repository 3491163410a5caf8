/**
 * A FIFO per tenant, served round-robin across tenants: one account with a thousand queued jobs
 * delays another account's single job by at most one job per busy tenant, not by the thousand.
 * Used by the daily-statistics worker pool. See docs/api.md#limits.
 * @example
 * const q = new FairQueue<string>();
 * q.push("a", "a1"); q.push("a", "a2"); q.push("b", "b1");
 * [q.shift(), q.shift(), q.shift()] // ["a1", "b1", "a2"]
 */
export class FairQueue<T> {
  private readonly byTenant = new Map<string, T[]>();
  /** Tenants with queued jobs, in serving order (the head is served next). */
  private readonly rotation: string[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(tenant: string, job: T): void {
    let jobs = this.byTenant.get(tenant);
    if (!jobs) {
      jobs = [];
      this.byTenant.set(tenant, jobs);
      this.rotation.push(tenant);
    }
    jobs.push(job);
    this.count++;
  }

  /** The next job: the oldest of the tenant whose turn it is; that tenant then goes to the back. */
  shift(): T | undefined {
    const tenant = this.rotation.shift();
    if (tenant === undefined) return undefined;
    const jobs = this.byTenant.get(tenant)!;
    const job = jobs.shift()!;
    this.count--;
    if (jobs.length > 0) this.rotation.push(tenant);
    else this.byTenant.delete(tenant);
    return job;
  }

  /** Remove and return every job (shutdown). */
  drain(): T[] {
    const out: T[] = [];
    for (let job = this.shift(); job !== undefined; job = this.shift()) out.push(job);
    return out;
  }
}
