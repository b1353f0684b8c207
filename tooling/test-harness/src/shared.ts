// The team's read-only reference data: `shared/`, beside the repository (real captures, Friendli's public OpenAPI
// document, the seed), or wherever FRIENDLI_SHARED_DIR points. One policy for every test that reads it: present, the
// test runs; absent, the test is reported as skipped with the reason; absent while FRIENDLI_REQUIRE_SHARED is set
// (.ci/run sets it where shared/ exists), the test runs and fails, saying what is missing.
import { existsSync } from "node:fs"
import { join, resolve } from "node:path"
import process from "node:process"
import { fileURLToPath } from "node:url"

/**
 * The folder of the shared data: FRIENDLI_SHARED_DIR when set, else `shared/` beside the repository.
 *
 * @since 0.2.0
 */
export const sharedRoot = (): string =>
  process.env.FRIENDLI_SHARED_DIR
    ? resolve(fileURLToPath(new URL("../../..", import.meta.url)), process.env.FRIENDLI_SHARED_DIR)
    : fileURLToPath(new URL("../../../../shared/", import.meta.url))

/**
 * The absolute path of `<shared root>/<relative>`, whether or not it exists.
 *
 * @since 0.1.0
 */
export const sharedPath = (relative: string): string => join(sharedRoot(), relative)

/**
 * Whether the shared data must be there (FRIENDLI_REQUIRE_SHARED is set, as `.ci/run` does where it exists).
 *
 * @since 0.2.0
 */
export const sharedRequired = (): boolean => {
  const value = process.env.FRIENDLI_REQUIRE_SHARED?.trim().toLowerCase()
  return value !== undefined && value !== "" && value !== "0" && value !== "false"
}
const required = sharedRequired

/**
 * A path written relative to the repository root (as in `packages/core/openapi/sync.yaml`): one under `../shared/`
 * is taken from the shared root (so FRIENDLI_SHARED_DIR moves it too), any other from `root`.
 *
 * @since 0.2.0
 */
export const fromRepository = (root: string, path: string): string =>
  path.startsWith("../shared/") ? sharedPath(path.slice("../shared/".length)) : resolve(root, path)

/**
 * Why a test that reads `<shared root>/<relative>` cannot run here (for `it.skipIf`), or `undefined` when it can: the
 * file is there, or FRIENDLI_REQUIRE_SHARED is set (then the test runs, and `requireShared` fails it).
 *
 * @since 0.2.0
 */
export const sharedSkip = (relative: string): string | undefined =>
  existsSync(sharedPath(relative)) || required()
    ? undefined
    : `${sharedPath(relative)} is absent (reference data beside the repository; set FRIENDLI_SHARED_DIR to its folder)`

/**
 * The path of `<shared root>/<relative>`; throws an error that says what is missing when it is absent.
 *
 * @since 0.1.0
 */
export const requireShared = (relative: string): string => {
  const path = sharedPath(relative)
  if (existsSync(path)) return path
  throw new Error(
    `${path} is missing${required() ? " and FRIENDLI_REQUIRE_SHARED is set (.ci/run sets it where shared/ exists)" : ""}`,
  )
}
