import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The token signing key: JWT_SECRET when given, else one generated on first start and kept in
 * DATA_DIR (readable by the owner only), so tokens survive restarts and no secret lives in code.
 */
export function loadJwtSecret({ configured, dataDir }: { configured: string | undefined; dataDir: string }): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'jwt-secret');
  try {
    fs.writeFileSync(file, randomBytes(48).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (secret.length < 32) throw new Error(`${file} holds a key shorter than 32 characters; delete it to make a new one.`);
  return secret;
}
