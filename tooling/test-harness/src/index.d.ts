/**
 * The portable test API: `describe`, `it`, `beforeAll` and `afterAll`, resolved per runtime through the
 * package's conditional exports (vitest on Node and workerd, `bun:test` on Bun, `Deno.test` on Deno).
 *
 * @since 0.1.0
 */

/**
 * A test body or a hook: synchronous, or returning a promise. It takes no argument (no `done` callback,
 * no runner context) and its return value is ignored.
 *
 * @since 0.1.0
 */
export type TestFunction = () => void | Promise<void>

/**
 * Declares a test. `timeout` is in milliseconds (default 5000 on every runtime).
 *
 * @since 0.1.0
 */
export type DeclareTest = (name: string, fn: TestFunction, timeout?: number) => void

/**
 * Declares a group of tests. The body must be synchronous: it only declares tests and hooks.
 *
 * @since 0.2.0
 */
export type DeclareGroup = (name: string, body: () => void) => void

/**
 * Groups tests under a name; groups nest. `describe.skipIf(reason)` declares a group whose tests are all skipped
 * (and whose hooks never run) when `reason` is a string, and a plain group when it is `undefined`.
 *
 * @since 0.1.0
 */
export declare const describe: DeclareGroup & {
  /** @since 0.2.0 */
  readonly skipIf: (reason: string | undefined) => DeclareGroup
}

/**
 * Declares a test. `it.skipIf(reason)` declares a test that the runner reports as skipped, its name followed by
 * `[skipped: <reason>]` (so that the reason is in every runner's report), when `reason` is a string, and a plain
 * test when it is `undefined`.
 *
 * @since 0.1.0
 */
export declare const it: DeclareTest & {
  /** @since 0.2.0 */
  readonly skipIf: (reason: string | undefined) => DeclareTest
}

/**
 * Runs once before the first test of the enclosing `describe` (or file).
 *
 * @since 0.1.0
 */
export declare function beforeAll(fn: TestFunction, timeout?: number): void

/**
 * Runs once after the last test of the enclosing `describe` (or file), even if tests failed.
 *
 * @since 0.1.0
 */
export declare function afterAll(fn: TestFunction, timeout?: number): void
