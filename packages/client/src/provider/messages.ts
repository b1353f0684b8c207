/**
 * A provider's prompt, in neutral pieces -> Friendli's chat messages: media routed to `image_url` / `audio_url` /
 * `video_url` content, a user turn of text only sent as one string, an assistant turn folded into one message with
 * `reasoning_content` and `tool_calls`, and a tool result as a `tool` message.
 */
import type { Message, UserMessageContentMultiModal } from "@friendli-stream/core"
import * as Base64 from "effect/encoding/Base64"

/**
 * The `data:` URL of inline file data (bytes, or text already in base64). A bare top-level media type (`"image"`)
 * is sent as `image/*`.
 *
 * @since 0.3.0
 */
export const dataUrlOf = (mediaType: string, data: Uint8Array | string): string => {
  const type = mediaType.includes("/") ? mediaType : `${mediaType}/*`
  return `data:${type};base64,${typeof data === "string" ? data : Base64.encode(data)}`
}

/**
 * The content part a file of this media type is sent as (images, audio and video, by URL), or `undefined` for a
 * media type Friendli's chat does not take: each provider says so in its own way.
 *
 * @since 0.3.0
 */
export const mediaContentOf = (mediaType: string, url: string): UserMessageContentMultiModal | undefined => {
  switch (mediaType.split("/")[0]) {
    case "image":
      return { type: "image_url", image_url: { url } }
    case "audio":
      return { type: "audio_url", audio_url: { url } }
    case "video":
      return { type: "video_url", video_url: { url } }
    default:
      return undefined
  }
}

/**
 * A user turn: one string when every part is text, else the parts as multimodal content.
 *
 * @since 0.3.0
 */
export const userMessage = (parts: ReadonlyArray<UserMessageContentMultiModal>): Message => {
  const texts: Array<string> = []
  for (const part of parts) {
    if (part.type !== "text") return { role: "user", content: [...parts] }
    texts.push(part.text)
  }
  return { role: "user", content: texts.join("") }
}

/**
 * A tool call of an assistant turn, in neutral terms: `arguments` as JSON text; a call the provider ran itself (a
 * built-in tool) is `providerExecuted`.
 *
 * @since 0.3.0
 */
export interface ToolCallPiece {
  readonly id: string
  readonly name: string
  readonly arguments: string
  readonly providerExecuted: boolean
}

/**
 * An assistant turn as one Friendli message, from a provider's own parts (both SDKs' `text` and `reasoning` parts
 * are read as they are; `toolCallOf` reads the SDK's tool-call part, `undefined` for any other): texts joined as
 * `content` (`null` when there is only tool calls), reasoning joined as `reasoning_content`, and the tool calls
 * the client ran as `tool_calls`. Calls the provider ran itself (built-in tools) are not sent back: Friendli runs
 * them again from the conversation.
 *
 * @since 0.3.0
 */
export const assistantMessage = <P extends { readonly type: string; readonly text?: string | undefined }>(
  parts: Iterable<P>,
  toolCallOf: (part: P) => ToolCallPiece | undefined,
): Message => {
  let text = ""
  let reasoning = ""
  const toolCalls: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }> = []
  for (const part of parts) {
    if (part.type === "text") text += part.text ?? ""
    else if (part.type === "reasoning") reasoning += part.text ?? ""
    else {
      const call = toolCallOf(part)
      if (call === undefined || call.providerExecuted) continue
      toolCalls.push({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } })
    }
  }
  return {
    role: "assistant",
    content: text === "" && toolCalls.length > 0 ? null : text,
    ...(reasoning === "" ? {} : { reasoning_content: reasoning }),
    ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
  }
}

/**
 * The JSON text of a tool call's input: a string as it is, anything else as JSON (`{}` for none).
 *
 * @since 0.3.0
 */
export const argumentsText = (input: unknown): string =>
  typeof input === "string" ? input : JSON.stringify(input ?? {})

/**
 * The result of a tool the client ran, as a `tool` message (`content`: a string as it is, anything else as JSON).
 *
 * @since 0.3.0
 */
export const toolMessage = (toolCallId: string, result: unknown): Message => ({
  role: "tool",
  tool_call_id: toolCallId,
  content: typeof result === "string" ? result : JSON.stringify(result ?? null),
})
