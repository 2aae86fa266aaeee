import { describe, expect, it } from 'vitest';
import { MAX_MENU_PROMPTS, promptLabel, trayIconVariant, trayMenuModel, trayTooltip, type TrayState } from '../../../build/main/shell/tray-model.js';
import { menuTemplate, trayIconFile } from '../../../build/main/shell/tray.js';
import type { WaitingPrompt } from '../../../build/main/core/tasks/prompt-feed.js';

function prompt(n: number, text = `Question ${n}?`): WaitingPrompt {
  return { task_id: `task-${n}`, agent_slug: 'echo', agent_display_name: 'Echo', prompt: text, since: '2026-12-02T10:00:00.000Z' };
}
const base: TrayState = { prompts: [], total: 0, intakePaused: false, startAtLogin: false, quitting: false };
const labels = (state: TrayState) => trayMenuModel(state).map((item) => (item.type === 'separator' ? '---' : item.label));

describe('tray menu model', () => {
  it('idle: open, nothing waiting, pause, start at login, quit', () => {
    expect(labels(base)).toEqual(['Open Agent Host', '---', 'No prompts waiting', '---', 'Pause intake', 'Start at login', '---', 'Quit Agent Host']);
  });

  it('lists waiting prompts, each opening its own, and counts the rest', () => {
    const prompts = Array.from({ length: MAX_MENU_PROMPTS + 3 }, (_, i) => prompt(i));
    const model = trayMenuModel({ ...base, prompts, total: 25 });
    expect(model[2]).toEqual({ type: 'header', label: '25 prompts waiting' });
    const promptItems = model.filter((item) => item.type === 'action' && item.action.kind === 'open-prompt');
    expect(promptItems).toHaveLength(MAX_MENU_PROMPTS);
    expect(promptItems[0]).toEqual({ type: 'action', label: 'Echo: Question 0?', action: { kind: 'open-prompt', taskId: 'task-0' }, enabled: true });
    expect(model.find((item) => item.type === 'action' && item.action.kind === 'open-inbox')).toMatchObject({ label: `${25 - MAX_MENU_PROMPTS} more in the Inbox…` });
    expect(labels({ ...base, prompts: [prompt(1)], total: 1 })).toContain('1 prompt waiting');
    expect(labels({ ...base, prompts: [prompt(1)], total: 1 }).some((l) => l.includes('more in the Inbox'))).toBe(false);
  });

  it('offers resume while paused; leaves start at login out where unsupported; says only "Stopping" while quitting', () => {
    const paused = trayMenuModel({ ...base, intakePaused: true });
    expect(paused.find((item) => item.type === 'action' && item.action.kind === 'set-intake-paused')).toMatchObject({
      label: 'Resume intake',
      action: { kind: 'set-intake-paused', paused: false },
    });
    expect(labels({ ...base, startAtLogin: undefined })).not.toContain('Start at login');
    const on = trayMenuModel({ ...base, startAtLogin: true }).find((item) => item.type === 'checkbox');
    expect(on).toMatchObject({ checked: true, action: { kind: 'set-start-at-login', enabled: false } });
    expect(labels({ ...base, quitting: true })).toEqual(['Stopping Agent Host…']);
  });

  it('labels are one line, clipped, with & shown as itself', () => {
    expect(promptLabel(prompt(1, 'Deploy\n\n  to   prod & staging?'))).toBe('Echo: Deploy to prod && staging?');
    const long = promptLabel(prompt(1, 'x'.repeat(200)));
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long.endsWith('…')).toBe(true);
    expect(promptLabel(prompt(1, '   '))).toBe('Echo: needs input');
  });

  it('tooltip, icon variant and icon files', () => {
    expect(trayTooltip(0, false)).toBe('Agent Host — no prompts waiting');
    expect(trayTooltip(3, true)).toBe('Agent Host — 3 prompts waiting · intake paused');
    expect(trayIconVariant(0)).toBe('idle');
    expect(trayIconVariant(2)).toBe('attention');
    expect(trayIconFile('/a', 'darwin', 'attention')).toBe('/a/trayAttentionTemplate.png');
    expect(trayIconFile('/a', 'linux', 'idle')).toBe('/a/tray.png');
    expect(trayIconFile('/a', 'win32', 'attention')).toBe('/a/tray-attention.png');
  });

  it('turns the model into Electron menu items whose clicks carry the action', () => {
    const clicked: unknown[] = [];
    const template = menuTemplate(trayMenuModel({ ...base, prompts: [prompt(1)], total: 1 }), (action) => clicked.push(action));
    expect(template[1]).toEqual({ type: 'separator' });
    expect(template[2]).toEqual({ label: '1 prompt waiting', enabled: false });
    template[3]!.click!(undefined as never, undefined as never, undefined as never);
    expect(clicked).toEqual([{ kind: 'open-prompt', taskId: 'task-1' }]);
    expect(template.find((item) => item.type === 'checkbox')).toMatchObject({ label: 'Start at login', checked: false });
  });
});
