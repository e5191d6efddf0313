// Terminal injection: a hostile server puts escape sequences into everything the CLI may print —
// streamed text, an in-band error, an HTTP error body, the model names of /v1/models, metric
// names, help and label values of /metrics — and a run file carries them into `compare` and
// `report`. No raw ESC, BEL, CSI (C1 0x9b), DEL or lone CR reaches stdout or stderr of any command;
// the text still shows, its control characters written out as visible escapes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../testing/cli.ts';
import { tmpDir } from '../testing/runs.ts';
import { neutralizeControls } from '../../shared/terminal-text.ts';

/** Retitle, clear the screen, a hidden OSC 8 link, overwrite the line, a C1 CSI and DEL. */
const EVIL = 'A\x1b]0;pwned\x07B\x1b[2JC\x1b]8;;http://evil.test/\x07link\x1b]8;;\x07D\r\x1b[KE\x9b31mF\x7f';
const dir = tmpDir('tokenscope-escapes-');
let srv: http.Server;
let base = '';

function sse(res: http.ServerResponse, chunks: unknown[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const c of chunks) res.write(`data: ${JSON.stringify(c)}\n\n`);
  res.end('data: [DONE]\n\n');
}

const delta = (content: string) => ({
  id: 'x',
  object: 'chat.completion.chunk',
  model: EVIL,
  choices: [{ index: 0, delta: { content } }],
});

beforeAll(async () => {
  srv = http.createServer((req, res) => {
    req.resume();
    const u = req.url ?? '';
    if (u.endsWith('/v1/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: `model-${EVIL}`, object: 'model' }] }));
    } else if (u.endsWith('/metrics')) {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
      res.end(
        `# HELP vllm:num_requests_running Running ${EVIL}\n# TYPE vllm:num_requests_running gauge\n` +
          `vllm:num_requests_running{model_name="${EVIL}"} 3\n` +
          `vllm:num_requests_waiting{model_name="${EVIL}"} 1\n` +
          // Lines that do not parse are quoted in the report.
          `bad${EVIL}name 1\nfoo{x="${EVIL}" 2\n`,
      );
    } else if (u.startsWith('/stream')) sse(res, [delta('Hello '), delta(EVIL), delta(' bye')]);
    else if (u.startsWith('/inband'))
      sse(res, [delta('Hi'), { error: { message: `overloaded ${EVIL}`, code: 500 } }]);
    else {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `boom ${EVIL}` } }) + EVIL);
    }
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
});
afterAll(async () => {
  srv.closeAllConnections();
  await new Promise((r) => srv.close(r));
});

/** No control character but \t, \n and CR LF in what the process printed. */
function expectInert(where: string, r: CliRun): void {
  for (const [name, text] of [
    ['stdout', r.stdout],
    ['stderr', r.stderr],
  ] as const) {
    // eslint-disable-next-line no-control-regex -- looking for raw control characters is the test
    const raw = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)/.exec(text);
    expect(
      raw,
      `${where} ${name}: raw U+${raw?.[0].charCodeAt(0).toString(16)} in ${JSON.stringify(text.slice(0, 400))}`,
    ).toBeNull();
  }
}

describe('no terminal injection from server text', () => {
  it('neutralizeControls (unit): every control but tab, newline and CR LF becomes a visible escape', () => {
    expect(neutralizeControls(EVIL)).toBe(
      'A\\u001b]0;pwned\\u0007B\\u001b[2JC\\u001b]8;;http://evil.test/\\u0007link\\u001b]8;;\\u0007D\\r\\u001b[KE\\u009b31mF\\u007f',
    );
    expect(neutralizeControls('a\tb\nc\r\nd')).toBe('a\tb\nc\r\nd');
    expect(neutralizeControls('ends\r')).toBe('ends\\r');
    // In JSON the spelling is a valid escape that parses back to the same text.
    const json = neutralizeControls(JSON.stringify({ t: EVIL }));
    expect((JSON.parse(json) as { t: string }).t).toBe(EVIL);
  });

  it('probe: streamed text, model from /v1/models, in-band error, HTTP error body (text, --raw, --json)', async () => {
    for (const path of ['stream', 'inband', 'http'])
      for (const extra of [[], ['--raw'], ['--json']]) {
        const r = await runCli(['probe', `${base}/${path}`, '--io-threads', '0', ...extra]);
        expect(r.code, `${path} ${extra.join(' ')}: ${r.stderr}`).toBe(path === 'stream' ? 0 : 1);
        expectInert(`probe ${path} ${extra.join(' ')}`, r);
        if (extra[0] === '--json') JSON.parse(r.stdout);
        else expect(r.stdout + r.stderr).toContain('\\u001b]0;pwned\\u0007');
      }
  }, 180_000);

  it('probe with two servers side by side', async () => {
    const r = await runCli(['probe', `${base}/stream`, `${base}/inband`, '-m', EVIL, '--io-threads', '0']);
    expectInert('probe A B', r);
  });

  it('run: the test request’s error, then the failure examples and the summary (text and --json)', async () => {
    const tested = await runCli(
      ['run', '--target', `${base}/inband`, '-n', '2', '--out', path.join(dir, 't.jsonl')],
      30_000,
    );
    expect(tested.code).toBe(1);
    expect(tested.stderr).toMatch(/test request failed/);
    expectInert('run test request', tested);
    for (const extra of [[], ['--json']]) {
      const out = path.join(dir, `r${extra.length}.jsonl`);
      const r = await runCli(
        ['run', '--target', `${base}/http`, '-n', '2', '--no-test-request', '--out', out, ...extra],
        30_000,
      );
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).toContain('boom');
      expectInert(`run ${extra.join(' ')}`, r);
    }
  }, 120_000);

  it('sweep: the test request’s error, and steps whose every request failed (text and --json)', async () => {
    const tested = await runCli(
      ['sweep', '--target', `${base}/inband`, '--rate', '1', '-n', '1', '--out', path.join(dir, 's.json')],
      30_000,
    );
    expect(tested.code).not.toBe(0);
    expect(tested.stdout + tested.stderr).toContain('overloaded');
    expectInert('sweep test request', tested);
    for (const extra of [[], ['--json']]) {
      const r = await runCli(
        ['sweep', '--target', `${base}/http`, '--concurrency', '1', '-n', '2', '--no-test-request'].concat(
          ['--out', path.join(dir, `s${extra.length}.json`)],
          extra,
        ),
        60_000,
      );
      expect(r.code).toBe(1);
      // The model the server listed (escapes and all) is named in what the sweep prints.
      expect(r.stdout + r.stderr).toContain('model-A');
      expectInert(`sweep ${extra.join(' ')}`, r);
    }
  }, 150_000);

  it('metrics: metric help, label values and model names (text and --json)', async () => {
    for (const extra of [[], ['--json']]) {
      const r = await runCli(['metrics', base, ...extra]);
      expect(r.code, r.stderr).toBe(0);
      expectInert(`metrics ${extra.join(' ')}`, r);
    }
  }, 60_000);

  it('compare and report: a run file whose model and errors carry escapes', async () => {
    const out = path.join(dir, 'c.jsonl');
    const made = await runCli(
      ['run', '--target', `${base}/stream`, '-n', '3', '--no-test-request', '--out', out],
      30_000,
    );
    expect(made.code, made.stderr).toBe(0);
    expectInert('run (stream)', made);
    // The file keeps what the server said (it is data); the terminal gets it neutralised.
    expect(readFileSync(out, 'utf8')).toContain('\\u001b]0;pwned');
    const b = path.join(dir, 'c2.jsonl');
    writeFileSync(b, readFileSync(out, 'utf8'));
    for (const args of [
      ['compare', out, b],
      ['compare', out, b, '--json'],
      ['compare', out, b, '--format', 'markdown'],
      ['report', out, '-o', path.join(dir, 'r.html')],
    ]) {
      const r = await runCli(args);
      expectInert(args.join(' '), r);
    }
  }, 120_000);
});
