import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

const root = process.cwd();
/** A clone with its dependencies installed and nothing built: no dist/. */
const clone = mkdtempSync(join(tmpdir(), 'vaani-clone-'));
for (const file of ['package.json', 'bin']) cpSync(join(root, file), join(clone, file), { recursive: true });
for (const dir of ['src', 'node_modules']) symlinkSync(join(root, dir), join(clone, dir));
afterAll(() => rmSync(clone, { recursive: true, force: true }));

it('`npx vaani` runs in a clone before any build, and says once that the hub is out of reach', async () => {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await new Promise((done) => server.close(done));
  // Its own npm cache: npx links the clone's bin there afresh (an older link would be reused).
  const env = { ...process.env, npm_config_cache: join(clone, '.npm'), npm_config_offline: 'true' };
  const { stdout, stderr } = await promisify(execFile)(
    'npx',
    ['vaani', 'ls', 'chat-v2', 'embed-v1', '--to', join(clone, 'public/models'), '--host', host],
    { cwd: clone, env },
  );
  expect(stdout).toMatch(/^SIZE\s+MODEL\s+STATE\s+SOURCE\n\?\s+chat-v2\s+not pulled\s+.*\n\?\s+embed-v1\s+not pulled/);
  expect(stderr.match(/Could not reach/g)).toHaveLength(1);
  expect(stderr).toContain(`copied to ${join(clone, 'public/models')}/<id>/`);
});
