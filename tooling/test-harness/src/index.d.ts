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
 * Groups tests under a name; groups nest. The body must be synchronous: it only declares tests and hooks.
 *
 * @since 0.1.0
 */
export declare function describe(name: string, body: () => void): void

/**
 * Declares a test. `timeout` is in milliseconds (default 5000 on every runtime).
 *
 * @since 0.1.0
 */
export declare function it(name: string, fn: TestFunction, timeout?: number): void

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
