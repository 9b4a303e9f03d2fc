// src/lib/secrets.ts
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
function loadJwtSecret({ configured, dataDir }) {
  if (configured) return configured;
  const file = path.join(dataDir, "jwt-secret");
  if (!fs.existsSync(file)) {
    const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    fs.writeFileSync(temporary, randomBytes(48).toString("base64url"), { mode: 384 });
    try {
      fs.linkSync(temporary, file);
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
    } finally {
      fs.rmSync(temporary, { force: true });
    }
  }
  const secret = fs.readFileSync(file, "utf8").trim();
  if (secret.length < 32) throw new Error(`${file} holds a key shorter than 32 characters; delete it to make a new one.`);
  return secret;
}
function hashToken(token) {
  return createHash("sha256").update(token).digest("hex");
}

export {
  loadJwtSecret,
  hashToken
};
//# sourceMappingURL=chunk-ZX43WYFR.js.map
