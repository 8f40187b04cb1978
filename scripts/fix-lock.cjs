#!/usr/bin/env node
// Run after any `npm install`: `npm run lock:fix`.
// Adds lockfile entries for optional platform packages the registry mirror does not serve (npm/cli#9846).
const fs = require('node:fs');
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));
const pk = lock.packages;
for (const meta of Object.values(pk)) {
  for (const [name, ver] of Object.entries(meta.optionalDependencies || {})) {
    const key = 'node_modules/' + name;
    if (!pk[key]) {
      const os = /win32/.test(name)
        ? ['win32']
        : /darwin/.test(name)
          ? ['darwin']
          : /android/.test(name)
            ? ['android']
            : /linux/.test(name)
              ? ['linux']
              : undefined;
      const cpu = /arm64/.test(name)
        ? ['arm64']
        : /x64/.test(name)
          ? ['x64']
          : /-arm$/.test(name)
            ? ['arm']
            : undefined;
      pk[key] = {
        version: ver.replace(/^[\^~=]/, ''),
        ...(meta.dev ? { dev: true } : {}),
        optional: true,
        ...(os ? { os } : {}),
        ...(cpu ? { cpu } : {}),
        ...(/musl/.test(name) ? { libc: ['musl'] } : {}),
      };
      console.log('added', key);
    }
  }
}
fs.writeFileSync('package-lock.json', JSON.stringify(lock, null, 2) + '\n');
