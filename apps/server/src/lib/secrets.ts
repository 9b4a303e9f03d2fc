import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The token signing key: JWT_SECRET when given, else one generated on first start and kept in
 * DATA_DIR (readable by the owner only), so tokens survive restarts and no secret lives in code.
 *
 * The key is written to a private temporary file and then hard-linked into place, which either
 * creates the complete file or fails because one exists: a process starting at the same moment
 * never reads a half-written key.
 */
export function loadJwtSecret({ configured, dataDir }: { configured: string | undefined; dataDir: string }): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'jwt-secret');
  if (!fs.existsSync(file)) {
    const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    fs.writeFileSync(temporary, randomBytes(48).toString('base64url'), { mode: 0o600 });
    try {
      fs.linkSync(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(temporary, { force: true });
    }
  }
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (secret.length < 32) throw new Error(`${file} holds a key shorter than 32 characters; delete it to make a new one.`);
  return secret;
}

/** What is kept of a one-time token (a pairing link's, a sandbox QR's): its SHA-256, in hex. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
