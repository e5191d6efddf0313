/**
 * Test helper: a real Prometheus server (Debian package `prometheus`, binary /usr/bin/prometheus)
 * on 127.0.0.1, with its own config and TSDB in a temp dir, scraping the given targets every
 * second. A missing binary is an error, not a skip: the fleet source is only proven against the
 * real thing. PROMETHEUS_BIN overrides the path.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { closedPort } from './cli.ts';

const PROMETHEUS_BIN = process.env.PROMETHEUS_BIN ?? '/usr/bin/prometheus';

export interface PrometheusHandle {
  url: string;
  logs(): string;
  stop(): Promise<void>;
}

export interface ScrapeJob {
  job: string;
  /** host:port */
  target: string;
}

function config(jobs: readonly ScrapeJob[]): string {
  const lines = [
    'global:',
    '  scrape_interval: 1s',
    '  scrape_timeout: 1s',
    '  evaluation_interval: 1s',
    'scrape_configs:',
  ];
  for (const j of jobs) {
    lines.push(
      `  - job_name: ${JSON.stringify(j.job)}`,
      '    static_configs:',
      `      - targets: [${JSON.stringify(j.target)}]`,
    );
  }
  return lines.join('\n') + '\n';
}

/** Starts Prometheus and resolves once it answers /-/ready (at most `readyTimeoutMs`). */
export async function startPrometheus(
  jobs: readonly ScrapeJob[],
  readyTimeoutMs = 30_000,
): Promise<PrometheusHandle> {
  if (!existsSync(PROMETHEUS_BIN))
    throw new Error(
      `Prometheus binary not found at ${PROMETHEUS_BIN}. The fleet-source tests need a real Prometheus: ` +
        'install the Debian package with `apt-get install -y prometheus` (or set PROMETHEUS_BIN).',
    );
  const dir = mkdtempSync(path.join(tmpdir(), 'tokenscope-prom-'));
  const configFile = path.join(dir, 'prometheus.yml');
  writeFileSync(configFile, config(jobs));
  const port = await closedPort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    PROMETHEUS_BIN,
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  const keep = (b: Buffer): void => {
    log = (log + b.toString('utf8')).slice(-20_000); // bounded: only the tail explains a failure
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited = false;
  const exit = new Promise<void>((ok) =>
    child.on('exit', () => {
      exited = true;
      ok();
    }),
  );
  child.on('error', (e) => keep(Buffer.from(`spawn error: ${e.message}\n`)));
  const stop = async (): Promise<void> => {
    if (!exited) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exit;
      clearTimeout(killer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const end = performance.now() + readyTimeoutMs;
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`Prometheus exited during startup:\n${log}`);
    }
    const ready = await fetch(`${url}/-/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return { url, logs: () => log, stop };
    if (performance.now() > end) {
      await stop();
      throw new Error(`Prometheus not ready within ${readyTimeoutMs} ms:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Polls `probe` until it returns a value (not undefined), at most `timeoutMs`. */
export async function poll<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const end = performance.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (performance.now() > end) throw new Error(`${what}: not reached within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
