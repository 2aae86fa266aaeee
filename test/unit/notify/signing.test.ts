import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signWebhook, splitHeaderLine, webhookHeaders } from '../../../build/main/core/notify/signing.js';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const body = JSON.stringify({ event_type: 'task.status.updated', timestamp: '2024-05-01T12:00:00.000Z', data: { task_id: 't', note: 'ünïcödé' } });

describe('Standard Webhooks signatures', () => {
  it('signs so that the reference library verifies it', () => {
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = webhookHeaders({ webhookId: 'msg_abc', timestampSeconds: timestamp, body, signingSecret: secret });
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(signWebhook(secret, 'msg_abc', timestamp, body)).toBe(new Webhook(secret).sign('msg_abc', new Date(timestamp * 1000), body));
  });

  it('fails verification with another secret, another body or another id', () => {
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = webhookHeaders({ webhookId: 'msg_abc', timestampSeconds: timestamp, body, signingSecret: secret });
    const other = `whsec_${randomBytes(32).toString('base64')}`;
    expect(() => new Webhook(other).verify(body, headers)).toThrow(/No matching signature/);
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow(/No matching signature/);
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_other' })).toThrow(/No matching signature/);
  });

  it('sends the auth header, the protocol headers, and no signature without a secret', () => {
    const headers = webhookHeaders({ webhookId: 'msg_1', timestampSeconds: 1700000000, body, authHeader: 'Authorization: Bearer a:b' });
    expect(headers).toEqual({
      authorization: 'Bearer a:b',
      'content-type': 'application/json',
      'user-agent': 'Agent-Host-Webhooks',
      'webhook-id': 'msg_1',
      'webhook-timestamp': '1700000000',
    });
  });

  it('does not let a configured header replace the protocol\'s', () => {
    const headers = webhookHeaders({ webhookId: 'msg_1', timestampSeconds: 1, body, authHeader: 'Webhook-Id: forged' });
    expect(headers['webhook-id']).toBe('msg_1');
  });

  it('splits a header line at its first colon', () => {
    expect(splitHeaderLine('X-Token:  a:b:c ')).toEqual({ name: 'X-Token', value: 'a:b:c' });
    expect(() => splitHeaderLine('no colon')).toThrow(/Name: value/);
  });
});
