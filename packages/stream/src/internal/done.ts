/**
 * Layer 4: the end sentinel. OpenAI-compatible servers end a stream with `data: [DONE]`; nothing after it counts.
 */

/** The data of the event that ends a stream. */
export const DONE_DATA = "[DONE]"

/** Whether an event's data is the end sentinel. */
export const isDone = (data: string): boolean => data.length === 6 && data === DONE_DATA
