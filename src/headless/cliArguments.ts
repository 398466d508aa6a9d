// The headless server's command line, checked before anything starts.
import type { AutoApprovePolicy } from '../agent/policyApprovalGate';
import type { HeadlessOptions } from './headlessAgent';

export const USAGE = 'usage: npm run agui -- --folder DIR [--port N] [--settings FILE] [--token T] [--allow-mcp] [--approve readOnly|all|none]';

export class UsageError extends Error {}

export function parseArguments(argv: readonly string[]): HeadlessOptions {
  let folder: string | undefined;
  let port: number | undefined;
  let settingsFile: string | undefined;
  let token: string | undefined;
  let allowMcp = false;
  let approve: AutoApprovePolicy | undefined;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] as string;
    const [flag, inline] = argument.startsWith('--') && argument.includes('=') ? [argument.slice(0, argument.indexOf('=')), argument.slice(argument.indexOf('=') + 1)] : [argument, undefined];
    const value = (): string => {
      const next = inline ?? argv[++index];
      if (next === undefined || next === '') throw new UsageError(`${flag} needs a value.`);
      return next;
    };
    switch (flag) {
      case '--folder':
        folder = value();
        break;
      case '--port': {
        const text = value();
        if (!/^\d+$/.test(text) || Number(text) > 65535) throw new UsageError(`--port must be an integer 0..65535, not "${text}".`);
        port = Number(text);
        break;
      }
      case '--settings':
        settingsFile = value();
        break;
      case '--token': {
        const text = value();
        if (!/^[\x21-\x7e]{16,}$/.test(text)) throw new UsageError('--token must be at least 16 printable characters without spaces.');
        token = text;
        break;
      }
      case '--allow-mcp':
        allowMcp = true;
        break;
      case '--approve': {
        const text = value();
        if (text !== 'readOnly' && text !== 'all' && text !== 'none') throw new UsageError(`--approve must be readOnly, all or none, not "${text}".`);
        approve = text;
        break;
      }
      case '--help':
      case '-h':
        throw new UsageError('');
      default:
        throw new UsageError(`unknown argument "${argument}".`);
    }
  }
  if (folder === undefined) throw new UsageError('--folder is required.');
  return { folder, port, settingsFile, token, allowMcp, approve };
}

