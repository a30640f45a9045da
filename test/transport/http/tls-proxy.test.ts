/**
 * TLS and proxies: a self-signed server is refused by default (system CAs only) and accepted with `ca`;
 * `proxy` tunnels through a real CONNECT proxy. The certificate is generated with openssl at test time.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { connectHttp, failedSend } from '../../helpers/http-once.js';
import { listenLocal, readBody } from '../../helpers/http-server.js';
import { result, startServer, type TestServer } from './test-server.js';

const cleanups: Array<() => unknown> = [];
after(async () => {
  for (const fn of cleanups) await fn();
});

function makeCert(): { key: string; cert: string } | undefined {
  const dir = mkdtempSync(path.join(tmpdir(), 'autos-mcp-tls-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        path.join(dir, 'k.pem'),
        '-out',
        path.join(dir, 'c.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
  } catch {
    return undefined;
  }
  return {
    key: readFileSync(path.join(dir, 'k.pem'), 'utf8'),
    cert: readFileSync(path.join(dir, 'c.pem'), 'utf8'),
  };
}

const pem = makeCert();

test('a self-signed https server is refused without ca (not sent) and accepted with ca', {
  skip: pem === undefined && 'openssl not available',
}, async () => {
  const { key, cert } = pem ?? { key: '', cert: '' };
  const server = createHttpsServer({ key, cert }, async (req, res) => {
    const body = await readBody(req);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(result(JSON.parse(body).id, { tls: true })));
  });
  const url = await listenLocal(server, 'https');
  cleanups.push(() => new Promise((r) => server.close(r)));

  const { error } = await failedSend(url);
  assert.equal(error['kind'], 'transport');
  assert.equal(error['delivery'], 'not_sent');

  const { conn: trusting, c } = await connectHttp(url, { ca: [cert] });
  await trusting.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  assert.deepEqual(c.messages, [result(2, { tls: true })]);
  await trusting.close();
});

test('proxy routes the exchange through a CONNECT proxy', async () => {
  const target: TestServer = await startServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(result(req.json?.['id'], { proxied: true })));
  });
  cleanups.push(() => target.close());
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const proxy = createHttpServer();
  proxy.on('connect', (req, client: Socket, head: Buffer) => {
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(client).add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  const proxyUrl = (await listenLocal(proxy)).origin;
  cleanups.push(
    () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        proxy.close(r);
      }),
  );
  const { conn, c } = await connectHttp(target.url, { proxy: proxyUrl });
  await conn.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  await conn.close();
  assert.deepEqual(c.messages, [result(1, { proxied: true })]);
  assert.deepEqual(tunnels, [target.url.host]);
});
