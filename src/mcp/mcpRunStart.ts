// What happens to the MCP servers when a run starts, in the panel, over AG-UI
// in VS Code and headless alike: the run waits for servers that are starting
// (new ones, and one restarting after a crash: it worked a moment ago), not for
// a retry of one that failed before (a broken server would hold up every run
// by its start timeout); a failure is told once, and the next run retries it.
import type { McpHub } from './mcpHub';
import type { McpServerStatus } from './mcpServerStatus';

/** What a run is told while its MCP servers start. */
export interface McpStartProgress {
  /** The start has taken a while: these servers are still starting. */
  waiting(servers: readonly string[]): void;
  /** These servers failed to start for this run (each with why); the run goes on without their tools. */
  failed(servers: readonly { readonly name: string; readonly error: string }[]): void;
}

/** How long a run waits on its MCP servers before it says so. */
const SLOW_START_MS = 1000;

const serverKey = (status: McpServerStatus): string => `${status.source}\n${status.name}`;

export class McpRunStart {
  /** Servers whose failure a run was told of; cleared when one is seen running again. */
  private readonly toldFailed = new Set<string>();

  constructor(
    private readonly hub: McpHub,
    private readonly slowStartMs = SLOW_START_MS,
  ) {}

  /**
   * Readies the servers for a run. `startConfigured` applies the configuration
   * without retrying what failed (it starts what is new or changed, and
   * resolves when those have connected or failed).
   */
  async forRun(startConfigured: () => Promise<void>, progress?: McpStartProgress): Promise<void> {
    const hub = this.hub;
    for (const status of hub.statuses()) if (status.state !== 'error' && status.state !== 'starting') this.toldFailed.delete(serverKey(status));
    const failedBefore = hub.statuses().filter((status) => status.state === 'error');
    const waitedFor = (): McpServerStatus[] => hub.statuses().filter((status) => status.state === 'starting' && !this.toldFailed.has(serverKey(status)));
    const slow = setTimeout(() => {
      const starting = waitedFor();
      if (starting.length > 0) progress?.waiting(starting.map((status) => status.name));
    }, this.slowStartMs);
    try {
      await startConfigured();
      await hub.whenStarted(waitedFor());
    } finally {
      clearTimeout(slow);
    }
    const stillFailed = new Set(hub.statuses().filter((status) => status.state === 'error').map(serverKey));
    for (const status of failedBefore) {
      if (stillFailed.has(serverKey(status))) void hub.restart({ name: status.name, source: status.source });
    }
    const failed = hub.statuses().filter((status) => status.state === 'error' && !this.toldFailed.has(serverKey(status)));
    for (const status of failed) this.toldFailed.add(serverKey(status));
    if (failed.length > 0) progress?.failed(failed.map((status) => ({ name: status.name, error: status.error ?? 'it failed to start' })));
  }
}
