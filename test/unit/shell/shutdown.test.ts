import { describe, expect, it } from 'vitest';
import { ShutdownSequence } from '../../../build/main/shell/shutdown.js';

describe('shutdown sequence', () => {
  it('runs the steps one after another, in order, once', async () => {
    const order: string[] = [];
    const step = (name: string, ms: number) => ({
      name,
      run: () => new Promise<void>((resolve) => setTimeout(() => (order.push(name), resolve()), ms)),
    });
    const sequence = new ShutdownSequence([step('a', 30), step('b', 1), step('c', 10)], () => undefined);
    expect(sequence.started).toBe(false);
    const first = sequence.run();
    const second = sequence.run();
    expect(sequence.started).toBe(true);
    expect(await first).toEqual({ completed: ['a', 'b', 'c'], failed: [] });
    expect(await second).toEqual(await first);
    expect(order).toEqual(['a', 'b', 'c']);
  });

  it('a failing step is logged and the later ones still run (the database still closes)', async () => {
    const logged: unknown[] = [];
    const order: string[] = [];
    const sequence = new ShutdownSequence(
      [
        { name: 'window', run: () => void order.push('window') },
        {
          name: 'notifications',
          run: () => {
            throw new Error('boom');
          },
        },
        { name: 'host', run: async () => void order.push('host') },
      ],
      (message, detail) => logged.push({ message, detail }),
    );
    expect(await sequence.run()).toEqual({ completed: ['window', 'host'], failed: [{ name: 'notifications', error: 'boom' }] });
    expect(order).toEqual(['window', 'host']);
    expect(logged).toEqual([{ message: 'shutdown step failed', detail: { step: 'notifications', error: 'boom' } }]);
  });

  it('a step past its time limit fails, saying what it still waited for, and quitting goes on', async () => {
    const order: string[] = [];
    const sequence = new ShutdownSequence(
      [
        { name: 'close-host', run: () => new Promise<void>(() => undefined), timeoutMs: 50, describeWait: () => 'control server' },
        { name: 'remove-tray', run: () => void order.push('tray') },
      ],
      () => undefined,
    );
    expect(await sequence.run()).toEqual({
      completed: ['remove-tray'],
      failed: [{ name: 'close-host', error: 'timed out after 50 ms; still waiting for: control server' }],
    });
    expect(order).toEqual(['tray']);
  });
});
