// What the endpoint refuses, tried from outside the code with plain fetch:
// no or wrong token, a foreign origin, a foreign Host, a malformed or
// oversized body, the wrong route; and a client that leaves stops the run.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { it } from 'node:test';
import { runInput, sseEvents, startEndpoint, TOKEN } from './agUiTestSupport';

async function errorOf(response: Response): Promise<{ error: string; field?: string }> {
  assert.equal(response.headers.get('content-type'), 'application/json');
  return (await response.json()) as { error: string; field?: string };
}

it('refuses a missing or wrong token with 401, before reading the run', async () => {
  const endpoint = await startEndpoint();
  const missing = await fetch(endpoint.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(runInput()) });
  assert.equal(missing.status, 401);
  assert.match(String(missing.headers.get('www-authenticate')), /^Bearer/);
  assert.match((await errorOf(missing)).error, /Missing bearer token/);
  const wrong = await endpoint.post(runInput(), { authorization: 'Bearer not-the-token' });
  assert.equal(wrong.status, 401);
  assert.match((await errorOf(wrong)).error, /Wrong bearer token/);
  assert.equal(endpoint.model.requests.length, 0);
});

it('allows CORS only for the configured origins', async () => {
  const endpoint = await startEndpoint({ allowedOrigins: ['http://localhost:3000'], settings: { mode: 'chat' }, turns: [{ model: 'answer-model', content: 'From the browser.' }] });
  const foreign = await endpoint.post(runInput(), { origin: 'https://evil.example' });
  assert.equal(foreign.status, 403);
  assert.match((await errorOf(foreign)).error, /not allowed/);
  assert.equal(foreign.headers.get('access-control-allow-origin'), null);

  const preflight = await fetch(endpoint.url, {
    method: 'OPTIONS',
    headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, x-client-id' },
  });
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get('access-control-allow-origin'), 'http://localhost:3000');
  assert.equal(preflight.headers.get('access-control-allow-headers'), 'authorization, content-type, x-client-id');
  const foreignPreflight = await fetch(endpoint.url, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } });
  assert.equal(foreignPreflight.status, 403);

  const allowed = await endpoint.post(runInput(), { origin: 'http://localhost:3000' });
  assert.equal(allowed.status, 200);
  assert.equal(allowed.headers.get('access-control-allow-origin'), 'http://localhost:3000');
  assert.equal((await sseEvents(allowed)).at(-1)?.result?.answer, 'From the browser.');
});

it('refuses a Host that is not a loopback name (DNS rebinding)', async () => {
  const endpoint = await startEndpoint();
  const url = new URL(endpoint.url);
  const status = await new Promise<number>((resolve, reject) => {
    const outgoing = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { host: 'attacker.example', authorization: `Bearer ${TOKEN}` } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    outgoing.on('error', reject);
    outgoing.end('{}');
  });
  assert.equal(status, 403);
});

it('refuses a malformed body with 400 naming the field', async () => {
  const endpoint = await startEndpoint();
  const notJson = await endpoint.post('{"threadId": ');
  assert.equal(notJson.status, 400);
  assert.match((await errorOf(notJson)).error, /not JSON/);

  const noThread = await endpoint.post({ runId: 'r', messages: [] });
  assert.equal(noThread.status, 400);
  const fault = await errorOf(noThread);
  assert.equal(fault.field, 'threadId');
  assert.match(fault.error, /threadId/);

  const badMessage = await endpoint.post(runInput({ messages: [{ id: 'u1', role: 'user' } as never] }));
  assert.equal(badMessage.status, 400);
  assert.match(String((await errorOf(badMessage)).field), /^messages\.0/);

  const badTool = await endpoint.post(runInput({ tools: [{ name: 'read_file', description: 'mine', parameters: {} }] }));
  assert.equal(badTool.status, 400);
  assert.equal((await errorOf(badTool)).field, 'tools.0.name');
  assert.equal(endpoint.model.requests.length, 0);
});

it('refuses an oversized body with 413 and answers only POST on /agui', async () => {
  const endpoint = await startEndpoint({ maxBodyBytes: 64 * 1024 });
  const huge = runInput({ messages: [{ id: 'u1', role: 'user', content: 'x'.repeat(200 * 1024) }] });
  const oversized = await endpoint.post(huge);
  assert.equal(oversized.status, 413);
  assert.match((await errorOf(oversized)).error, /over 65536 bytes/);

  const get = await fetch(endpoint.url, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(get.status, 405);
  assert.equal(get.headers.get('allow'), 'POST, OPTIONS');
  const elsewhere = await fetch(endpoint.url.replace('/agui', '/other'), { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: '{}' });
  assert.equal(elsewhere.status, 404);
  assert.equal(endpoint.model.requests.length, 0);
});

it('stops the run, and its model request, when the client goes away', async () => {
  const endpoint = await startEndpoint({ turns: [{ model: 'fc-model', content: 'word '.repeat(200), chunkDelayMs: 20 }] });
  const controller = new AbortController();
  const response = await fetch(endpoint.url, {
    method: 'POST',
    signal: controller.signal,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(runInput()),
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let received = '';
  while (!received.includes('REASONING_MESSAGE_CONTENT')) {
    const chunk = await reader.read();
    assert.equal(chunk.done, false, 'the stream went on until the client left');
    received += decoder.decode(chunk.value, { stream: true });
  }
  assert.match(received, /^data: \{"type":"RUN_STARTED"/);
  controller.abort();
  await endpoint.model.idle();
  assert.equal(endpoint.model.requests[0]?.outcome, 'client-closed', 'the model stream was closed too');
  assert.equal(endpoint.model.requests.length, 1, 'no answer phase ran after the client left');
});

it('a run with nothing to answer ends with RUN_ERROR NO_MESSAGES before a model is asked', async () => {
  const endpoint = await startEndpoint({ turns: [{ model: 'fc-model', content: 'Hello?' }] });
  const events = await sseEvents(await endpoint.post(runInput({ threadId: 'empty', messages: [] })));
  assert.deepEqual(
    events.map((event) => [event.type, event.code]),
    [
      ['RUN_STARTED', undefined],
      ['STATE_SNAPSHOT', undefined],
      ['RUN_ERROR', 'NO_MESSAGES'],
    ],
  );
  assert.match(events.at(-1)?.message, /has no messages: send the user's message in "messages"/);
  assert.equal(endpoint.model.requests.length, 0);
});

it("the new message's inline image goes to the model as a picture; other media, and images by URL, are said to be left out in their place", async () => {
  const endpoint = await startEndpoint({ settings: { mode: 'chat' }, turns: [{ model: 'answer-model', content: 'A tiny black picture.' }, { model: 'answer-model', content: 'Still tiny.' }] });
  // A real 2×3 PNG.
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAIAAAA2iEnWAAAAC0lEQVR4nGNgwAIAABUAAapll8QAAAAASUVORK5CYII=';
  const question = {
    id: 'u1',
    role: 'user',
    content: [
      { type: 'text', text: 'What is in this picture?' },
      { type: 'image', source: { type: 'data', value: png, mimeType: 'image/jpeg' } },
      { type: 'image', source: { type: 'url', value: 'https://example.com/cat.png' } },
      { type: 'audio', source: { type: 'data', value: 'AAAA', mimeType: 'audio/wav' } },
    ],
  };
  const events = await sseEvents(await endpoint.post(runInput({ threadId: 'image', messages: [question] as never })));
  assert.equal(events.at(-1)?.type, 'RUN_FINISHED');
  const sent = endpoint.model.requests[0]!.messages.filter((message: { role: string }) => message.role === 'user').at(-1)?.content as { type: string; text?: string; image_url?: { url: string } }[];
  assert.deepEqual(sent.map((part) => part.type), ['text', 'image_url']);
  assert.equal(sent[1]?.image_url?.url, `data:image/png;base64,${png}`, 'its type is what its bytes are');
  assert.equal(
    sent[0]?.text,
    'What is in this picture?\n[Image 1 (PNG image, 68 bytes, 2×3) attached by the client: the models get it as a picture with this message, for this run.]\n' +
      '\n[An image was attached here; Tandem takes images as inline data only, so it is left out.]\n' +
      '\n[An audio (audio/wav) was attached here; Tandem gives the model text and images only, so it is left out.]\n',
  );
  // The next turn keeps the line, not the picture.
  const next = await sseEvents(await endpoint.post(runInput({ threadId: 'image', messages: [{ id: 'u2', role: 'user', content: 'And now?' }] })));
  assert.equal(next.at(-1)?.type, 'RUN_FINISHED');
  const later = JSON.stringify(endpoint.model.requests[1]!.messages);
  assert.doesNotMatch(later, /image_url/);
  assert.match(later, /Image 1 \(PNG image, 68 bytes, 2×3\) attached by the client/);
});
