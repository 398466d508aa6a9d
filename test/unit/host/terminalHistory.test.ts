// The `@ Terminal` item's memory of terminal commands, driven by fakes of VS
// Code's shell-integration events (their shapes: a start event with the
// terminal and its execution, an end event with the exit code, and
// `execution.read()`, a stream that only has what was written after it was
// first read). Ends are matched by execution; Tandem's own terminal is left
// out; the command is chosen when attached and read when sent; a long output
// is cut once, with one count of what was left out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type * as vscode from 'vscode';
import { terminalAttachment } from '../../../src/host/contextItems';
import { TerminalHistory, type TerminalEvents } from '../../../src/host/terminalHistory';
import { CONTEXT_ITEM_MAX_CHARS, omittedCharacters } from '../../../src/tools/contextContent';

class Emitter<T> {
  private readonly listeners = new Set<(event: T) => unknown>();
  readonly event = (listener: (event: T) => unknown): vscode.Disposable => {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  };
  fire(event: T): void {
    for (const listener of [...this.listeners]) listener(event);
  }
  get listenerCount(): number {
    return this.listeners.size;
  }
}

/** A command's execution: `read()` streams what is written after it was first called, until the command ends. */
class FakeExecution {
  readonly commandLine: { value: string; isTrusted: boolean; confidence: number };
  readonly cwd: { fsPath: string } | undefined;
  private readonly readers: { queue: string[]; wake?: () => void }[] = [];
  private ended = false;

  constructor(commandLine: string, cwd?: string) {
    this.commandLine = { value: commandLine, isTrusted: true, confidence: 2 };
    this.cwd = cwd === undefined ? undefined : { fsPath: cwd };
  }

  write(data: string): void {
    for (const reader of this.readers) {
      reader.queue.push(data);
      reader.wake?.();
    }
  }

  finish(): void {
    this.ended = true;
    for (const reader of this.readers) reader.wake?.();
  }

  read(): AsyncIterable<string> {
    const reader: { queue: string[]; wake?: () => void } = { queue: [] };
    this.readers.push(reader);
    const execution = this;
    return (async function* () {
      for (;;) {
        if (reader.queue.length > 0) yield reader.queue.shift()!;
        else if (execution.ended) return;
        else await new Promise<void>((resolve) => (reader.wake = resolve));
      }
    })();
  }
}

function fakeWindow() {
  const started = new Emitter<vscode.TerminalShellExecutionStartEvent>();
  const ended = new Emitter<vscode.TerminalShellExecutionEndEvent>();
  const closed = new Emitter<vscode.Terminal>();
  const window = {
    activeTerminal: undefined as vscode.Terminal | undefined,
    onDidStartTerminalShellExecution: started.event,
    onDidEndTerminalShellExecution: ended.event,
    onDidCloseTerminal: closed.event,
  } satisfies TerminalEvents;
  const terminal = (name: string) => ({ name }) as unknown as vscode.Terminal;
  const start = (on: vscode.Terminal, commandLine: string, cwd?: string) => {
    const execution = new FakeExecution(commandLine, cwd);
    started.fire({ terminal: on, shellIntegration: {} as vscode.TerminalShellIntegration, execution: execution as unknown as vscode.TerminalShellExecution });
    return execution;
  };
  const end = (on: vscode.Terminal, execution: FakeExecution, exitCode: number | undefined) => {
    execution.finish();
    ended.fire({ terminal: on, shellIntegration: {} as vscode.TerminalShellIntegration, execution: execution as unknown as vscode.TerminalShellExecution, exitCode });
  };
  return { window, terminal, start, end, close: (on: vscode.Terminal) => closed.fire(on), listeners: () => started.listenerCount + ended.listenerCount + closed.listenerCount };
}

/** Lets the history's reading loops take what was written. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
}

describe('terminal history', () => {
  it("a command's end is matched by its execution: two runs of the same command keep their own exit codes", async () => {
    const fake = fakeWindow();
    const history = new TerminalHistory(fake.window);
    const bash = fake.terminal('bash');

    const firstRun = fake.start(bash, 'npm test', '/work/app');
    firstRun.write('1 failing\n');
    await settle();
    const first = history.latest();
    assert.deepEqual(first?.read(), { terminal: 'bash', commandLine: 'npm test', cwd: '/work/app', exitCode: undefined, running: true, output: '1 failing\n' });
    fake.end(bash, firstRun, 1);
    await settle();
    assert.deepEqual([first?.read().running, first?.read().exitCode], [false, 1]);

    const secondRun = fake.start(bash, 'npm test', '/work/app');
    secondRun.write('all passing\n');
    await settle();
    const second = history.latest();
    assert.deepEqual([second?.read().output, second?.read().running, second?.read().exitCode], ['all passing\n', true, undefined]);
    // The first run's end, once more (late): same text, another execution; the second run is still going.
    fake.end(bash, firstRun, 1);
    assert.deepEqual([second?.read().running, second?.read().exitCode], [true, undefined]);
    fake.end(bash, secondRun, 0);
    assert.deepEqual([second?.read().running, second?.read().exitCode], [false, 0]);
    // The chip attached before the second run still names the first, with its own output and code.
    assert.deepEqual([first?.commandLine, first?.read().output, first?.read().exitCode], ['npm test', '1 failing\n', 1]);
    history.dispose();
  });

  it("an end whose command line reads differently from its start (VS Code may correct it at the end) still ends that command", async () => {
    const fake = fakeWindow();
    const history = new TerminalHistory(fake.window);
    const zsh = fake.terminal('zsh');
    const run = fake.start(zsh, 'make');
    run.commandLine.value = 'make test'; // as shell integration reported it once the command ended
    fake.end(zsh, run, 2);
    assert.deepEqual([history.latest()?.read().running, history.latest()?.read().exitCode], [false, 2]);
    history.dispose();
  });

  it("Tandem's own terminals are left out; a terminal merely named like it is not", async () => {
    const fake = fakeWindow();
    const history = new TerminalHistory(fake.window);
    const own = fake.terminal('Tandem');
    const ownInFolder = fake.terminal('Tandem: api');
    fake.start(own, 'npm run build').write('built\n');
    fake.start(ownInFolder, 'npm test').write('ok\n');
    await settle();
    assert.equal(history.latest(), undefined, 'what run_command ran is already in the conversation');
    fake.window.activeTerminal = own;
    assert.equal(history.latest(), undefined);

    const users = fake.terminal('Tandem dev server');
    fake.start(users, 'npm start');
    assert.equal(history.latest()?.commandLine, 'npm start', "the active terminal is Tandem's: the user's latest command");
    history.dispose();
  });

  it("the chip takes the active terminal's last command, else the latest command of any; a closed terminal is forgotten", async () => {
    const fake = fakeWindow();
    const history = new TerminalHistory(fake.window);
    const bash = fake.terminal('bash');
    const zsh = fake.terminal('zsh');
    const fish = fake.terminal('fish');
    assert.equal(history.latest(), undefined, 'nothing seen yet');

    fake.start(bash, 'git status');
    fake.start(zsh, 'cargo build');
    fake.start(bash, 'git log');
    fake.start(zsh, 'cargo test');
    assert.equal(history.latest()?.commandLine, 'cargo test', 'no active terminal: the command started last');
    fake.window.activeTerminal = bash;
    assert.equal(history.latest()?.commandLine, 'git log', "the active terminal's last command, though another started later");
    fake.window.activeTerminal = fish;
    assert.equal(history.latest()?.commandLine, 'cargo test', 'the active terminal ran nothing: the latest of any');

    fake.close(zsh);
    assert.equal(history.latest()?.commandLine, 'git log', 'closed: forgotten');
    fake.window.activeTerminal = bash;
    fake.close(bash);
    assert.equal(history.latest(), undefined);
    history.dispose();
  });

  it('chosen when attached, read when sent: a later command does not replace it, a running one gives what it printed by then', async () => {
    const fake = fakeWindow();
    const history = new TerminalHistory(fake.window);
    const bash = fake.terminal('bash');
    const other = fake.terminal('other');
    const build = fake.start(bash, 'npm run build');
    build.write('compiling\n');
    await settle();
    const chosen = history.latest();
    const item = terminalAttachment(chosen);
    assert.equal(item.label, '$ npm run build');
    build.write('\u001b[31merror\u001b[0m TS2304\r\n');
    await settle();
    fake.start(other, 'ls').write('a b\n');
    await settle();
    assert.equal(history.latest()?.commandLine, 'ls');
    const text = await item.read(new AbortController().signal);
    assert.equal(text, 'Attached terminal output: `npm run build`, in the "bash" terminal (still running):\n```\ncompiling\nerror TS2304\n```');
    history.dispose();
  });

  it('reads the stream from the start event on; once a newer command takes its place, the older stream is no longer read', async () => {
    const fake = fakeWindow();
    const history = new TerminalHistory(fake.window);
    const bash = fake.terminal('bash');
    const first = fake.start(bash, 'echo one');
    first.write('one\n'); // written right after the start event, before any await
    await settle();
    const chosen = history.latest();
    fake.end(bash, first, 0);
    const second = fake.start(bash, 'echo two');
    first.write('stray\n'); // the earlier stream after its end: not its output any more
    second.write('two\n');
    await settle();
    assert.equal(chosen?.read().output, 'one\n');
    assert.equal(history.latest()?.read().output, 'two\n');
    history.dispose();
  });

  it('a long output is cut once: within the item cap, its head and tail, one mark with the true count of characters left out', async () => {
    const fake = fakeWindow();
    const history = new TerminalHistory(fake.window);
    const bash = fake.terminal('bash');
    const run = fake.start(bash, 'npm test');
    let written = '';
    for (let index = 0; index < 40_000; index++) {
      const line = `test ${index} passed\n`;
      run.write(line);
      written += line;
    }
    await settle();
    fake.end(bash, run, 0);
    const output = history.latest()!.read().output;
    assert.ok(output.length <= CONTEXT_ITEM_MAX_CHARS, `${output.length} characters`);
    assert.ok(output.startsWith('test 0 passed\ntest 1 passed\n'), output.slice(0, 40));
    assert.ok(output.endsWith('test 39999 passed\n'), output.slice(-40));
    const marks = [...output.matchAll(/\n\[… (\d+) characters omitted …\]\n/gu)];
    assert.equal(marks.length, 1);
    const [mark] = marks;
    const shown = output.length - mark![0].length;
    assert.equal(Number(mark![1]), written.length - shown, 'no colour codes: the count is exact');
    // What is shown is the output's own head and tail, nothing rewritten.
    assert.ok(written.startsWith(output.slice(0, mark!.index)));
    assert.ok(written.endsWith(output.slice(mark!.index! + mark![0].length)));

    // The attached block does not cut it again: one mark, the same count.
    const block = await terminalAttachment(history.latest()).read(new AbortController().signal);
    assert.equal([...block.matchAll(/characters omitted/gu)].length, 1, 'cut once');
    assert.equal(omittedCharacters(block), Number(mark![1]));
    assert.ok(block.endsWith('test 39999 passed\n```'), block.slice(-40));
    history.dispose();
  });

  it('disposing stops listening and forgets every terminal', async () => {
    const fake = fakeWindow();
    const history = new TerminalHistory(fake.window);
    assert.equal(fake.listeners(), 3);
    fake.start(fake.terminal('bash'), 'ls');
    history.dispose();
    assert.equal(fake.listeners(), 0);
    assert.equal(history.latest(), undefined);
  });
});
