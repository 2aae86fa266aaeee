import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  AGENT_CARD_SCHEMA_TEXT,
  buildAgentCard,
  validateAgentCard,
} from '../../../build/main/core/agents/agent-card.js';
import { AgentRegistry } from '../../../build/main/core/agents/agent-registry.js';
import type { LoadedAgent } from '../../../build/main/core/agents/loaded-agent.js';
import { createSchemaCompiler } from '../../../build/main/core/agents/plugin-schemas.js';

/** The A2A reference lives beside the repository in the team's shared folder, when it is there. */
const SPEC = fileURLToPath(new URL('../../../../shared/spec/a2a-protocol-1.0.txt', import.meta.url));

/** The reference's "Example AgentCard.json", verbatim. */
const SPEC_EXAMPLE_CARD = {
  protocol_version: '1.0',
  agent_id: 'f47ac10b-58cc-4372-a567-0e02b2c3d479',
  display_name: 'Python Script Generator',
  description: 'Generates a Python script based on a given topic and saves it as an artifact.',
  capabilities: ['code-generation', 'file-io'],
  input_schema: {
    type: 'object',
    properties: {
      topic: { type: 'string', description: 'The subject for the Python script.' },
      filename: { type: 'string', pattern: '^[a-zA-Z0-9_]+\\.py$' },
    },
    required: ['topic', 'filename'],
  },
  notification_config: {
    endpoint_url: 'https://orchestrator.example.com/webhooks/agent-updates',
    auth_header: 'Authorization: Bearer dG9rZW4tZm9yLXdlYmhvb2tz',
  },
};

function agent(overrides: Partial<LoadedAgent> = {}): LoadedAgent {
  const input_schema = { type: 'object', properties: { text: { type: 'string' } } };
  return {
    slug: 'sample',
    manifest: {
      slug: 'sample',
      display_name: 'Sample',
      description: 'A sample agent for card tests.',
      capabilities: ['testing'],
      input_schema,
      version: '1.0.0',
      entry: 'index.js',
      concurrency: 1,
      rerun_safe: false,
    },
    dir: '/plugins/sample',
    entryPath: '/plugins/sample/index.js',
    source: 'cli',
    agentId: '6f1c0c1e-4a4b-4c1d-9b8e-2f8d1a0b3c4d',
    enabled: true,
    concurrency: 1,
    validateInput: createSchemaCompiler()(input_schema),
    ...overrides,
  };
}

describe('AgentCard schema', () => {
  it.skipIf(!existsSync(SPEC))('is the schema text printed in the A2A reference, character for character', () => {
    const spec = readFileSync(SPEC, 'utf8');
    const start = spec.indexOf('{', spec.indexOf('AgentCard JSON Schema'));
    const end = spec.indexOf('Task Lifecycle and State');
    expect(spec.slice(start, end).trim()).toBe(AGENT_CARD_SCHEMA_TEXT);
  });

  it("accepts the reference's example card", () => {
    expect(validateAgentCard(SPEC_EXAMPLE_CARD)).toBe(true);
  });

  it.each([
    ['protocol_version 1.1', { protocol_version: '1.1' }],
    ['agent_id not a uuid', { agent_id: 'python-script' }],
    ['empty display_name', { display_name: '' }],
    ['description of 9 characters', { description: 'Too short' }],
    ['capabilities with a number', { capabilities: ['x', 1] }],
    ['empty input_schema', { input_schema: {} }],
    ['output_schema an array', { output_schema: [] }],
    ['notification_config without endpoint_url', { notification_config: { auth_header: 'X: y' } }],
    ['endpoint_url not a URI', { notification_config: { endpoint_url: 'not a uri' } }],
    ['missing description', { description: undefined }],
  ])('rejects a card with %s', (_name, change) => {
    const card: Record<string, unknown> = { ...SPEC_EXAMPLE_CARD, ...change };
    for (const key of Object.keys(card)) if (card[key] === undefined) delete card[key];
    expect(validateAgentCard(card)).toBe(false);
  });
});

describe('buildAgentCard', () => {
  it('carries only card fields, without output_schema or notification_config when there are none', () => {
    const card = buildAgentCard(agent());
    expect(card).toEqual({
      protocol_version: '1.0',
      agent_id: '6f1c0c1e-4a4b-4c1d-9b8e-2f8d1a0b3c4d',
      display_name: 'Sample',
      description: 'A sample agent for card tests.',
      capabilities: ['testing'],
      input_schema: { type: 'object', properties: { text: { type: 'string' } } },
    });
    expect(validateAgentCard(card)).toBe(true);
  });

  it('adds output_schema and the configured notification_config', () => {
    const base = agent();
    const output_schema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    const notificationConfig = { endpoint_url: 'https://hooks.example/a2a' };
    const card = buildAgentCard({ ...base, manifest: { ...base.manifest, output_schema }, notificationConfig });
    expect(card.output_schema).toEqual(output_schema);
    expect(card.notification_config).toEqual(notificationConfig);
    expect(validateAgentCard(card)).toBe(true);
  });

  it("masks the webhook credential but keeps the header's name", () => {
    const notificationConfig = { endpoint_url: 'https://hooks.example/a2a', auth_header: 'Authorization: Bearer s3cret' };
    const card = buildAgentCard({ ...agent(), notificationConfig });
    expect(card.notification_config).toEqual({ endpoint_url: 'https://hooks.example/a2a', auth_header: 'Authorization: [redacted]' });
    expect(JSON.stringify(card)).not.toContain('s3cret');
    expect(validateAgentCard(card)).toBe(true);
  });

  it('leaves the signing secret out of the card entirely', () => {
    const notificationConfig = { endpoint_url: 'https://hooks.example/a2a', signing_secret: 'whsec_c2lnbmluZy1rZXk=' };
    const card = buildAgentCard({ ...agent(), notificationConfig });
    expect(card.notification_config).toEqual({ endpoint_url: 'https://hooks.example/a2a' });
    expect(JSON.stringify(card)).not.toContain('whsec_');
  });
});

describe('AgentRegistry', () => {
  const errors = [{ dir: '/plugins/broken', reason: 'broken' }];

  it('looks agents up by slug and lists them, the enabled ones and the load errors', () => {
    const registry = new AgentRegistry([agent(), agent({ slug: 'off', enabled: false })], errors);
    expect(registry.get('sample')?.slug).toBe('sample');
    expect(registry.get('nope')).toBeUndefined();
    expect(registry.list().map((a) => a.slug)).toEqual(['sample', 'off']);
    expect(registry.enabled().map((a) => a.slug)).toEqual(['sample']);
    expect(registry.errors()).toEqual(errors);
  });

  it('changes enabled and concurrency in place, refusing unknown slugs and bad counts', () => {
    const registry = new AgentRegistry([agent()]);
    const held = registry.get('sample')!;
    expect(registry.setEnabled('sample', false)).toBe(true);
    expect(held.enabled).toBe(false);
    expect(registry.enabled()).toEqual([]);
    expect(registry.setConcurrency('sample', 8)).toBe(true);
    expect(held.concurrency).toBe(8);
    expect(registry.setEnabled('nope', true)).toBe(false);
    expect(registry.setConcurrency('nope', 2)).toBe(false);
    expect(() => registry.setConcurrency('sample', 0)).toThrow(RangeError);
    expect(() => registry.setConcurrency('sample', 2.5)).toThrow(RangeError);
    expect(held.concurrency).toBe(8);
  });

  it('refuses two agents with one slug', () => {
    expect(() => new AgentRegistry([agent(), agent()])).toThrow(/share the slug "sample"/);
  });
});
