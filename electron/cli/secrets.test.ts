// Secrets never leave in clear: a server that echoes the API key and the URL's signed query back in
// its error body, a URL with user:password, a secret header — none of it shows up in what probe,
// run or metrics print (text or --json), nor in the run file or its exports.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/cli.ts';
import { tmpDir } from '../testing/runs.ts';
import { looksSecretName, redactText, redactUrlString, urlSecrets } from '../../shared/redact.ts';

const KEY = 'sk-live-KEY123456789';
const SIG = 'SIGabcdef987654';
const PASS = 'hunter2-password';
const TEAM = 'team-token-55555555';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.jwt-payload';
/** What the engine sends for the URL's user:password, echoed back by the server. */
const BASIC = Buffer.from(`admin:${PASS}`).toString('base64');
const SECRETS = [KEY, SIG, PASS, TEAM, JWT, BASIC];
const dir = tmpDir('tokenscope-secrets-');
let srv: http.Server;
let port = 0;

beforeAll(async () => {
  srv = http.createServer((req, res) => {
    req.resume();
    // Everything a careless server could echo: the Authorization header, the whole URL, a header.
    const body = JSON.stringify({
      error: {
        message: `Invalid key ${String(req.headers.authorization)} for ${req.url} (team ${String(req.headers['x-team-token'])})`,
      },
    });
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  port = (srv.address() as AddressInfo).port;
});
afterAll(async () => {
  srv.closeAllConnections();
  await new Promise((r) => srv.close(r));
});

const url = (): string => `http://admin:${PASS}@127.0.0.1:${port}/v1?api_key=${SIG}&jwt=${JWT}`;
const clean = (where: string, text: string): void => {
  for (const s of SECRETS) expect(text, `${where} leaks ${s}`).not.toContain(s);
};

describe('secrets stay secret', () => {
  it('probe (text and --json): the server’s echo, the URL and the headers are redacted', async () => {
    for (const extra of [[], ['--json']]) {
      const r = await runCli([
        'probe',
        url(),
        '-m',
        'm',
        '--api-key',
        KEY,
        '-H',
        `X-Team-Token: ${TEAM}`,
        ...extra,
      ]);
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).toMatch(/401/);
      expect(r.stdout + r.stderr).toContain('***');
      clean(`probe ${extra.join(' ')}`, r.stdout + r.stderr);
    }
  });

  it('run: printed lines, --json, the run file and its exports, all created 0600', async () => {
    const out = path.join(dir, 'run.jsonl');
    // The key and a secret header, to a server that refuses them (401).
    const run = (file: string, ...extra: string[]) =>
      runCli(
        [
          'run',
          '--target',
          url(),
          '-m',
          'm',
          '-n',
          '2',
          '--api-key',
          KEY,
          '-H',
          `X-Team-Token: ${TEAM}`,
          '--out',
          file,
          ...extra,
        ],
        30_000,
      );
    const r = await run(out, '--json', '--no-test-request');
    expect(r.code).toBe(1); // every request failed: 401
    clean('run output', r.stdout + r.stderr);
    // With the test request (the default) the 401 stops it before a file exists; its words are clean too.
    const tested = path.join(dir, 'tested.jsonl');
    const t = await run(tested);
    expect(t.code).toBe(1);
    expect(t.stderr).toMatch(/test request failed, so the run did not start: HTTP 401/);
    clean('test request output', t.stdout + t.stderr);
    expect(existsSync(tested)).toBe(false);
    clean('run file', readFileSync(out, 'utf8'));
    expect(readFileSync(out, 'utf8')).toContain('jwt=***');
    const html = path.join(dir, 'report.html');
    const rep = await runCli(['report', out, '-o', html]);
    expect(rep.code, rep.stderr).toBe(0);
    clean('report output', rep.stdout + rep.stderr);
    clean('report', readFileSync(html, 'utf8'));
    expect(statSync(out).mode & 0o777).toBe(0o600);
    for (const f of readdirSync(dir)) expect(statSync(path.join(dir, f)).mode & 0o077, f).toBe(0);
  }, 120_000);

  it('probe without a key: the Basic credential built from the URL, echoed back, is redacted', async () => {
    for (const extra of [[], ['--json']]) {
      const r = await runCli(['probe', url(), '-m', 'm', ...extra]);
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).toMatch(/Invalid key Basic \*\*\*/);
      clean(`probe (Basic) ${extra.join(' ')}`, r.stdout + r.stderr);
    }
  });

  it('a URL that does not parse keeps its credentials out of the usage error', async () => {
    for (const bad of [`http://admin:${PASS}@127.0.0.1:99999/`, `http://admin:${PASS}@[::1/v1?jwt=${JWT}`]) {
      const r = await runCli(['probe', bad, '-m', 'm']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/is not a valid URL/);
      clean('usage error', r.stdout + r.stderr);
    }
  });

  it('redactUrlString and redactText (units)', () => {
    expect(redactUrlString(`https://u:${PASS}@h/x?api_key=${SIG}&model=m&sig=zz`)).toBe(
      'https://***:***@h/x?api_key=***&model=m&sig=***',
    );
    expect(redactText(`key ${KEY} and ${encodeURIComponent(KEY)} at https://h/?token=${SIG}`, [KEY])).toBe(
      'key *** and *** at https://h/?token=***',
    );
    expect(redactText('short k1 stays', ['k1'])).toBe('short k1 stays');
    expect(redactUrlString(`http://u:${PASS}@127.0.0.1:99999/x?jwt=${JWT}&n=1`)).toBe(
      'http://***@127.0.0.1:99999/x?jwt=***&n=1',
    );
    expect(redactText(`Basic ${BASIC}`, urlSecrets(url()))).toBe('Basic ***');
    for (const n of ['jwt', 'auth_token', 'oauth', 'X-Auth-Key', 'sas', 'passphrase'])
      expect(looksSecretName(n), n).toBe(true);
    for (const n of ['author', 'model', 'stream']) expect(looksSecretName(n), n).toBe(false);
  });

  it('a non-Latin-1 character in a key is a clean, classified error (no stack trace)', async () => {
    const r = await runCli([
      'probe',
      `http://127.0.0.1:${port}`,
      '-m',
      'm',
      '--api-key',
      'sk-“pasted”-123456',
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toMatch(
      /client\/invalid-request: The API key contains "“" \(U\+201C\) at position 4/,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
