/**
 * The AI SDK's prompt -> Friendli's messages (chat) or one prompt text (completions). Images, audio and video
 * go as URL content parts (data URLs for inline bytes); reasoning goes back as `reasoning_content`; tool calls the
 * provider ran itself (built-in tools) are not sent back, as Friendli runs them again from the conversation.
 */
import {
  InvalidPromptError,
  type LanguageModelV4FilePart,
  type LanguageModelV4Prompt,
  type LanguageModelV4ToolResultOutput,
  UnsupportedFunctionalityError,
} from "@ai-sdk/provider"
import type { Message, UserMessageContentMultiModal } from "@friendli-stream/core"

const base64Of = (bytes: Uint8Array): string => {
  let binary = ""
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

const urlOfFile = (part: LanguageModelV4FilePart): string => {
  const data = part.data
  switch (data.type) {
    case "url":
      return data.url.toString()
    case "data": {
      const b64 = typeof data.data === "string" ? data.data : base64Of(data.data)
      const mediaType = part.mediaType.includes("/") ? part.mediaType : `${part.mediaType}/*`
      return `data:${mediaType};base64,${b64}`
    }
    default:
      throw new UnsupportedFunctionalityError({
        functionality: `file parts given as ${data.type}`,
        message: `Friendli takes files as a URL or as bytes; a file given as "${data.type}" cannot be sent.`,
      })
  }
}

const filePart = (part: LanguageModelV4FilePart): UserMessageContentMultiModal => {
  const top = part.mediaType.split("/")[0]
  const url = urlOfFile(part)
  if (top === "image") return { type: "image_url", image_url: { url } }
  if (top === "audio") return { type: "audio_url", audio_url: { url } }
  if (top === "video") return { type: "video_url", video_url: { url } }
  throw new UnsupportedFunctionalityError({
    functionality: `file parts of type ${part.mediaType}`,
    message: `Friendli's chat takes images, audio and video; a ${part.mediaType} file cannot be sent.`,
  })
}

const toolOutputText = (output: LanguageModelV4ToolResultOutput): string => {
  switch (output.type) {
    case "text":
    case "error-text":
      return output.value
    case "json":
    case "error-json":
      return JSON.stringify(output.value)
    case "execution-denied":
      return output.reason ?? "The tool call was denied."
    case "content":
      return output.value.map((part) => (part.type === "text" ? part.text : "")).join("")
  }
}

/** The chat messages of a prompt. */
export const toChatMessages = (prompt: LanguageModelV4Prompt): Array<Message> => {
  const messages: Array<Message> = []
  for (const message of prompt) {
    switch (message.role) {
      case "system":
        messages.push({ role: "system", content: message.content })
        break
      case "user": {
        if (message.content.every((part) => part.type === "text")) {
          messages.push({ role: "user", content: message.content.map((part) => part.text).join("") })
        } else {
          messages.push({
            role: "user",
            content: message.content.map((part) =>
              part.type === "text" ? { type: "text" as const, text: part.text } : filePart(part),
            ),
          })
        }
        break
      }
      case "assistant": {
        let text = ""
        let reasoning = ""
        const toolCalls: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }> = []
        for (const part of message.content) {
          if (part.type === "text") text += part.text
          else if (part.type === "reasoning") reasoning += part.text
          else if (part.type === "tool-call" && part.providerExecuted !== true) {
            toolCalls.push({
              id: part.toolCallId,
              type: "function",
              function: {
                name: part.toolName,
                arguments: typeof part.input === "string" ? part.input : JSON.stringify(part.input ?? {}),
              },
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
          if (part.type !== "tool-result") continue
          messages.push({ role: "tool", tool_call_id: part.toolCallId, content: toolOutputText(part.output) })
        }
        break
    }
  }
  return messages
}

/** The prompt text of a completion: the messages' texts, in order, one paragraph each. */
export const toCompletionPrompt = (prompt: LanguageModelV4Prompt): string => {
  const texts: Array<string> = []
  for (const message of prompt) {
    if (message.role === "system") texts.push(message.content)
    else if (message.role === "user" || message.role === "assistant") {
      for (const part of message.content) {
        if (part.type === "text") texts.push(part.text)
        else {
          throw new InvalidPromptError({
            prompt,
            message: `A completion model takes text only; the prompt has a ${part.type} part. Use friendli.chat(model).`,
          })
        }
      }
    } else {
      throw new InvalidPromptError({
        prompt,
        message: "A completion model takes text only; the prompt has tool results. Use friendli.chat(model).",
      })
    }
  }
  return texts.join("\n\n")
}
