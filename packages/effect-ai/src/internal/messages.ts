/**
 * `effect/ai`'s prompt -> Friendli's chat messages. Reasoning goes back as `reasoning_content`; tool calls that
 * the provider ran itself are not sent back; a tool result is its JSON text.
 */
import type { Message, UserMessageContentMultiModal } from "@friendli-stream/core"
import type * as Prompt from "effect/ai/Prompt"

const base64Of = (bytes: Uint8Array): string => {
  let binary = ""
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

const filePart = (part: Prompt.FilePart): UserMessageContentMultiModal | undefined => {
  const url =
    typeof part.data === "string"
      ? /^[a-z]+:/i.test(part.data)
        ? part.data
        : `data:${part.mediaType};base64,${part.data}`
      : part.data instanceof Uint8Array
        ? `data:${part.mediaType};base64,${base64Of(part.data)}`
        : part.data.toString()
  const top = part.mediaType.split("/")[0]
  if (top === "image") return { type: "image_url", image_url: { url } }
  if (top === "audio") return { type: "audio_url", audio_url: { url } }
  if (top === "video") return { type: "video_url", video_url: { url } }
  return undefined
}

const resultText = (result: unknown): string => (typeof result === "string" ? result : JSON.stringify(result ?? null))

/** The chat messages of a prompt, and the file parts that could not be sent (their media types). */
export const toMessages = (prompt: Prompt.Prompt): { messages: Array<Message>; unsupported: Array<string> } => {
  const messages: Array<Message> = []
  const unsupported: Array<string> = []
  for (const message of prompt.content) {
    switch (message.role) {
      case "system":
        messages.push({ role: "system", content: message.content })
        break
      case "user": {
        const parts: Array<UserMessageContentMultiModal> = []
        for (const part of message.content) {
          if (part.type === "text") parts.push({ type: "text", text: part.text })
          else {
            const file = filePart(part)
            if (file === undefined) unsupported.push(part.mediaType)
            else parts.push(file)
          }
        }
        messages.push({
          role: "user",
          content: parts.every((p) => p.type === "text")
            ? parts.map((p) => (p as { text: string }).text).join("")
            : parts,
        })
        break
      }
      case "assistant": {
        let text = ""
        let reasoning = ""
        const toolCalls: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }> = []
        for (const part of message.content) {
          if (part.type === "text") text += part.text
          else if (part.type === "reasoning") reasoning += part.text
          else if (part.type === "tool-call" && !part.providerExecuted) {
            toolCalls.push({
              id: part.id,
              type: "function",
              function: { name: part.name, arguments: JSON.stringify(part.params ?? {}) },
            })
          }
        }
        messages.push({
          role: "assistant",
          content: text === "" && toolCalls.length > 0 ? null : text,
          ...(reasoning === "" ? {} : { reasoning_content: reasoning }),
          ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
        })
        break
      }
      case "tool":
        for (const part of message.content) {
          if (part.type !== "tool-result" || part.providerExecuted) continue
          messages.push({ role: "tool", tool_call_id: part.id, content: resultText(part.result) })
        }
        break
    }
  }
  return { messages, unsupported }
}
