import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import type { AddressInfo } from 'node:net';
import { decodeWire, encodeWire } from '../shared/wire.ts';
import { MAX_QUEUED_EVENTS } from '../shared/event-queue.ts';
import type { Core } from './app/core.ts';
import { PageSockets } from './serve-sockets.ts';
import { until } from './testing/until.ts';

let wss: WebSocketServer | null = null;
afterEach(() => wss?.close());

describe('web mode events for a page not ready yet', () => {
  it('are queued up to the IPC bound, the oldest dropped, then sent in order on ready', async () => {
    const pages = new PageSockets();
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((r) => wss!.once('listening', r));
    const attached = new Promise<void>((resolve) =>
      wss!.on('connection', (ws) => {
        pages.attach(ws, { handlers: {} } as unknown as Core);
        resolve();
      }),
    );
    const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
    const got: number[] = [];
    client.on('message', (d) => {
      const m = decodeWire(String(d)) as { type: string; payload: { id: string }[] };
      if (m.type === 'event') got.push(Number(m.payload[0]!.id));
    });
    await attached;
    const extra = 5;
    for (let i = 0; i < MAX_QUEUED_EVENTS + extra; i++)
      pages.emit('onTargetsChanged', [{ id: String(i) }] as never);
    await new Promise<void>((r) =>
      client.readyState === client.OPEN ? r() : client.once('open', () => r()),
    );
    client.send(encodeWire({ type: 'ready' }));
    // Once the page is ready, events go straight through: this one ends the queued ones.
    await until(() => got.length > 0, 20_000);
    pages.emit('onTargetsChanged', [{ id: '-1' }] as never);
    await until(() => got[got.length - 1] === -1, 20_000);
    client.close();
    got.pop();
    expect(got).toHaveLength(MAX_QUEUED_EVENTS);
    expect(got[0]).toBe(extra);
    expect(got[got.length - 1]).toBe(MAX_QUEUED_EVENTS + extra - 1);
  });
});
