import argon2 from 'argon2';

/**
 * argon2id at the OWASP ASVS minimum (m = 19 MiB, t = 2, p = 1). The PHC string it returns
 * carries the salt and these parameters, so they can be raised later without breaking old hashes.
 */
export const PASSWORD_HASH_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19 * 1024,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, PASSWORD_HASH_OPTIONS);
}

// A hash of a random password, verified against when the account does not exist, so a wrong
// identifier takes as long as a wrong password and reveals nothing.
const DUMMY_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$OtidXQHQGhkhFyR3j/eVBA$drlYkxdQ1RpZxRkFLIu9V247App7qfIPld9WsfDa6iQ';

export async function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  try {
    const ok = await argon2.verify(hash ?? DUMMY_HASH, password);
    return hash !== undefined && ok;
  } catch {
    return false;
  }
}
