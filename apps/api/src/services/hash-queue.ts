import { ApiError } from './http.ts';
import { countHashRefused } from './metrics.ts';

const BUSY_RETRY_MS = 2000;

/**
 * Caps concurrent argon2 work at the cores, with a bounded queue behind it: under a flood the
 * sign-ins that fit are answered at full speed and the rest get 503 with Retry-After, instead of
 * every sign-in slowing to a crawl while memory grows.
 */
export class HashQueue {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  readonly concurrency: number;
  readonly maxWaiting: number;

  constructor(concurrency: number, maxWaiting: number) {
    this.concurrency = concurrency;
    this.maxWaiting = maxWaiting;
  }

  get depth(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.concurrency) {
      if (this.waiting.length >= this.maxWaiting) {
        countHashRefused();
        throw new ApiError(503, 'serverBusy', undefined, BUSY_RETRY_MS);
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await work();
    } finally {
      // hand the slot straight to the next waiter, so `active` never drops below a waiting queue
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/**
 * Runs the work of one key at a time, in arrival order (different keys in parallel); past
 * `maxWaiting` waiters of one key, 503 with Retry-After like the hashing queue.
 */
export class OneAtATime {
  private readonly keys = new Map<string, { tail: Promise<void>; waiting: number }>();
  readonly maxWaiting: number;

  constructor(maxWaiting: number) {
    this.maxWaiting = maxWaiting;
  }

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const entry = this.keys.get(key) ?? { tail: Promise.resolve(), waiting: 0 };
    if (entry.waiting > this.maxWaiting) throw new ApiError(503, 'serverBusy', undefined, BUSY_RETRY_MS);
    entry.waiting++;
    this.keys.set(key, entry);
    const previous = entry.tail;
    let finished = () => {};
    entry.tail = new Promise((resolve) => (finished = resolve));
    try {
      await previous;
      return await work();
    } finally {
      finished();
      if (--entry.waiting === 0) this.keys.delete(key);
    }
  }
}
