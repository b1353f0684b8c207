#!/usr/bin/env node
// After `tsc -b`: rewrites relative `.ts` specifiers in the emitted declaration files to `.js`.
//
// Sources import `./X.ts` and `rewriteRelativeImportExtensions` turns that into `./X.js` in the emitted
// JavaScript, but TypeScript leaves the `.d.ts` files with `./X.ts`. tsc itself reads those, Deno's checker
// and older tools do not; `./X.js` is what every one of them reads.
//
//   node tooling/scripts/dts-extensions.mjs <dist-dir>
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

const specifier = /((?:from|import)\s*\(?\s*["'])(\.{1,2}\/[^"']*?)\.ts(["'])/g

/** @param {string} dir @returns {number} files changed */
const rewrite = (dir) => {
  let changed = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) changed += rewrite(path)
    else if (entry.name.endsWith(".d.ts")) {
      const text = readFileSync(path, "utf8")
      const next = text.replace(specifier, "$1$2.js$3")
      if (next !== text) {
        writeFileSync(path, next)
        changed++
      }
    }
  }
  return changed
}

const dir = process.argv[2]
if (dir === undefined) {
  console.error("usage: dts-extensions.mjs <dist-dir>")
  process.exit(2)
}
rewrite(dir)
