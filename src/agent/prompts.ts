// The prompt templates. Kept in one place so they can be tuned per model
// family without touching the loop.
import type { ChatImage, ChatMessage, ToolSchema } from '../models/chatModel';
import type { RuleFile } from '../tools/rulesFiles';
import { capResult } from './resultCap';
import { withRules } from './rules';
import { dropOlderImages, imagesMessage } from './toolImages';

export const FINISH_TOOL_NAME = 'finish';

/** Offered under `nonToolReply: remind`, so the model has an explicit way to say it is done. */
export const finishTool: ToolSchema = {
  name: FINISH_TOOL_NAME,
  description:
    'Call this when you have gathered enough information to answer the user. Another model will then write the final answer from the tool results.',
  parameters: {
    type: 'object',
    properties: { reason: { type: 'string', description: 'Why the gathered information is enough.' } },
    additionalProperties: false,
  },
};

export function functionCallSystemPrompt(tools: readonly ToolSchema[], options: { remind: boolean; answersItself?: boolean }): string {
  const names = toolList(tools);
  return [
    'You are the tool-using half of Tandem, an agent working on the user\'s VS Code workspace.',
    'Your job: decide which tools to call to gather what is needed to answer the user, call them, read the results, and repeat until you have enough.',
    options.answersItself
      ? 'When you have what you need, your reply without a tool call is the final answer the user reads: write it in Markdown, citing files and lines (path:line).'
      : 'Another model writes the final answer from what you gather, so do not write a long answer yourself.',
    '',
    'How to work:',
    '- Think briefly about what you need, then call the tool that gets it. Say in one sentence why you chose it.',
    '- Prefer precise queries: search for identifiers, read only the lines you need.',
    '- Read results carefully; if a result is empty or off-target, try a different query or tool instead of repeating the same call.',
    '- Independent calls may be made in the same turn.',
    options.remind
      ? `- When you have enough, call the \`${FINISH_TOOL_NAME}\` tool. Do not reply without calling a tool.`
      : options.answersItself
        ? '- When you have enough (or need no tools at all), write the answer without calling a tool.'
        : '- When you have enough (or need no tools at all), reply with a short plain-text note of what you found, without calling a tool.',
    '',
    'Available tools (parameters marked ? are optional):',
    names || '(none)',
    '',
    'If you cannot call functions natively, reply with JSON only:',
    '{"response": "one sentence on what you are doing", "mcp": {"tool": "<tool name>", "params": {...}}}',
    'and omit "mcp" when you are done.',
  ].join('\n');
}

export const ANSWER_SYSTEM_PROMPT = [
  'You are the answering half of Tandem, an assistant working on the user\'s VS Code workspace.',
  'Write the final answer to the user\'s last message. Use the tool findings below when they are given:',
  'be accurate and complete, cite the files and lines you rely on (path:line), and say plainly when the findings do not settle something.',
  'Use Markdown. Do not invent file contents that are not in the findings.',
].join('\n');

export const CHAT_SYSTEM_PROMPT = [
  'You are Tandem, a helpful assistant inside VS Code. Answer clearly and accurately in Markdown.',
  'You cannot see or change the user\'s files in this mode; say so if the question needs them.',
].join('\n');

export const REMINDER =
  `Your reply did not call a tool. If you need more information, call a tool. If you have enough, call \`${FINISH_TOOL_NAME}\`.`;

export function loopWarning(toolName: string): string {
  return `Note: you already called ${toolName} with exactly these arguments and nothing was written since, so its result has not changed. Use it, or try a different call. Repeating it again will stop the tool phase.`;
}

/** Sent after a reply cut at the token limit. */
export const TRUNCATED_NOTE =
  'Your reply was cut off at the token limit, so nothing in it was run. Reply again, shorter: one tool call with compact arguments, or a brief final reply.';

export function insufficientNote(reason: string): string {
  return `Note: ${reason} Consider a different call (other arguments, or another tool) before answering.`;
}

export interface Finding {
  readonly toolName: string;
  readonly arguments: string;
  readonly text: string;
  readonly isError: boolean;
  /** Images the call returned, shown to the answer model after the conversation. */
  readonly images?: readonly ChatImage[] | undefined;
}

/** Characters of one finding the answer model sees at most (fewer when many findings must share a small window). */
export const FINDING_LIMIT = 12_000;

/** The answer model's view of a run: the conversation, then the findings and the stop reason. */
export function answerMessages(
  conversation: readonly ChatMessage[],
  findings: readonly Finding[],
  stopNote: string | undefined,
  rules?: readonly RuleFile[],
  /** The system prompt made from the built-in one (the user's template, the rules). */
  system: (builtIn: string) => string = (builtIn) => withRules(builtIn, rules),
  findingLimit = FINDING_LIMIT,
): ChatMessage[] {
  // A system message in the conversation is a condensed summary of earlier turns: it stays.
  const history = conversation.filter((message) => message.role === 'user' || message.role === 'system' || (message.role === 'assistant' && message.content));
  if (findings.length === 0 && stopNote === undefined) {
    return [{ role: 'system', content: system(ANSWER_SYSTEM_PROMPT) }, ...history];
  }
  const body = findings
    .map((finding, index) => {
      const text = capResult(finding.text, findingLimit);
      return `[${index + 1}] ${finding.toolName}(${finding.arguments})${finding.isError ? ' FAILED' : ''}\n${text}`;
    })
    .join('\n\n');
  const context = [
    findings.length ? `Tool findings gathered for the user's last message:\n\n${body}` : 'No tool findings were gathered.',
    stopNote ? `\nNote: ${stopNote}` : '',
  ].join('');
  const answerInput: ChatMessage[] = [{ role: 'system', content: `${system(ANSWER_SYSTEM_PROMPT)}\n\n${context}` }, ...history];
  const images = imagesMessage(findings.map((finding) => ({ toolName: finding.toolName, images: finding.images ?? [] })));
  if (images) {
    answerInput.push(images);
    dropOlderImages(answerInput);
  }
  return answerInput;
}

/** One line per tool: name, parameters, first line of its description ({{tools}} in a template). */
export function toolList(tools: readonly ToolSchema[]): string {
  return tools.map((tool) => `- ${tool.name}(${parameterList(tool.parameters)}): ${firstLine(tool.description)}`).join('\n');
}

/** `path: string, startLine?: integer` — the envelope needs the names, types and which are required. */
export function parameterList(schema: Record<string, unknown>): string {
  const properties = (schema['properties'] ?? {}) as Record<string, { type?: unknown; enum?: unknown }>;
  const required = new Set(Array.isArray(schema['required']) ? (schema['required'] as unknown[]).map(String) : []);
  return Object.entries(properties)
    .map(([name, property]) => {
      const type = Array.isArray(property?.enum) ? property.enum.map((value) => JSON.stringify(value)).join(' | ') : Array.isArray(property?.type) ? property.type.join(' | ') : String(property?.type ?? 'any');
      return `${name}${required.has(name) ? '' : '?'}: ${type}`;
    })
    .join(', ');
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}
