/** The App's memory in Redis (REDIS_URL): the store every worker shares (real Redis). */
import { describe, expect, it } from '@jest/globals';
import { createMemoryStore } from '../../src/memory/memory-store.js';
import { redisMemoryBlobs } from '../../src/memory/memory-blobs.js';
import { uniquePrefix, useRedis } from '../scale/helpers.js';

const shared = useRedis();

describe('memory store - redis', () => {
  it('memory store - two stores on the same Redis (two workers) see the same entries, with no expiry', async () => {
    const prefix = `${uniquePrefix('memory')}:`;
    const a = createMemoryStore(redisMemoryBlobs(shared.redis, prefix));
    const b = createMemoryStore(redisMemoryBlobs(shared.redis, prefix));
    const entry = {
      rule: 'Keep the public API',
      why: '',
      where: 'src/api',
      date: '2026-11-30',
      url: 'https://github.com/acme/widgets/pull/13#discussion_r7',
      author: 'maintainer',
    };
    expect(await a.add('acme/widgets', entry)).toEqual({ added: true, number: 1 });
    expect(await b.list('ACME/widgets')).toEqual([entry]);
    expect(await shared.redis.ttl(`${prefix}acme/widgets`)).toBe(-1);
    expect(await b.remove('acme/widgets', 1)).toEqual(entry);
    expect(await a.list('acme/widgets')).toEqual([]);
    await shared.redis.del(`${prefix}acme/widgets`);
  });
});
