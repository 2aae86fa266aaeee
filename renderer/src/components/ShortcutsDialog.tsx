import { Modal } from './Modal.js';

const GROUPS: readonly { title: string; keys: readonly [string[], string][] }[] = [
  {
    title: 'Go to',
    keys: [
      [['g', 'i'], 'Inbox'],
      [['g', 't'], 'Tasks'],
      [['g', 'f'], 'Artifacts'],
      [['g', 'a'], 'Agents'],
      [['g', 's'], 'Settings'],
    ],
  },
  {
    title: 'Lists',
    keys: [
      [['j'], 'Next row (or ↓)'],
      [['k'], 'Previous row (or ↑)'],
      [['Enter'], 'Open the row'],
      [['Esc'], 'Close the detail'],
      [['/'], 'Search'],
    ],
  },
  {
    title: 'Forms',
    keys: [[['Ctrl', 'Enter'], 'Send the answer or form']],
  },
];

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} onClose={onClose} title="Keyboard shortcuts" size="md" footer={<button type="button" className="btn" onClick={onClose} autoFocus>Close</button>}>
      <div className="shortcuts">
        {GROUPS.map((g) => (
          <section key={g.title}>
            <h3 className="shortcuts-title">{g.title}</h3>
            <dl className="shortcuts-list">
              {g.keys.map(([keys, what]) => (
                <div key={what} className="shortcuts-row">
                  <dt>
                    {keys.map((k, i) => (
                      <span key={k}>
                        {i > 0 && <span className="shortcuts-then">{keys[0] === 'Ctrl' ? '+' : 'then'}</span>}
                        <kbd>{k}</kbd>
                      </span>
                    ))}
                  </dt>
                  <dd>{what}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </Modal>
  );
}
