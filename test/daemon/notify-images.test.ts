import { execFileSync } from 'node:child_process';
import { copyFile, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { type DaemonProcess, startDaemon, tempFolder, waitFor } from '../helpers/daemon.js';
import { IMAGES, writeSupportFile } from '../helpers/support.js';

// docs/api/notifications.md#n9, notification `image`: a file path, an https URL or a data: URI, checked by its bytes,
// at most 10 MB, copied into the support folder; anything else is ignored and the notification is still accepted.

const FORMATS = ['png', 'jpg', 'gif', 'webp', 'tiff', 'bmp', 'heic', 'avif'] as const;

describe('notification pictures', () => {
  let daemon: DaemonProcess;
  let work: string;
  let server: https.Server;
  let httpsBase: string;
  let plainServer: http.Server;
  let httpBase: string;

  beforeAll(async () => {
    work = await tempFolder('notifier-images-');
    // A real https server with a certificate the daemon trusts through NODE_EXTRA_CA_CERTS.
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        path.join(work, 'key.pem'),
        '-out',
        path.join(work, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const png = await readFile(path.join(IMAGES, 'sample.png'));
    server = https.createServer(
      { key: await readFile(path.join(work, 'key.pem')), cert: await readFile(path.join(work, 'cert.pem')) },
      (req, res) => {
        if (req.url === '/pic.png') res.writeHead(200, { 'Content-Type': 'image/png' }).end(png);
        else if (req.url === '/text.png') res.writeHead(200).end('not a picture at all, honest');
        else if (req.url === '/downgrade') res.writeHead(302, { Location: `${httpBase}/pic.png` }).end();
        else res.writeHead(404).end();
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    httpsBase = `https://localhost:${(server.address() as AddressInfo).port}`;
    plainServer = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'image/png' }).end(png));
    await new Promise<void>((resolve) => plainServer.listen(0, '127.0.0.1', resolve));
    httpBase = `http://127.0.0.1:${(plainServer.address() as AddressInfo).port}`;

    const supportDir = path.join(work, 'support');
    await writeSupportFile(supportDir, 'settings.json', { historyCapPerApp: 3 });
    daemon = await startDaemon({ supportDir, env: { NODE_EXTRA_CA_CERTS: path.join(work, 'cert.pem') } });
  });

  afterAll(async () => {
    await daemon?.stop();
    server?.close();
    plainServer?.close();
    await rm(work, { recursive: true, force: true });
  });

  const notify = (body: Record<string, unknown>) => daemon.api('POST', '/v1/notify', { body: { title: 'pic', ...body } });
  const record = async (app: string, id: string) =>
    (await daemon.api('GET', `/v1/history?app=${app}&limit=100`)).json.items.find((item: { id: string }) => item.id === id);
  const cached = async () => (await readdir(path.join(daemon.supportDir, 'images')).catch(() => [])).sort();

  test.each(FORMATS)('a %s file is recognised by its bytes and copied 0600 with its own extension', async (format) => {
    const reply = await notify({ app: 'formats', id: format, image: path.join(IMAGES, `sample.${format}`) });
    expect(reply.status).toBe(200);
    const { imagePath } = await record('formats', format);
    expect(path.dirname(imagePath)).toBe(path.join(daemon.supportDir, 'images'));
    expect(path.extname(imagePath)).toBe(`.${format}`);
    expect((await stat(imagePath)).mode & 0o777).toBe(0o600);
    expect(await readFile(imagePath)).toEqual(await readFile(path.join(IMAGES, `sample.${format}`)));
  });

  test('the extension comes from the bytes, never from the name the sender chose', async () => {
    const disguised = path.join(work, 'photo.jpg');
    await copyFile(path.join(IMAGES, 'sample.png'), disguised);
    await notify({ app: 'disguise', id: 'd', image: disguised });
    expect(path.extname((await record('disguise', 'd')).imagePath)).toBe('.png');
  });

  test('a data: URI is decoded, cached, and the record keeps the cached path instead of the URI', async () => {
    const uri = `data:image/png;base64,${(await readFile(path.join(IMAGES, 'sample.gif'))).toString('base64')}`;
    await notify({ app: 'data', id: 'uri', image: uri });
    const stored = await record('data', 'uri');
    expect(path.extname(stored.imagePath)).toBe('.gif');
    expect(stored.notification.image).toBe(stored.imagePath);
  });

  test('an https URL is downloaded', async () => {
    await notify({ app: 'web', id: 'https', image: `${httpsBase}/pic.png` });
    const stored = await record('web', 'https');
    expect(await readFile(stored.imagePath)).toEqual(await readFile(path.join(IMAGES, 'sample.png')));
    expect(stored.notification.image).toBe(`${httpsBase}/pic.png`);
  });

  test.each([
    [
      'a text file',
      async () => {
        const f = path.join(work, 'notes.png');
        await writeFile(f, 'hello, this is text');
        return f;
      },
    ],
    ['a missing file', async () => path.join(work, 'missing.png')],
    ['a relative path', async () => 'fixtures/images/sample.png'],
    ['a folder', async () => IMAGES],
    [
      'a file over 10 MB',
      async () => {
        const f = path.join(work, 'huge.png');
        await copyFile(path.join(IMAGES, 'sample.png'), f);
        const handle = await open(f, 'r+');
        await handle.truncate(10 * 1024 * 1024 + 1);
        await handle.close();
        return f;
      },
    ],
    ['an http (not https) URL', async () => `${httpBase}/pic.png`],
    ['an https URL answering 404', async () => `${httpsBase}/missing.png`],
    ['an https URL that is not a picture', async () => `${httpsBase}/text.png`],
    ['an https URL redirecting to http', async () => `${httpsBase}/downgrade`],
    ['a data: URI that is not base64', async () => 'data:image/png,hello'],
    ['a data: URI of text', async () => `data:text/plain;base64,${Buffer.from('plain words').toString('base64')}`],
    ['another scheme', async () => 'ftp://example.com/a.png'],
  ])('%s is ignored and the notification is still accepted', async (_what, make) => {
    const id = `ignored-${Math.random().toString(36).slice(2)}`;
    const reply = await notify({ app: 'ignored', id, image: await make() });
    expect(reply.status).toBe(200);
    const stored = await record('ignored', id);
    expect(stored).toBeDefined();
    expect(stored.imagePath).toBeUndefined();
  });

  test('the same picture sent twice is stored once; a cached copy goes when no record refers to it', async () => {
    const jpg = path.join(IMAGES, 'sample.jpg');
    const bmp = path.join(IMAGES, 'sample.bmp');
    // The format tests above hold a copy of the same jpg; clearing their History frees it first.
    await daemon.api('DELETE', '/v1/history?app=formats');
    await notify({ app: 'shared', id: 'a', image: jpg });
    await notify({ app: 'shared', id: 'b', image: jpg });
    const jpgCopy = (await record('shared', 'a')).imagePath;
    expect((await record('shared', 'b')).imagePath).toBe(jpgCopy);
    expect((await cached()).filter((name) => name.endsWith('.jpg'))).toHaveLength(1);

    await daemon.api('DELETE', '/v1/history/item?app=shared&id=a');
    await stat(jpgCopy); // still used by b
    // Replacing b with another picture frees the jpg.
    await notify({ app: 'shared', id: 'b', image: bmp });
    await waitFor(async () => ((await stat(jpgCopy).catch(() => null)) === null ? true : undefined), 'the jpg copy to go');
    const bmpCopy = (await record('shared', 'b')).imagePath;
    await daemon.api('DELETE', '/v1/history?app=shared');
    await waitFor(async () => ((await stat(bmpCopy).catch(() => null)) === null ? true : undefined), 'the bmp copy to go');
  });

  test('evicting the oldest record beyond the per-app cap frees its picture', async () => {
    await notify({ app: 'evict', id: 'old', image: path.join(IMAGES, 'sample.webp') });
    const oldCopy = (await record('evict', 'old')).imagePath;
    for (const id of ['n1', 'n2', 'n3']) await notify({ app: 'evict', id });
    const ids = (await daemon.api('GET', '/v1/history?app=evict')).json.items.map((item: { id: string }) => item.id);
    expect(ids).toEqual(['n3', 'n2', 'n1']);
    await waitFor(async () => ((await stat(oldCopy).catch(() => null)) === null ? true : undefined), 'the evicted picture to go');
  });
});
