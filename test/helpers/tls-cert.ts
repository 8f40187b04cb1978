import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether `openssl` is there to make a certificate (the TLS tests are skipped without it). */
export const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

export interface SelfSigned {
  key: Buffer;
  cert: Buffer;
  /** The certificate's file, for a process that trusts it (`NODE_EXTRA_CA_CERTS`). */
  certFile: string;
  remove(): void;
}

/** A self-signed certificate for `subjectAltName` (e.g. `IP:127.0.0.1`), valid a day, in a temp folder. */
export function selfSigned(subjectAltName: string): SelfSigned {
  const dir = mkdtempSync(join(tmpdir(), 'feed-sync-tls-'));
  const made = spawnSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost'].concat([
      '-addext',
      `subjectAltName=${subjectAltName}`,
      '-keyout',
      'key.pem',
      '-out',
      'cert.pem',
    ]),
    { cwd: dir },
  );
  if (made.status !== 0) throw new Error(`openssl failed: ${made.stderr}`);
  return {
    key: readFileSync(join(dir, 'key.pem')),
    cert: readFileSync(join(dir, 'cert.pem')),
    certFile: join(dir, 'cert.pem'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * An ES module `script` run by a Node process that trusts `certFile` (read at start, so never in the
 * test's own process): its exit code and what it printed.
 */
export async function runTrusting(
  certFile: string,
  script: string,
): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, NODE_EXTRA_CA_CERTS: certFile },
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += String(d);
  });
  const [code] = await once(child, 'exit');
  return { code: code as number | null, out };
}
