import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
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
export function loadJwtSecret({
  configured,
  dataDir,
}: {
  configured: string | undefined;
  dataDir: string;
}): string {
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
  if (secret.length < 32)
    throw new Error(`${file} holds a key shorter than 32 characters; delete it to make a new one.`);
  return secret;
}

/** What is kept of a one-time token (a pairing link's, a sandbox QR's): its SHA-256, in hex. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Seals and opens small secrets kept in the database (an AI provider's API key): AES-256-GCM
 * with a key derived (HKDF-SHA256) from the app's secret, so a copy of the database alone does
 * not reveal them. `purpose` is bound to each sealed value as associated data: a value sealed for
 * one purpose does not open as another. A value that does not open (the app's secret changed, the
 * row was altered) makes `open` throw.
 */
export type SecretBox = {
  seal(plain: string, purpose: string): string;
  open(sealed: string, purpose: string): string;
};

const SEALED_VERSION = 'v1';

export function createSecretBox(appSecret: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', appSecret, 'contrateia', 'database secrets v1', 32));
  return {
    seal(plain, purpose) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(purpose));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [SEALED_VERSION, iv, body, cipher.getAuthTag()]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed, purpose) {
      const [version, iv, body, tag, ...rest] = sealed.split('.');
      if (
        version !== SEALED_VERSION ||
        iv === undefined ||
        body === undefined ||
        tag === undefined ||
        rest.length > 0
      )
        throw new Error('not a sealed value');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
        authTagLength: 16,
      });
      decipher.setAAD(Buffer.from(purpose));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(body, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}
