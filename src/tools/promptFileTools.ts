// The tools a prompt file's `tools:` names, among those a run offers. A file
// may name Tandem's tools, an MCP server (`<server>` or `<server>/*`: all its
// tools) or one of its tools (`<server>/<tool>`), or Copilot's names for its
// own tools and tool sets, each read as the Tandem tools that do the same.
// It only narrows what the run offers: a name can take tools away, never add
// one or change what asks for approval.
import { cleanToolName } from '../mcp/mcpToolName';
import type { Tool } from './tool';

const READ = ['read_file', 'list_dir', 'find_files', 'search_text'];
const EDIT = ['write_file', 'edit_file', 'delete_file', 'create_directory'];

/** Copilot's tool and tool-set names, as Tandem's tools. */
const COPILOT_NAMES: Readonly<Record<string, readonly string[]>> = {
  codebase: READ,
  search: READ,
  read: READ,
  readFile: ['read_file'],
  fileSearch: ['find_files'],
  textSearch: ['search_text'],
  listDirectory: ['list_dir'],
  searchResults: READ,
  usages: ['find_usages'],
  problems: ['get_diagnostics'],
  edit: EDIT,
  editFiles: EDIT,
  new: EDIT,
  runCommands: ['run_command'],
  runInTerminal: ['run_command'],
  terminalLastCommand: ['run_command'],
  runTasks: ['run_command'],
  runTests: ['run_command'],
  fetch: ['fetch_url'],
  todos: ['update_todo_list'],
  runSubagent: ['run_subagent'],
  agent: ['run_subagent'],
};

export interface NamedTools {
  /** The offered tools' names the file's names take in. */
  readonly kept: ReadonlySet<string>;
  /** The file's names that take in none of the offered tools. */
  readonly unmatched: readonly string[];
}

type OfferedTool = Pick<Tool, 'name' | 'source'>;

/** Which of the `offered` tools the file's `names` take in. */
export function toolsNamed(names: readonly string[], offered: readonly OfferedTool[]): NamedTools {
  const kept = new Set<string>();
  const unmatched: string[] = [];
  for (const name of names) {
    const matches = matchesOf(name, offered);
    if (matches.length === 0) unmatched.push(name);
    for (const match of matches) kept.add(match);
  }
  return { kept, unmatched };
}

function matchesOf(name: string, offered: readonly OfferedTool[]): string[] {
  if (offered.some((tool) => tool.name === name)) return [name];
  const copilot = Object.hasOwn(COPILOT_NAMES, name) ? COPILOT_NAMES[name]! : [];
  const mapped = copilot.filter((each) => offered.some((tool) => tool.name === each && tool.source.kind === 'workspace'));
  if (mapped.length > 0) return mapped;
  // `<server>` or `<server>/*`: all of an MCP server's tools; `<server>/<tool>`: one of them.
  const slash = name.indexOf('/');
  const server = slash < 0 ? name : name.slice(0, slash);
  const tool = slash < 0 ? '*' : name.slice(slash + 1);
  const ofServer = offered.filter((each) => each.source.kind === 'mcp' && each.source.server === server);
  return (tool === '*' ? ofServer : ofServer.filter((each) => each.name === cleanToolName(server, tool))).map((each) => each.name);
}

export interface NarrowedTools<T> extends NamedTools {
  readonly tools: T[];
  /** Of `loopTools`, those the names take in. */
  readonly loopTools: ReadonlySet<string>;
}

/**
 * `offered` narrowed to what `names` take in. `loopTools`: tools the loop adds
 * itself after this (`run_subagent`), named like the rest.
 */
export function narrowTools<T extends OfferedTool>(offered: readonly T[], names: readonly string[], loopTools: readonly string[] = []): NarrowedTools<T> {
  const { kept, unmatched } = toolsNamed(names, [...offered, ...loopTools.map((name) => ({ name, source: { kind: 'workspace' } as const }))]);
  return { kept, unmatched, tools: offered.filter((tool) => kept.has(tool.name)), loopTools: new Set(loopTools.filter((name) => kept.has(name))) };
}

/** What the conversation says when `by` (a custom agent, a slash command) narrowed a run's tools. */
export function narrowedToolsMessage(by: string, narrowed: NamedTools): string {
  const listed = [...narrowed.kept];
  const unknown = narrowed.unmatched.length > 0 ? ` (${narrowed.unmatched.map((name) => `"${name}"`).join(', ')} named no tool here)` : '';
  return listed.length > 0 ? `This message may use only the tools ${by} names: ${listed.join(', ')}${unknown}.` : `This message may use no tools: ${by} names none that are offered here${unknown}.`;
}
