// Arguments in the wrong JSON type: fields the schema declares as an array,
// object, number or boolean sent as strings are taken as what they plainly
// say, and so is an arguments object encoded twice; anything doubtful is left
// for the tool to refuse. Then a run through the real loop, SDK and scripted
// server with the real workspace tools: an edit whose `edits` came as a JSON
// string and a read whose lines came in quotes both work in one round.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { repairArguments } from '../../../src/agent/argumentRepair';
import { runScripted, settingsFor, toolStatuses } from './agentTestSupport';
import { perTestWorkspace, type Kit } from '../tools/workspaceTestKit';

const schema = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    edits: { type: 'array', items: { type: 'object' } },
    options: { type: 'object' },
    startLine: { type: 'integer' },
    ratio: { type: 'number' },
    replaceAll: { type: 'boolean' },
    note: { type: ['string', 'array'] },
    maybe: { type: ['array', 'null'] },
    loose: {},
  },
};

describe('repairArguments', () => {
  it('takes fields sent as strings of their declared type', () => {
    const { value, repaired } = repairArguments(
      { path: '[1]', edits: ' [{"oldText":"a","newText":"b"}] ', options: '{"x":1}', startLine: '10', ratio: '-0.5', replaceAll: 'true', maybe: '[2]' },
      schema,
    );
    assert.deepEqual(value, { path: '[1]', edits: [{ oldText: 'a', newText: 'b' }], options: { x: 1 }, startLine: 10, ratio: -0.5, replaceAll: true, maybe: [2] });
    assert.deepEqual(repaired, ['edits', 'options', 'startLine', 'ratio', 'replaceAll', 'maybe']);
  });

  it('leaves alone what a string may mean, or what is no clean value of the type', () => {
    const given = { path: '10', note: '[1]', loose: '[1]', startLine: '1.5', ratio: '1e3', replaceAll: 'yes', edits: '{"oldText":"a"}', options: '[1]' };
    const { value, repaired } = repairArguments(given, schema);
    assert.deepEqual(value, given);
    assert.deepEqual(repaired, []);
    assert.equal(repairArguments({ startLine: '' }, schema).repaired.length, 0);
    assert.equal(repairArguments({ startLine: '10 lines' }, schema).repaired.length, 0);
    assert.equal(repairArguments({ edits: 'not json' }, schema).repaired.length, 0);
  });

  it('takes an arguments object encoded twice, and nothing else in its place', () => {
    assert.deepEqual(repairArguments('{"path":"a.ts","startLine":"3"}', schema), { value: { path: 'a.ts', startLine: 3 }, repaired: ['', 'startLine'] });
    assert.deepEqual(repairArguments('[1]', schema), { value: '[1]', repaired: [] });
    assert.deepEqual(repairArguments('plain', schema), { value: 'plain', repaired: [] });
  });
});

const each = perTestWorkspace();

describe('a model that sends arguments as strings', () => {
  it('gets its edit and its read done, not refused', async () => {
    const kit = each.kit();
    writeFileSync(path.join(kit.root, 'a.txt'), 'one\ntwo\nthree\n');
    const server = await each.serve({
      turns: [
        {
          model: 'fc-model',
          toolCalls: [
            { id: 'edit', name: 'edit_file', arguments: { path: 'a.txt', edits: JSON.stringify([{ oldText: 'two', newText: 'TWO' }]) } },
            // The wire's arguments string is a JSON string holding the object: encoded twice.
            { id: 'read', name: 'read_file', arguments: JSON.stringify(JSON.stringify({ path: 'a.txt', startLine: '2', endLine: '2' })) },
          ],
        },
        { model: 'fc-model', content: 'Done.' },
        { model: 'answer-model', content: 'Edited.' },
      ],
    });
    const logged: string[] = [];
    const run = await runScripted(settingsFor(server), { tools: kit.tools, approve: () => true, log: (line) => logged.push(line) });
    assert.equal(run.error, undefined);
    assert.deepEqual(toolStatuses(run.events).map((status) => status.status), ['done', 'done']);
    assert.equal(readFileSync(path.join(kit.root, 'a.txt'), 'utf8'), 'one\nTWO\nthree\n');
    const results = (server.requests[1]?.messages ?? []).filter((message: { role: string }) => message.role === 'tool').map((message: { content: string }) => message.content);
    assert.match(results[1] ?? '', /TWO/, 'the read ran after the edit, on line 2 alone');
    assert.doesNotMatch(results[1] ?? '', /three/);
    assert.ok(logged.some((line) => line.includes('tool edit_file: took edits from a JSON string')), logged.join('\n'));
    assert.ok(logged.some((line) => line.includes('tool read_file: took the arguments, startLine, endLine from a JSON string')), logged.join('\n'));
  });
});
