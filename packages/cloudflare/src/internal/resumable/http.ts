/** The JSON errors of the Workers' side of resumable streams, in the shape `@friendli-stream/resumable`'s handler answers. */

/** `{ "error": { "message", "type", "code" } }` with `status`. */
export const jsonError = (
  status: number,
  message: string,
  type = "invalid_request_error",
  code: string | null = null,
  headers: Readonly<Record<string, string>> = {},
): Response =>
  new Response(`${JSON.stringify({ error: { message, type, code } })}\n`, {
    status,
    headers: { "content-type": "application/json", ...headers },
  })
