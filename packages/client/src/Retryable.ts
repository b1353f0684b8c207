/**
 * Whether a failure of the client may succeed when the same request is sent again: the judgement the client's own
 * retries use, for callers that run their own retry loop (e.g. with `maxRetries: 0`).
 *
 * @since 0.2.0
 */
import { isRetryable as judge } from "./internal/retry.ts"

/**
 * Whether sending the same request again could succeed: `true` for a `ConnectionError`, a status error whose status
 * is 408, 409, 425, 429 or 5xx, and an in-stream `ApiError` marked `retryable`; `false` for anything else.
 *
 * @since 0.2.0
 */
export const isRetryable = (error: unknown): boolean => judge(error)
