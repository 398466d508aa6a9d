// A byte count as a person reads it, in one wording for every message Tandem
// writes (a refusal, a notice, a log line). Units are binary, as VS Code and
// file managers count them.

const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;

/** "812 bytes", "14 KB", "3.2 MB", "20 MB", "1.5 GB": to the nearest unit or tenth. */
export function byteSize(bytes: number): string {
  if (bytes < KB) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  if (bytes < MB) return `${Math.round(bytes / KB)} KB`;
  if (bytes < GB) return `${tenths(bytes / MB)} MB`;
  return `${tenths(bytes / GB)} GB`;
}

/** 20.01 → "20", 3.24 → "3.2": one decimal, none when it is zero. */
function tenths(value: number): string {
  const inTenths = Math.round(value * 10);
  return inTenths % 10 === 0 ? String(inTenths / 10) : (inTenths / 10).toFixed(1);
}

/** The size of something over `limit`: "1.5 GB", or "just over 20 MB" when rounding would make it read as the limit. */
export function sizeOverLimit(bytes: number, limit: number): string {
  const shown = byteSize(bytes);
  return shown === byteSize(limit) ? `just over ${shown}` : shown;
}
