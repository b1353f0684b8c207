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
import {
  argumentsText,
  assistantMessage,
  dataUrlOf,
  mediaContentOf,
  toolMessage,
  userMessage,
} from "@friendli-stream/client/provider"
import type { Message, UserMessageContentMultiModal } from "@friendli-stream/core"

const filePart = (part: LanguageModelV4FilePart): UserMessageContentMultiModal => {
  const data = part.data
  if (data.type !== "url" && data.type !== "data") {
    throw new UnsupportedFunctionalityError({
      functionality: `file parts given as ${data.type}`,
      message: `Friendli takes files as a URL or as bytes; a file given as "${data.type}" cannot be sent.`,
    })
  }
  const url = data.type === "url" ? data.url.toString() : dataUrlOf(part.mediaType, data.data)
  const content = mediaContentOf(part.mediaType, url)
  if (content !== undefined) return content
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
      case "user":
        messages.push(
          userMessage(
            message.content.map((part) =>
              part.type === "text" ? { type: "text" as const, text: part.text } : filePart(part),
            ),
          ),
        )
        break
      case "assistant":
        messages.push(
          assistantMessage(message.content, (part) =>
            part.type !== "tool-call"
              ? undefined
              : {
                  id: part.toolCallId,
                  name: part.toolName,
                  arguments: argumentsText(part.input),
                  providerExecuted: part.providerExecuted === true,
                },
          ),
        )
        break
      case "tool":
        for (const part of message.content) {
          if (part.type !== "tool-result") continue
          messages.push(toolMessage(part.toolCallId, toolOutputText(part.output)))
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
