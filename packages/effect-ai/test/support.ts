// The mock Friendli endpoint on a real socket, and the LanguageModel layer pointed at it.
import { FriendliClient } from "@friendli-stream/client"
import { createMockFriendli, jsonSent, type MockFriendli, type RequestRecord } from "@friendli-stream/testing"
import { type RunningServer, serveNode } from "@friendli-stream/testing/node"
import type * as LanguageModel from "effect/ai/LanguageModel"
import * as Layer from "effect/Layer"
import { FriendliLanguageModel } from "../src/index.ts"

export const TOKEN = "flp_test_token"
export const MODEL = "meta-llama-3.1-8b-instruct"

export interface Harness {
  readonly mock: MockFriendli
  readonly server: RunningServer
  /** The model on the mock's serverless API (no retries); `faults` go in the base URL. */
  readonly layer: (options?: {
    readonly faults?: string | undefined
    readonly fields?: FriendliLanguageModel.Fields | undefined
  }) => Layer.Layer<LanguageModel.LanguageModel, unknown>
  readonly close: () => Promise<void>
}

export const startMock = async (): Promise<Harness> => {
  const mock = createMockFriendli({ tokens: [TOKEN] })
  const server = await serveNode(mock)
  return {
    mock,
    server,
    layer: ({ faults, fields } = {}) =>
      FriendliLanguageModel.layer({ model: MODEL, fields }).pipe(
        Layer.provide(
          FriendliClient.layer({
            token: TOKEN,
            baseURL: `${server.url}${faults === undefined ? "" : `/_fault/${faults}`}/serverless`,
            maxRetries: 0,
          }),
        ),
        Layer.provide(FriendliClient.fetchHttpClient()),
      ),
    close: () => server.close(),
  }
}

type Choice = {
  index: number
  delta?: { content?: string | null; reasoning_content?: string | null }
  message?: { content?: string | null }
}

/** Choice 0's text (or reasoning) in what the mock sent, streamed or whole. */
export const sentText = (record: RequestRecord, field: "content" | "reasoning_content" = "content"): string =>
  jsonSent(record)
    .flatMap((c) => (c.choices as Array<Choice> | undefined) ?? [])
    .filter((c) => c.index === 0)
    .map(
      (c) =>
        (c.delta as Record<string, string | null | undefined> | undefined)?.[field] ??
        (c.message as Record<string, string | null | undefined> | undefined)?.[field] ??
        "",
    )
    .join("")
