/**
 * What a fleet job may carry (never a credential), the queue URL forms (auth, TLS, database),
 * and the run caps.
 */
import { describe, expect, it } from 'vitest';
import { connectionOptions, parseQueueUrl, redact } from '../../../src/fleet/connection.js';
import { assertNoSecrets, jobIdOf, jobSchema, type FleetJob } from '../../../src/fleet/payload.js';
import { capNotice, capOvershoot, capReached } from '../../../src/fleet/spend.js';

const job: FleetJob = {
  seekVersion: '1.2.3',
  runId: 'run',
  taskId: 't1',
  role: 'editor',
  prompt: '## Your task (t1, editor)\nAdd a test',
  writes: true,
  repo: { url: 'git@example.com:team/app.git', base: 'a'.repeat(40) },
  resultBranch: 'seek/fleet/x',
  mode: 'yolo',
  limits: { maxTurns: 10, costCapUsd: 5, tokenCap: 100_000 },
};

describe('fleet job payload', () => {
  it('has exactly the documented fields: no key, no provider setting, no environment', () => {
    expect(Object.keys(jobSchema.shape).sort()).toEqual(['limits', 'mode', 'plan', 'prompt', 'repo', 'resultBranch', 'role', 'runId', 'seekVersion', 'taskId', 'writes']);
    expect(jobSchema.parse(job)).toEqual(job);
    expect(jobSchema.safeParse({ ...job, apiKey: 'x' }).success).toBe(false); // strict: an extra field is refused
    expect(() => assertNoSecrets(job)).not.toThrow();
    // A plan task's job also carries the task and its dependencies' roles (their results come from its children).
    const task = { id: 'r', index: 2, task: 'Review', role: 'reviewer', kind: 'reader' as const, reviews: true, dependsOn: ['e1'] };
    const planned: FleetJob = { ...job, plan: { goal: 'g', task, deps: [{ id: 'e1', role: 'editor', kind: 'writer', reviews: false }] } };
    expect(jobSchema.parse(planned)).toEqual(planned);
    expect(jobSchema.safeParse({ ...planned, plan: { ...planned.plan, env: {} } }).success).toBe(false);
  });

  it('refuses a payload that would carry a credential', () => {
    expect(() => assertNoSecrets({ ...job, env: { DEEPSEEK_API_KEY: 'x' } })).toThrow('job.env.DEEPSEEK_API_KEY names a credential');
    expect(() => assertNoSecrets({ ...job, prompt: 'use sk-abcdefghijklmnopqrstuvwxyz to call it' })).toThrow('job.prompt looks like it holds an API key');
    expect(() => assertNoSecrets({ ...job, repo: { url: 'https://bot:hunter2@example.com/app.git' } })).toThrow('job.repo.url holds a URL with a password');
    expect(() => assertNoSecrets({ ...job, repo: { url: 'https://example.com/app.git' } })).not.toThrow();
  });

  it('makes job ids BullMQ accepts', () => {
    expect(jobIdOf('20261126-120000-abcdef.run_1', 'h:t1')).toBe('20261126-120000-abcdef.run_1.h_t1');
  });
});

describe('queue URLs', () => {
  it('takes user and password, TLS and a database; messages never show the password', () => {
    expect(connectionOptions('redis://fleet:s3cret@10.0.0.5:6380/2')).toMatchObject({ host: '10.0.0.5', port: 6380, username: 'fleet', password: 's3cret', db: 2 });
    expect(connectionOptions('rediss://redis.internal')).toMatchObject({ host: 'redis.internal', port: 6379, tls: { servername: 'redis.internal' } });
    expect(connectionOptions('redis://127.0.0.1:7000')).not.toHaveProperty('tls');
    expect(redact('redis://fleet:s3cret@10.0.0.5:6380')).toBe('redis://fleet:***@10.0.0.5:6380');
    expect(() => parseQueueUrl('http://x')).toThrow('unsupported scheme http:');
    expect(() => parseQueueUrl('127.0.0.1:6379')).toThrow(/is not a URL; use redis:\/\/HOST:PORT/);
  });
});

describe('run caps', () => {
  const spend = { costUsd: 1.5, prompt: 9000, completion: 1000, cacheHit: 0, modelCalls: 4, unpriced: 0 };
  it('stops new jobs at the dollar cap or the token cap', () => {
    expect(capReached(spend, {})).toBeUndefined();
    expect(capReached(spend, { costCapUsd: 2, tokenCap: 20_000 })).toBeUndefined();
    expect(capReached(spend, { costCapUsd: 1.5 })).toBe("the run's dollar cap is reached ($1.5000 spent of $1.5000); no new job starts");
    expect(capReached(spend, { tokenCap: 10_000 })).toBe("the run's token cap is reached (10000 tokens of 10000); no new job starts");
    expect(capNotice(spend, { costCapUsd: 2 })).toBeUndefined();
    expect(capNotice(spend, { costCapUsd: 1.2 })).toBe('The dollar cap of this fleet run is reached ($1.5000 spent by all its jobs, of $1.2000); no new job of the run starts');
    expect(capNotice(spend, { tokenCap: 8000 })).toBe('The token cap of this fleet run is reached (10000 tokens spent by all its jobs, of 8000); no new job of the run starts');
    expect(capOvershoot(spend, { costCapUsd: 2 })).toBeUndefined();
    expect(capOvershoot(spend, { costCapUsd: 1.2 })).toBe("the run's dollar cap of $1.2000 stopped it: $1.5000 spent, $0.3000 (25.0%) over the cap");
    expect(capOvershoot({ ...spend, costUsd: 0.0003 }, { costCapUsd: 0.0002 })).toBe("the run's dollar cap of $0.000200 stopped it: $0.000300 spent, $0.000100 (50.0%) over the cap");
    expect(capOvershoot(spend, { tokenCap: 8000 })).toBe("the run's token cap of 8000 stopped it: 10000 tokens spent, 2000 tokens (25.0%) over the cap");
  });
});
