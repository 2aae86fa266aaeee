import { describe, expect, it } from 'vitest';
import { parseCommand, UsageError } from '../../../build/main/cli/args.js';

describe('agent-host command line', () => {
  it('parses the headless host flags', () => {
    expect(parseCommand(['--headless', '--host', '0.0.0.0', '--port', '0', '--data-dir', '/d', '--plugins', '/a', '--plugins', '/b', '--log-level', 'warn'])).toEqual({
      kind: 'host',
      headless: true,
      host: '0.0.0.0',
      port: 0,
      dataDir: '/d',
      plugins: ['/a', '/b'],
      logLevel: 'warn',
    });
    expect(parseCommand(['--host', '[::1]'])).toMatchObject({ kind: 'host', headless: false, host: '::1' });
  });

  it('parses token commands', () => {
    expect(parseCommand(['tokens', 'create', '--name', 'laptop'])).toEqual({ kind: 'tokens', action: 'create', name: 'laptop' });
    expect(parseCommand(['tokens', 'list', '--data-dir', '/d'])).toEqual({ kind: 'tokens', action: 'list', dataDir: '/d' });
    expect(parseCommand(['tokens', 'revoke', 'abc'])).toEqual({ kind: 'tokens', action: 'revoke', tokenId: 'abc' });
  });

  const bad: Array<[string[], RegExp]> = [
    [['--port', 'abc'], /--port must be a number/],
    [['--port', '65536'], /--port must be a number/],
    [['--port=-1'], /--port must be a number/],
    [['--bogus'], /Unknown option '--bogus'/],
    [['--host', 'a b'], /not a host name/],
    [['--log-level', 'loud'], /--log-level must be one of/],
    [['--data-dir', ' '], /--data-dir must not be empty/],
    [['tokens', 'create'], /needs --name/],
    [['tokens', 'revoke'], /needs a TOKEN_ID/],
    [['tokens', 'rotate'], /unknown tokens action/],
    [['serve'], /unexpected argument "serve"/],
  ];
  for (const [argv, message] of bad) {
    it(`refuses ${argv.join(' ')}`, () => {
      expect(() => parseCommand(argv)).toThrow(UsageError);
      expect(() => parseCommand(argv)).toThrow(message);
    });
  }
});
