import { describe, expect, it } from 'vitest';
import { parseCommand, USAGE, UsageError } from '../../../build/main/cli/args.js';

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

  it('parses deliveries commands', () => {
    expect(parseCommand(['deliveries', 'list'])).toEqual({ kind: 'deliveries', action: 'list', limit: 50 });
    expect(parseCommand(['deliveries', 'list', '--task', 'abc', '--state', 'dead', '--limit', '10', '--data-dir', '/d'])).toEqual({
      kind: 'deliveries',
      action: 'list',
      taskId: 'abc',
      state: 'dead',
      limit: 10,
      dataDir: '/d',
    });
    expect(parseCommand(['deliveries', 'redeliver', '42', '--data-dir', '/d'])).toEqual({ kind: 'deliveries', action: 'redeliver', deliveryId: 42, dataDir: '/d' });
  });

  it('documents the deliveries commands in the usage', () => {
    expect(USAGE).toContain('agent-host deliveries list [--task ID] [--state S] [--limit N]');
    expect(USAGE).toContain('agent-host deliveries redeliver DELIVERY_ID');
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
    [['deliveries'], /unknown deliveries action ""/],
    [['deliveries', 'retry'], /unknown deliveries action "retry"/],
    [['deliveries', 'list', '--state', 'lost'], /--state must be one of pending, delivered, dead/],
    [['deliveries', 'list', '--limit', '0'], /--limit must be a number from 1 to 1000/],
    [['deliveries', 'list', '--task', ''], /--task must not be empty/],
    [['deliveries', 'list', 'extra'], /unexpected argument "extra"/],
    [['deliveries', 'redeliver'], /needs a DELIVERY_ID/],
    [['deliveries', 'redeliver', 'abc'], /DELIVERY_ID must be a positive number/],
    [['deliveries', 'redeliver', '0'], /DELIVERY_ID must be a positive number/],
    [['deliveries', 'redeliver', '1', '--state', 'dead'], /go with deliveries list/],
    [['--headless', '--task', 'x'], /go with deliveries list/],
  ];
  for (const [argv, message] of bad) {
    it(`refuses ${argv.join(' ')}`, () => {
      expect(() => parseCommand(argv)).toThrow(UsageError);
      expect(() => parseCommand(argv)).toThrow(message);
    });
  }
});

describe('--hidden (the desktop app starts in the tray)', () => {
  it('is accepted for the desktop app and refused with --headless', () => {
    expect(parseCommand(['--hidden', '--port', '0'])).toMatchObject({ kind: 'host', headless: false, port: 0 });
    expect(() => parseCommand(['--hidden', '--headless'])).toThrow(/--hidden is for the desktop app/);
  });
});

describe('desktop or headless', () => {
  it('starts headless where no display exists to open a window on', async () => {
    const { missingDisplayReason } = await import('../../../build/main/cli/desktop.js');
    expect(missingDisplayReason('linux', {})).toMatch(/no display .*DISPLAY and WAYLAND_DISPLAY are unset/);
    expect(missingDisplayReason('linux', { DISPLAY: ':0' })).toBeUndefined();
    expect(missingDisplayReason('freebsd', { WAYLAND_DISPLAY: 'wayland-0' })).toBeUndefined();
    expect(missingDisplayReason('darwin', {})).toBeUndefined();
    expect(missingDisplayReason('win32', {})).toBeUndefined();
  });
});

describe('ui-link', () => {
  it('takes only --data-dir', () => {
    expect(parseCommand(['ui-link'])).toEqual({ kind: 'ui-link' });
    expect(parseCommand(['ui-link', '--data-dir', '/d'])).toEqual({ kind: 'ui-link', dataDir: '/d' });
    expect(() => parseCommand(['ui-link', 'now'])).toThrow(/unexpected argument "now" after ui-link/);
  });
});
