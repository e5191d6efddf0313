import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TargetStore, SIM_TARGET_ID } from './targets-service.ts';
import { MemorySecretBox, type SecretBox } from './secrets.ts';

// Stands in for safeStorage: reversible, and visibly not the plain text.
const fakeOsBox: SecretBox = {
  canPersist: true,
  encrypt: (p) => 'enc:' + Buffer.from([...p].reverse().join('')).toString('base64'),
  decrypt: (s) => [...Buffer.from(s.slice(4), 'base64').toString()].reverse().join(''),
};

const tmp = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ts-targets-')), 'targets.json');

describe('target store', () => {
  it('persists targets, encrypts keys at rest, and resolves them only in the core', () => {
    const file = tmp();
    const s = new TargetStore(file, fakeOsBox);
    const v = s.save({
      name: 'gpu',
      baseUrl: 'http://10.0.0.1:8000',
      dialect: 'openai-chat',
      apiKey: 'sk-live-abc',
    });
    expect(v.hasApiKey).toBe(true);
    expect(JSON.stringify(v)).not.toContain('sk-live-abc');
    const onDisk = fs.readFileSync(file, 'utf8');
    expect(onDisk).not.toContain('sk-live-abc');
    expect(onDisk).toContain('enc:');
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
    const reopened = new TargetStore(file, fakeOsBox);
    expect(reopened.resolve(v.id)?.apiKey).toBe('sk-live-abc');
    // editing without apiKey keeps it; '' clears it
    reopened.save({ id: v.id, name: 'gpu2', baseUrl: 'http://10.0.0.1:8000', dialect: 'openai-chat' });
    expect(reopened.resolve(v.id)?.apiKey).toBe('sk-live-abc');
    reopened.save({
      id: v.id,
      name: 'gpu2',
      baseUrl: 'http://10.0.0.1:8000',
      dialect: 'openai-chat',
      apiKey: '',
    });
    expect(reopened.resolve(v.id)?.apiKey).toBeUndefined();
  });

  it('without OS encryption keeps keys in memory only', () => {
    const file = tmp();
    const s = new TargetStore(file, new MemorySecretBox());
    const v = s.save({ name: 'x', baseUrl: 'http://127.0.0.1:1', dialect: 'tgi', apiKey: 'hf_secret' });
    expect(fs.readFileSync(file, 'utf8')).not.toContain('hf_secret');
    expect(fs.readFileSync(file, 'utf8')).not.toContain('apiKeyEnc');
    expect(s.resolve(v.id)?.apiKey).toBe('hf_secret');
    expect(new TargetStore(file, new MemorySecretBox()).resolve(v.id)?.apiKey).toBeUndefined();
  });

  it('lists the built-in simulator first and refuses to edit it; a corrupt file is reported, not fatal', () => {
    const file = tmp();
    fs.writeFileSync(file, '{not json');
    const s = new TargetStore(file, new MemorySecretBox());
    expect(s.loadError).toMatch(/unreadable/);
    s.simUrl = 'http://127.0.0.1:1234';
    expect(s.list()[0]).toMatchObject({ id: SIM_TARGET_ID, builtin: true, baseUrl: 'http://127.0.0.1:1234' });
    expect(() => s.save({ id: SIM_TARGET_ID, name: 'x', baseUrl: 'http://a', dialect: 'tgi' })).toThrow(
      /cannot be edited/,
    );
  });
});

describe('secret headers, keys that do not follow a target elsewhere', () => {
  const base = { name: 'gpu', baseUrl: 'http://10.0.0.1:8000', dialect: 'openai-chat' as const };

  it('secret headers (marked, or named like one) are stored encrypted and never shown again', () => {
    const file = tmp();
    const s = new TargetStore(file, fakeOsBox);
    const v = s.save({
      ...base,
      headers: { 'X-Team': 'infra', 'X-Api-Key': 'xkey-12345678' },
      secretHeaders: [{ name: 'X-Session-Id', value: 'sess-abcdefgh' }],
    });
    expect(v.headers).toEqual({ 'X-Team': 'infra' });
    expect(v.secretHeaderNames).toEqual(['X-Api-Key', 'X-Session-Id']);
    const shown = JSON.stringify([v, s.list()]);
    const onDisk = fs.readFileSync(file, 'utf8');
    for (const secret of ['xkey-12345678', 'sess-abcdefgh']) {
      expect(shown).not.toContain(secret);
      expect(onDisk).not.toContain(secret);
    }
    const r = new TargetStore(file, fakeOsBox).resolve(v.id)!;
    expect(r.headers).toEqual({
      'X-Team': 'infra',
      'X-Api-Key': 'xkey-12345678',
      'X-Session-Id': 'sess-abcdefgh',
    });
    // Saving again without values keeps them; leaving a name out removes it.
    s.save({ ...base, id: v.id, secretHeaders: [{ name: 'X-Api-Key' }] });
    expect(s.resolve(v.id)!.headers).toEqual({ 'X-Api-Key': 'xkey-12345678' });
  });

  it('a new host drops the key and secret headers unless the user says to keep them', () => {
    const s = new TargetStore(null, new MemorySecretBox());
    const v = s.save({
      ...base,
      apiKey: 'sk-for-gpu-one',
      secretHeaders: [{ name: 'X-Sig', value: 'sig-12345678' }],
    });
    // The same server (another path): kept.
    s.save({ ...base, id: v.id, baseUrl: 'http://10.0.0.1:8000/v1' });
    expect(s.resolve(v.id)!.apiKey).toBe('sk-for-gpu-one');
    // Another host, kept on purpose.
    s.save({ ...base, id: v.id, baseUrl: 'http://10.0.0.2:8000', keepApiKey: true });
    expect(s.resolve(v.id)!.apiKey).toBe('sk-for-gpu-one');
    expect(s.resolve(v.id)!.headers['X-Sig']).toBe('sig-12345678');
    // Another host, not said: dropped.
    const moved = s.save({ ...base, id: v.id, baseUrl: 'https://elsewhere.example' });
    expect(moved.hasApiKey).toBe(false);
    expect(moved.secretHeaderNames).toEqual([]);
    expect(s.resolve(v.id)!.apiKey).toBeUndefined();
  });
});

describe('URL secrets in targets (credentials, secret query values)', () => {
  const BASE = 'http://alice:pw-SECRET-1@10.0.0.9:8000/v1?api_key=AK-SECRET-2&jwt=JWT-SECRET-3&model=m';
  const SECRETS = ['pw-SECRET-1', 'AK-SECRET-2', 'JWT-SECRET-3'];
  const clean = (where: string, text: string): void => {
    for (const x of SECRETS) expect(text, `${where} leaks ${x}`).not.toContain(x);
  };

  it('are stored encrypted, shown as ***, joined back for the engine; *** in an edit keeps them', () => {
    const file = tmp();
    const s = new TargetStore(file, fakeOsBox);
    const v = s.save({
      name: 'gw',
      baseUrl: BASE,
      dialect: 'openai-chat',
      metricsUrl: 'https://m:pw-SECRET-1@10.0.0.9:9000/metrics',
      telemetryUrls: ['http://10.0.0.9:9400/metrics?token=AK-SECRET-2'],
    });
    expect(v.baseUrl).toBe('http://***:***@10.0.0.9:8000/v1?api_key=***&jwt=***&model=m');
    clean('view', JSON.stringify(s.list()));
    clean('file', fs.readFileSync(file, 'utf8'));
    expect(fs.readFileSync(file, 'utf8')).toContain('urlSecretsEnc');
    const reopened = new TargetStore(file, fakeOsBox);
    const r = reopened.resolve(v.id)!;
    expect(r.baseUrl).toBe(
      'http://alice:pw-SECRET-1@10.0.0.9:8000/v1?api_key=AK-SECRET-2&jwt=JWT-SECRET-3&model=m',
    );
    expect(r.metricsUrl).toBe('https://m:pw-SECRET-1@10.0.0.9:9000/metrics');
    expect(r.telemetryUrls).toEqual(['http://10.0.0.9:9400/metrics?token=AK-SECRET-2']);
    // The form sends back what it was shown: the secrets stay; a new value replaces one.
    reopened.save({
      id: v.id,
      name: 'gw',
      baseUrl: v.baseUrl.replace('jwt=***', 'jwt=NEW-JWT-4'),
      dialect: 'openai-chat',
    });
    expect(reopened.resolve(v.id)!.baseUrl).toBe(
      'http://alice:pw-SECRET-1@10.0.0.9:8000/v1?api_key=AK-SECRET-2&jwt=NEW-JWT-4&model=m',
    );
    expect(fs.readFileSync(file, 'utf8')).not.toContain('NEW-JWT-4');
    // Moved to another host, a placeholder has nothing behind it: nothing follows the URL there.
    reopened.save({
      id: v.id,
      name: 'gw',
      baseUrl: v.baseUrl.replace('10.0.0.9', '10.0.0.10'),
      dialect: 'openai-chat',
    });
    const moved = reopened.resolve(v.id)!.baseUrl;
    expect(moved).toBe('http://10.0.0.10:8000/v1?model=m');
  });

  it('without OS encryption (web mode) they stay in memory; an old file with them in clear is rewritten', () => {
    const file = tmp();
    const s = new TargetStore(file, new MemorySecretBox());
    const v = s.save({ name: 'gw', baseUrl: BASE, dialect: 'openai-chat' });
    clean('file', fs.readFileSync(file, 'utf8'));
    clean('list', JSON.stringify(s.list()));
    expect(s.resolve(v.id)!.baseUrl).toContain('pw-SECRET-1');
    const old = tmp();
    fs.writeFileSync(
      old,
      JSON.stringify({
        version: 1,
        targets: [{ id: 'a', name: 'old', baseUrl: BASE, dialect: 'openai-chat' }],
      }),
    );
    const box = new MemorySecretBox();
    const o = new TargetStore(old, box);
    clean('rewritten file', fs.readFileSync(old, 'utf8'));
    clean('list', JSON.stringify(o.list()));
    expect(o.resolve('a')!.baseUrl).toContain('JWT-SECRET-3');
    const sealed = tmp();
    fs.writeFileSync(
      sealed,
      JSON.stringify({
        version: 1,
        targets: [{ id: 'b', name: 'old', baseUrl: BASE, dialect: 'openai-chat' }],
      }),
    );
    const enc = new TargetStore(sealed, fakeOsBox);
    clean('sealed file', fs.readFileSync(sealed, 'utf8'));
    expect(new TargetStore(sealed, fakeOsBox).resolve('b')!.baseUrl).toContain('AK-SECRET-2');
    expect(enc.list()[0]!.baseUrl).toContain('***');
  });

  it('only http(s) URLs are saved: file: and javascript: are refused with a clear error', () => {
    const file = tmp();
    const s = new TargetStore(file, fakeOsBox);
    for (const bad of ['file:///etc/passwd', 'javascript:alert(1)', 'data:text/plain,x']) {
      expect(() => s.save({ name: 'x', baseUrl: bad, dialect: 'openai-chat' })).toThrow(
        /only http:\/\/ and https:\/\/ URLs/,
      );
      expect(() =>
        s.save({ name: 'x', baseUrl: 'http://h', metricsUrl: bad, dialect: 'openai-chat' }),
      ).toThrow(/only http/);
    }
    expect(s.list()).toEqual([]);
    expect(fs.existsSync(file)).toBe(false);
  });
});
