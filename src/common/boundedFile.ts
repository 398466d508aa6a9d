// Reads a small file that a configuration names or that a repository holds
// (an MCP server's envFile, `.vscode/mcp.json`): only a regular file, and only
// up to a limit. A FIFO there would keep the read waiting for a writer
// forever, and a link to /dev/zero would fill memory until Node gives up.
import { readFile, stat } from 'node:fs/promises';
import { byteSize, sizeOverLimit } from './byteSize';
import { TandemError } from './errors';

/** Why a file was not read; its message is the reason alone ("it is not a regular file"). */
export class FileRefusal extends TandemError {}

/**
 * Why a file of this kind and size is not read, or undefined when it may be.
 * `what` names the file in the reason ("an envFile").
 */
export function boundedFileRefusal(isFile: boolean, size: number, limit: number, what: string): string | undefined {
  if (!isFile) return 'it is not a regular file';
  if (size > limit) return `it is ${sizeOverLimit(size, limit)}; Tandem reads ${what} up to ${byteSize(limit)}`;
  return undefined;
}

/** The file's text (UTF-8). Throws a FileRefusal, or the file system's own error (ENOENT, EACCES). */
export async function readBoundedTextFile(file: string, limit: number, what: string): Promise<string> {
  // Looked at before opening: opening a FIFO to read already waits for a writer.
  const info = await stat(file);
  const refusal = boundedFileRefusal(info.isFile(), info.size, limit, what);
  if (refusal !== undefined) throw new FileRefusal(refusal);
  return readFile(file, 'utf8');
}
