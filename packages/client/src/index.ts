/**
 * `@friendli-stream/client`: the Friendli client (HTTP, retries, timeouts; an Effect service and a Promise
 * facade) on `effect/http`, streaming through `@friendli-stream/stream`'s decoder. Web standards only.
 *
 * @since 0.3.0
 */
import "./internal/requireNode.ts"

/** @since 0.1.0 */
export * from "./ClientError.ts"
/** @since 0.1.0 */
export * from "./ClientOptions.ts"
/** @since 0.1.0 */
export * as FetchAdapter from "./FetchAdapter.ts"
/** @since 0.1.0 */
export * as FriendliClient from "./FriendliClient.ts"
/** @since 0.1.0 */
export * from "./PromiseClient.ts"
/** @since 0.3.0 */
export * as ResponseBody from "./ResponseBody.ts"
/** @since 0.2.0 */
export * from "./Retryable.ts"
/** @since 0.3.0 */
export * as Telemetry from "./Telemetry.ts"
