/**
 * The openai SDK's paths on the Promise client, as a second door to the same methods: `client.chat.completions.create`
 * is `client.chat.create` (the other APIs already sit where the openai SDK has them: `completions.create`,
 * `responses.create`, `audio.transcriptions.create`, `models.list`). Nothing is copied per API: the door is the
 * table's own `create`, which answers `stream: true` with a stream.
 */

/** The client's `chat` as the door reads it. */
interface WithChat {
  readonly chat: { readonly create: unknown }
}

/** The client with `chat.completions.create`, the same function as `chat.create`. */
export const withOpenaiShape = <C extends WithChat, Out>(client: C): Out =>
  ({ ...client, chat: { ...client.chat, completions: { create: client.chat.create } } }) as unknown as Out

/** Whether a request asks for a stream (`stream: true`): `create` then answers with the stream. */
export const asksForStream = (request: unknown): boolean =>
  typeof request === "object" && request !== null && (request as { readonly stream?: unknown }).stream === true
