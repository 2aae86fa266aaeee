import type { NotificationConfig } from '../../shared/protocol.js';
import type { AgentDirectory, LoadedAgent, PluginLoadError } from './loaded-agent.js';

/** The agents one plugin load produced, by slug, and the plugin folders it skipped. */
export class AgentRegistry implements AgentDirectory {
  private readonly bySlug = new Map<string, LoadedAgent>();
  private readonly loadErrors: readonly PluginLoadError[];

  constructor(agents: readonly LoadedAgent[], errors: readonly PluginLoadError[] = []) {
    for (const agent of agents) {
      if (this.bySlug.has(agent.slug)) throw new Error(`two loaded agents share the slug "${agent.slug}"`);
      this.bySlug.set(agent.slug, agent);
    }
    this.loadErrors = [...errors];
  }

  get(slug: string): LoadedAgent | undefined {
    return this.bySlug.get(slug);
  }

  /** Every loaded agent, enabled or not, in load order. */
  list(): LoadedAgent[] {
    return [...this.bySlug.values()];
  }

  /** The agents that accept tasks (and are listed at GET /agents). */
  enabled(): LoadedAgent[] {
    return this.list().filter((agent) => agent.enabled);
  }

  errors(): PluginLoadError[] {
    return [...this.loadErrors];
  }

  /** False when there is no such agent. The agent object is updated in place, so holders see it. */
  setEnabled(slug: string, enabled: boolean): boolean {
    const agent = this.bySlug.get(slug);
    if (!agent) return false;
    agent.enabled = enabled;
    return true;
  }

  /** False when there is no such agent; throws RangeError for anything but an integer 1–64. */
  setConcurrency(slug: string, concurrency: number): boolean {
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
      throw new RangeError(`concurrency must be an integer from 1 to 64, not ${concurrency}`);
    }
    const agent = this.bySlug.get(slug);
    if (!agent) return false;
    agent.concurrency = concurrency;
    return true;
  }

  /** False when there is no such agent; undefined removes the agent's webhook. */
  setNotificationConfig(slug: string, config: NotificationConfig | undefined): boolean {
    const agent = this.bySlug.get(slug);
    if (!agent) return false;
    if (config === undefined) delete agent.notificationConfig;
    else agent.notificationConfig = { ...config };
    return true;
  }
}
