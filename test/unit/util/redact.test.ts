import { afterEach, describe, expect, it } from 'vitest';
import { forgetSecretsForTesting, isSecretParameter, redact, rememberSecret, rememberUrlSecrets } from '../../../src/util/redact.js';

afterEach(forgetSecretsForTesting);

describe('redact', () => {
  it('hides the user info of every URL, keeping the host and path', () => {
    expect(redact('Could not reach DeepSeek API at http://user:KEY@host:8080/v1: connect ECONNREFUSED')).toBe('Could not reach DeepSeek API at http://***@host:8080/v1: connect ECONNREFUSED');
    expect(redact('proxy https://only-token@proxy.local failed')).toBe('proxy https://***@proxy.local failed');
    expect(redact('at http://example.com/a@b')).toBe('at http://example.com/a@b');
  });

  it('hides key-like query values, case-insensitively, and keeps the rest of the text', () => {
    expect(redact('GET https://h/v1?key=abc&model=x&API_KEY=def&Token=ghi#top.')).toBe('GET https://h/v1?key=***&model=x&API_KEY=***&Token=***#top.');
    expect(redact('(see https://s3/b/o?X-Amz-Signature=beef&X-Amz-Credential=AK%2F1&part=2)')).toBe('(see https://s3/b/o?X-Amz-Signature=***&X-Amz-Credential=***&part=2)');
    expect(redact('https://h/cb#access_token=tok&state=s')).toBe('https://h/cb#access_token=***&state=s');
    expect(redact('the query was ?sig=abc&password=p2; retrying')).toBe('the query was ?sig=***&password=***; retrying');
    for (const name of ['key', 'apikey', 'api-key', 'access_token', 'secret', 'client_secret', 'signature', 'sig', 'password', 'refresh_token']) expect(isSecretParameter(name)).toBe(true);
    for (const name of ['model', 'page', 'q', 'limit', 'format']) expect(isSecretParameter(name)).toBe(false);
    expect(redact('plain text with key=value and no URL')).toBe('plain text with key=value and no URL');
  });

  it('hides registered secrets wherever they appear, as written and URL-encoded', () => {
    rememberSecret('sk-live-abcdefgh12345');
    rememberSecret('short');
    rememberUrlSecrets('http://user:p%40ss-word-123@host/v1?key=query-key-9876');
    expect(redact('Incorrect API key provided: sk-live-abcdefgh12345')).toBe('Incorrect API key provided: ***');
    expect(redact('password p@ss-word-123 and p%40ss-word-123, key query-key-9876')).toBe('password *** and ***, key ***');
    expect(redact('a short word')).toBe('a short word');
  });
});
