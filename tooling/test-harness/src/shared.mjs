// The team's read-only reference data: `shared/`, beside the repository (real captures, Friendli's public OpenAPI
// document, the seed). One policy for every test that reads it: present, the test uses it; absent, the test says
// it skipped; absent while `CI` is set, that is an error, since CI always has it.
import { existsSync } from "node:fs"
import process from "node:process"
import { fileURLToPath } from "node:url"

/**
 * The absolute path of `shared/<relative>` (the folder beside the repository), whether or not it exists.
 *
 * @param {string} relative
 * @returns {string}
 * @since 0.1.0
 */
export const sharedPath = (relative) => fileURLToPath(new URL(`../../../../shared/${relative}`, import.meta.url))

/**
 * `shared/<relative>` when it exists. When it does not: throws in CI (where it must exist), and otherwise logs that
 * the caller skips and returns undefined.
 *
 * @param {string} relative
 * @returns {string | undefined}
 * @since 0.1.0
 */
export const requireShared = (relative) => {
  const path = sharedPath(relative)
  if (existsSync(path)) return path
  if (process.env.CI) throw new Error(`${path} is missing: CI must run with shared/ beside the repository`)
  console.warn(`skipping: ${path} is absent (it sits beside the repository on the team's machines only)`)
  return undefined
}
