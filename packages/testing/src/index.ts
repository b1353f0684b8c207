/**
 * `@friendli-stream/testing`: a mock Friendli endpoint with fault injection, for tests on every runtime.
 *
 * @since 0.1.0
 */
import "./internal/requireNode.ts"

export * from "./Faults.ts"
export * from "./MockFriendli.ts"
