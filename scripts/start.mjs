// `npm start`: builds what changed since the last build (the web app, the server bundle, the
// database template; each stamped with the hash of its inputs, see build-stamp.mjs), then runs
// the server in this process. With nothing changed it goes straight to the server; a fresh
// clone builds everything once. `npm run build` always builds.
//
// package.json runs this with `--max-semi-space-size=32` (MB; Node's default is 16): a young
// generation twice as large, for a server whose every request allocates garbage that dies with
// it. With the default, some server processes under load settled into scavenges that each kept
// half the young generation and promoted the objects of finished requests, and served markedly
// fewer requests for as long as they ran; with the flag, none did (`BENCH_ONLY=api npm run bench`
// shows it, in its GET /api/user row). The flag only raises the ceiling: V8 grows the young
// generation to it under load. The bench starts the server with the same flags, read from
// package.json.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkPart, PARTS, ROOT } from './build-stamp.mjs';

const building = new Set();

/** Stops with a message, and stops the other build running beside the one that failed. */
function failed(message) {
  process.stderr.write(`${message}\n`);
  for (const child of building) child.kill('SIGTERM');
  process.exit(1);
}

/** Runs a build step; resolves when it succeeded, ends this process when it failed. */
function run(what, args, cwd) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd, stdio: 'inherit' });
    building.add(child);
    child.on('error', (error) => failed(`Cannot build the ${what}: ${error.message}`));
    child.on('exit', (code, signal) => {
      building.delete(child);
      if (code === 0) resolve();
      else failed(`Building the ${what} failed (${signal ?? `exit code ${code}`}).`);
    });
  });
}

const stale = Object.keys(PARTS).filter((name) => !checkPart(name).upToDate);
if (stale.length > 0) {
  console.log(
    `Building what changed since the last build: ${stale.map((name) => PARTS[name].what).join(', ')}.`,
  );
  const builds = [];
  if (stale.includes('web')) {
    const web = path.join(ROOT, 'apps/web');
    const vite = path.join(
      path.dirname(createRequire(path.join(web, 'package.json')).resolve('vite/package.json')),
      'bin/vite.js',
    );
    builds.push(run('web app', [vite, 'build', '--logLevel', 'warn'], web));
  }
  // build.mjs bundles the server (under a second), and makes the template again only if stale.
  if (stale.includes('server') || stale.includes('template'))
    builds.push(run('server', ['build.mjs'], path.join(ROOT, 'apps/server')));
  // Side by side: the web build and the template are each mostly one core's work.
  await Promise.all(builds);
}

await import(pathToFileURL(path.join(ROOT, 'apps/server/dist/main.js')).href);
