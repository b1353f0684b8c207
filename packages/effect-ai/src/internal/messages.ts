/**
 * `effect/ai`'s prompt -> Friendli's chat messages, through the provider core (`@friendli-stream/client/provider`):
 * this file only reads `effect/ai`'s parts. A file given as text is a URL when it has a scheme, else base64.
 */
import * as Provider from "@friendli-stream/client/provider"
import type { Message, UserMessageContentMultiModal } from "@friendli-stream/core"
import type * as Prompt from "effect/ai/Prompt"

const urlOf = (part: Prompt.FilePart): string =>
  typeof part.data === "string"
    ? /^[a-z]+:/i.test(part.data)
      ? part.data
      : Provider.dataUrlOf(part.mediaType, part.data)
    : part.data instanceof Uint8Array
      ? Provider.dataUrlOf(part.mediaType, part.data)
      : part.data.toString()

const toolCallOf = (part: Prompt.AssistantMessagePart): Provider.ToolCallPiece | undefined =>
  part.type !== "tool-call"
    ? undefined
    : {
        id: part.id,
        name: part.name,
        arguments: JSON.stringify(part.params ?? {}),
        providerExecuted: part.providerExecuted === true,
      }

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
            const content = Provider.mediaContentOf(part.mediaType, urlOf(part))
            if (content === undefined) unsupported.push(part.mediaType)
            else parts.push(content)
          }
        }
        messages.push(Provider.userMessage(parts))
        break
      }
      case "assistant":
        messages.push(Provider.assistantMessage(message.content, toolCallOf))
        break
      case "tool":
        for (const part of message.content) {
          if (part.type !== "tool-result" || part.providerExecuted) continue
          messages.push(Provider.toolMessage(part.id, part.result))
        }
        break
    }
  }
  return { messages, unsupported }
}
