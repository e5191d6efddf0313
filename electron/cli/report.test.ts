/**
 * `tokenscope report` as a user runs it: real runs of the simulator (headless `tokenscope run`)
 * into one HTML file — self-contained (one inline script allowed by its hash, no URL to load
 * anything from; the only addresses from the run are its target's), with the run's own numbers
 * in it, and for two runs their comparison; bad input exits 2.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportData } from '../../shared/report/report-types.ts';
import { compareRows } from '../../shared/runs/compare/compare.ts';
import { readRunFile } from '../runs/files/run-file.ts';
import { startSim, type SimServer } from '../sim/index.ts';
import { runCli } from '../testing/cli.ts';
import { tmpDir } from '../testing/runs.ts';

const dir = tmpDir('tokenscope-report-');
const a = path.join(dir, 'a.jsonl');
const b = path.join(dir, 'b.jsonl');
const hostileName = 'eight </script><!-- at once';
let sim: SimServer;

/** What the page's own code does: the data element's text, parsed. */
function dataOf(html: string): ReportData {
  const m = /<script type="application\/json" id="tokenscope-report">([\s\S]*?)<\/script>/.exec(html);
  return JSON.parse(m![1]!) as ReportData;
}

beforeAll(async () => {
  sim = await startSim({ port: 0, decodeStepMs: 5, prefillMsPerToken: 0 });
  for (const [out, c, name] of [
    [a, '8', hostileName],
    [b, '2', 'two at once'],
  ] as const) {
    const r = await runCli(
      [
        'run',
        '--target',
        sim.url,
        '-n',
        '16',
        '-c',
        c,
        '--output-len',
        '24',
        '--name',
        name,
        '--out',
        out,
        '-q',
      ],
      40_000,
    );
    expect(r.code, r.stderr).toBe(0);
  }
}, 90_000);

afterAll(async () => {
  await sim.close();
});

describe('tokenscope report', () => {
  it('writes one self-contained page with the run in it', async () => {
    const out = path.join(dir, 'one.html');
    const r = await runCli(['report', a, '-o', out], 60_000);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Wrote .*one\.html \(1 run, [\d.]+ (KB|MB)\)/);
    const html = readFileSync(out, 'utf8');
    const size = Buffer.byteLength(html);
    expect(size).toBeLessThan(2_000_000);
    // One module script, inline, allowed by exactly its hash; nothing may load from anywhere.
    const scripts = [...html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    const hash = createHash('sha256').update(scripts[0]![1]!, 'utf8').digest('base64');
    expect(html).toContain(`script-src 'sha256-${hash}'`);
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|<img[^>]+src=["']?https?:/i);
    // The run's only address is its target's; any other http(s) text is the libraries' own
    // (XML namespace names, error-page links in messages), never loaded: see default-src above.
    const target = sim.url;
    const urls = [...html.matchAll(/https?:\/\/[^\s"'`<>\\)]+/g)].map((m) => m[0]);
    const fromRun = urls.filter((u) => u.includes('127.0.0.1'));
    expect(fromRun.length).toBeGreaterThan(0);
    for (const u of fromRun) expect(u.startsWith(target)).toBe(true);
    const known =
      /^https?:\/\/(www\.w3\.org|react\.dev|redux(-toolkit)?\.js\.org|json-schema\.org|bit\.ly|\[)/;
    expect(urls.filter((u) => !u.startsWith(target) && !known.test(u))).toEqual([]);
    // The run's numbers, its hostile name kept as text.
    const data = dataOf(html);
    const run = await readRunFile(a);
    if (!run.ok) throw new Error(run.error);
    expect(data.runs[0]!.summary).toEqual(run.value.summary);
    expect(data.runs[0]!.entry.name).toBe(hostileName);
    expect(html.match(/<\/script/gi)).toHaveLength(2);
    expect(data.comparison).toBeNull();
  });

  it('compares two runs as `compare --json` does', async () => {
    const out = path.join(dir, 'two.html');
    const r = await runCli(['report', a, b, '-o', out, '--same-within', '60'], 60_000);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/2 runs and their comparison/);
    const data = dataOf(readFileSync(out, 'utf8'));
    expect(data.runs.map((x) => x.entry.name)).toEqual([hostileName, 'two at once']);
    const c = data.comparison!;
    expect(c.labels.map((l) => l.label)).toEqual([hostileName, 'two at once']);
    const json = await runCli(['compare', a, b, '--json', '--same-within', '60']);
    const cmp = JSON.parse(json.stdout) as {
      rows: { metric: string; interval: unknown[]; verdict: unknown[] }[];
    };
    // The page computes its rows with the app's compareRows from what the report carries, with the
    // equivalence margin it was made with: the same intervals and verdicts as `compare`.
    expect(c.sameWithin).toBe(0.6);
    const rows = compareRows(c.summaries, new Map(c.intervals!), { sameWithin: c.sameWithin });
    expect(rows.map((x) => [x.def.id, x.ci])).toEqual(cmp.rows.map((x) => [x.metric, x.interval]));
    expect(rows.map((x) => x.verdict)).toEqual(cmp.rows.map((x) => x.verdict));
    expect(rows.some((x) => x.verdict.includes('same') && x.ci.some(Boolean))).toBe(true);
    expect(rows.filter((x) => x.ci.some(Boolean)).length).toBeGreaterThan(3);
  });

  it('exits 2 on a file that is not a run', async () => {
    const bad = path.join(dir, 'bad.jsonl');
    writeFileSync(bad, 'not a run\n');
    const r = await runCli(['report', bad, '-o', path.join(dir, 'x.html')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.jsonl/);
  });
});
