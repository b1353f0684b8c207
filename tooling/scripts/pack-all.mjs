#!/usr/bin/env node
// `pnpm pack:all`: builds the publishable packages (root script: `turbo run build` first), then packs every one of
// them into dist-tarballs/ at the root (or `--out <dir>`), as `pnpm publish` would upload them. Every README's
// install section installs from there until the packages are on the npm registry.
import { join, relative, resolve } from "node:path"
import { packAll, ROOT } from "./lib/pack.mjs"

const at = process.argv.indexOf("--out")
const out = at === -1 ? join(ROOT, "dist-tarballs") : resolve(process.argv[at + 1] ?? "")
try {
  const packed = await packAll(out)
  for (const p of packed) console.log(`pack:all: ${p.name}@${p.version} -> ${relative(process.cwd(), p.file)}`)
  console.log(`pack:all: ${packed.length} tarballs in ${out}`)
} catch (error) {
  console.error(`pack:all: FAILED: ${error instanceof Error ? error.message : error}`)
  process.exitCode = 1
}
