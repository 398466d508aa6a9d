// Moved to src/common/errors.ts (shared by models, tools, mcp and the agent,
// so it lives below them all). Re-exported here only for code still in flight.
export * from '../common/errors';
