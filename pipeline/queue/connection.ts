// Where the queue lives: one BullMQ queue on the Redis server QUEUE= names.
import type { RedisOptions } from 'bullmq';

export const QUEUE_NAME = 'exam-ingest-papers';

/** ioredis options from redis://[user:password@]host:port[/db] (rediss:// for TLS). */
export function redisOptions(url: string): RedisOptions {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0,
    tls: u.protocol === 'rediss:' ? {} : undefined,
    // BullMQ's blocking commands must wait as long as they need, not fail after a few retries.
    maxRetriesPerRequest: null,
  };
}
