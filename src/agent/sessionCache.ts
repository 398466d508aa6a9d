// Within one run, an identical call of a read-only tool returns the earlier
// result. Any change made by a write tool may make those results stale, so a
// successful write clears the cache, and each run starts with it empty (the
// user may have edited files between turns). MCP results are cached only for
// servers the user marked `cacheable`.
import type { ToolResult } from '../tools/tool';
import { callSignature } from './canonicalJson';

export class SessionCache {
  private readonly results = new Map<string, ToolResult>();

  get(toolName: string, args: unknown): ToolResult | undefined {
    return this.results.get(callSignature(toolName, args));
  }

  set(toolName: string, args: unknown, result: ToolResult): void {
    this.results.set(callSignature(toolName, args), result);
  }

  /** Called after a tool that may have changed the workspace ran. */
  invalidate(): void {
    this.results.clear();
  }

  get size(): number {
    return this.results.size;
  }
}
