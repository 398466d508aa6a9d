// The one JSON-shape guard the MCP modules share; kept apart so the hub's
// import graph stays free of zod until a config file is read.
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
