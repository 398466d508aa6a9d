// What the conversation says while a run waits on its MCP servers, and when
// one of them did not start: without it, a slow or broken server looked like a
// run that hung before its first step.
import type { NoticeAction, NoticeCode } from '../protocol/agentEvents';
import type { McpStartProgress } from './mcpRunStart';

/** Where the notices go: the panel's conversation, or an AG-UI client (which drops the action). */
export type StartNoticeSink = (code: NoticeCode, message: string, level: 'info' | 'warning', action?: NoticeAction) => void;

const SHOW_SERVERS = { label: 'Show MCP Servers', command: 'tandem.showMcpServers' } as const;

export function mcpStartNotices(notice: StartNoticeSink): McpStartProgress {
  return {
    waiting: (servers) => {
      const names = servers.map((name) => `"${name}"`).join(', ');
      notice('mcpStarting', `Waiting for MCP server${servers.length === 1 ? '' : 's'} ${names} to start; the run begins once each has connected or failed.`, 'info');
    },
    failed: (servers) => {
      const what = servers.map((server) => `"${server.name}": ${/[.…]$/.test(server.error) ? server.error : `${server.error}.`}`).join(' ');
      notice(
        'mcpFailed',
        `${servers.length === 1 ? 'An MCP server' : `${servers.length} MCP servers`} did not start. ${what} This run goes on without ${servers.length === 1 ? 'its' : 'their'} tools; the next run tries again.`,
        'warning',
        SHOW_SERVERS,
      );
    },
  };
}
