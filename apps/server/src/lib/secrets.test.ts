import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSecretBox, loadJwtSecret } from './secrets';

describe('loadJwtSecret', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'contrateia-secrets-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const file = () => path.join(dataDir, 'jwt-secret');
  /** 48 random bytes in base64url: 64 characters. */
  const GENERATED_KEY = /^[A-Za-z0-9_-]{64}$/;

  it('generates a key of 48 random bytes on first call, kept in DATA_DIR', () => {
    const secret = loadJwtSecret({ configured: undefined, dataDir });
    expect(secret).toMatch(GENERATED_KEY);
    expect(fs.readFileSync(file(), 'utf8')).toBe(secret);
    expect(fs.readdirSync(dataDir)).toEqual(['jwt-secret']);
  });

  // File modes are POSIX; Windows reports none of these bits.
  it.skipIf(process.platform === 'win32')('keeps the key readable by the owner only', () => {
    loadJwtSecret({ configured: undefined, dataDir });
    expect(fs.statSync(file()).mode & 0o777).toBe(0o600);
  });

  it('returns the same key on the next call', () => {
    const first = loadJwtSecret({ configured: undefined, dataDir });
    const second = loadJwtSecret({ configured: undefined, dataDir });
    expect(second).toBe(first);
  });

  it('makes a different key for each data directory', () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'contrateia-secrets-'));
    try {
      expect(loadJwtSecret({ configured: undefined, dataDir })).not.toBe(
        loadJwtSecret({ configured: undefined, dataDir: other }),
      );
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it('uses JWT_SECRET when given and writes nothing', () => {
    const configured = 'c'.repeat(40);
    expect(loadJwtSecret({ configured, dataDir })).toBe(configured);
    expect(fs.existsSync(file())).toBe(false);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('prefers JWT_SECRET over a key already kept in DATA_DIR', () => {
    const kept = loadJwtSecret({ configured: undefined, dataDir });
    const configured = 'd'.repeat(40);
    expect(loadJwtSecret({ configured, dataDir })).toBe(configured);
    expect(fs.readFileSync(file(), 'utf8').trim()).toBe(kept);
  });

  it('gives processes starting together one and the same complete key', async () => {
    // Six servers starting at the same moment on an empty DATA_DIR: each must read a whole key,
    // and all the same one; no temporary file is left behind.
    const script = `
      const { loadJwtSecret } = await import(${JSON.stringify(new URL('./secrets.ts', import.meta.url).href)});
      process.stdout.write(loadJwtSecret({ configured: undefined, dataDir: ${JSON.stringify(dataDir)} }));`;
    const runs = Array.from(
      { length: 6 },
      () =>
        new Promise<string>((resolve, reject) => {
          const child = spawn(process.execPath, [
            '--import',
            'tsx',
            '--input-type=module',
            '-e',
            script,
          ]);
          let out = '';
          let err = '';
          child.stdout.on('data', (d: Buffer) => (out += d.toString()));
          child.stderr.on('data', (d: Buffer) => (err += d.toString()));
          child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(err))));
        }),
    );
    const keys = await Promise.all(runs);
    expect(keys).toHaveLength(6);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(GENERATED_KEY);
    expect(fs.readdirSync(dataDir)).toEqual(['jwt-secret']);
    // Six Node processes compiling TypeScript at once: seconds each on two busy cores.
  }, 60_000);

  it('refuses a kept key shorter than 32 characters, naming the file', () => {
    fs.writeFileSync(file(), 'short\n', { mode: 0o600 });
    expect(() => loadJwtSecret({ configured: undefined, dataDir })).toThrow(
      new Error(`${file()} holds a key shorter than 32 characters; delete it to make a new one.`),
    );
  });
});

describe('createSecretBox', () => {
  const box = createSecretBox('s'.repeat(40));

  it('opens what it sealed, and seals the same text differently each time', () => {
    const sealed = box.seal('sk-live-Ünïcode-key', 'ai.apiKey');
    expect(box.open(sealed, 'ai.apiKey')).toBe('sk-live-Ünïcode-key');
    expect(sealed).not.toContain('sk-live');
    expect(box.seal('sk-live-Ünïcode-key', 'ai.apiKey')).not.toBe(sealed);
  });

  it('refuses a value sealed with another secret, for another purpose, or altered', () => {
    const sealed = box.seal('sk-secret', 'ai.apiKey');
    expect(() => createSecretBox('t'.repeat(40)).open(sealed, 'ai.apiKey')).toThrow();
    expect(() => box.open(sealed, 'other.purpose')).toThrow();
    const [version, iv, body, tag] = sealed.split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0]! ^= 1;
    expect(() =>
      box.open([version, iv, flipped.toString('base64url'), tag].join('.'), 'ai.apiKey'),
    ).toThrow();
    // A shortened authentication tag would weaken the check: refused.
    expect(() => box.open([version, iv, body, tag!.slice(0, 6)].join('.'), 'ai.apiKey')).toThrow();
    expect(() => box.open('sk-secret', 'ai.apiKey')).toThrow();
  });
});
