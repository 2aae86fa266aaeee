import { describe, expect, it } from 'vitest';
import { endpointOrigin, redactCredentials } from '../../../build/main/core/notify/log-safety.js';

describe('log safety', () => {
  it('logs an endpoint by its origin only', () => {
    expect(endpointOrigin('https://hooks.example:8443/T000/B000/xoxo-secret?token=abc')).toBe('https://hooks.example:8443');
    expect(endpointOrigin('not a url')).toBe('(invalid URL)');
  });

  it('takes the auth value and the signing secret out of an error text', () => {
    const delivery = { auth_header: 'Authorization: Bearer s3cr3t-token', signing_secret: 'whsec_c2VjcmV0LWtleQ==' };
    expect(redactCredentials('bad header Bearer s3cr3t-token for whsec_c2VjcmV0LWtleQ==', delivery)).toBe('bad header [redacted] for [redacted]');
    expect(redactCredentials('HTTP 500: boom', { auth_header: null, signing_secret: null })).toBe('HTTP 500: boom');
  });
});
