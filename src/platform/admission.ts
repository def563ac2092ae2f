import { DomainError } from './errors.js';
import { admissionRefusals, admissionRunning, admissionWaiting, onScrape } from './observability/metrics.js';

/**
 * Admission control for expensive work (payments): at most `concurrency` run at once in this
 * process, the others wait in order, holding no database connection. One that would not start
 * within `maxWaitMs` (judged on arrival from the queue length and the recent run time, and
 * enforced by a timer) is refused with 429 `rate_limit_exceeded` and a `Retry-After`, so under
 * a burst every request still answers quickly (a refusal is safe to retry; nothing was done).
 */
export class AdmissionGate {
  private running = 0;
  /** Moving average of how long one run takes (ms). */
  private runMs = 50;
  private readonly waiting: { admit: () => void; timer: NodeJS.Timeout }[] = [];

  constructor(
    private readonly what: string,
    private readonly concurrency: number,
    private readonly maxWaitMs: number,
  ) {
    // Read when scraped (`commerce_admission_running` / `_waiting`), never written per run.
    onScrape(`admission:${what}`, () => {
      admissionRunning.set({ gate: what }, this.running);
      admissionWaiting.set({ gate: what }, this.waiting.length);
    });
  }

  /** Runs `work` once admitted. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.admit();
    const start = performance.now();
    try {
      return await work();
    } finally {
      this.runMs = this.runMs * 0.8 + (performance.now() - start) * 0.2;
      this.release();
    }
  }

  private refusal(): DomainError {
    admissionRefusals.inc({ gate: this.what });
    return new DomainError(
      'rate_limit_exceeded',
      `Too many ${this.what} in progress right now; nothing was done. Retry in a second.`,
      { headers: { 'Retry-After': '1' } },
    );
  }

  private admit(): Promise<void> {
    if (this.running < this.concurrency) {
      this.running++;
      return Promise.resolve();
    }
    // Expected wait: the runs ahead of this one, `concurrency` at a time.
    if (((this.waiting.length + 1) / this.concurrency) * this.runMs > this.maxWaitMs)
      return Promise.reject(this.refusal());
    return new Promise((resolve, reject) => {
      const entry = {
        admit: () => {
          clearTimeout(entry.timer);
          this.running++;
          resolve();
        },
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(entry), 1);
          reject(this.refusal());
        }, this.maxWaitMs),
      };
      this.waiting.push(entry);
    });
  }

  private release(): void {
    this.running--;
    this.waiting.shift()?.admit();
  }
}
