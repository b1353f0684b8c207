/**
 * `POST /dedicated/v1/images/{generations,edits}` and `POST /v1/images/{generations,edits}` (container): a small
 * valid PNG for any prompt. Dedicated answers `{data: [{url | b64_json, seed, response_format}]}` (the `url` a
 * `data:` URL, so that it needs no server to fetch), the container `{image: <base64>}`.
 */
import * as Core from "@friendli-stream/core"
import type * as Schema from "effect/Schema"
import type { ValidationIssue } from "./errors.ts"
import { hashString } from "./prng.ts"
import { Checker, type Json } from "./validate.ts"

/** A 1x1 PNG (one red pixel), base64: what every image answer holds, whatever the `response_format`. */
export const MOCK_PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

type Read =
  | { readonly ok: true; readonly body: Json }
  | { readonly ok: false; readonly issues: ReadonlyArray<ValidationIssue> }

interface ImageFields {
  readonly prompt?: string
  readonly seed?: number | null | undefined
  readonly response_format?: string | null | undefined
}

const SCHEMAS: Readonly<Record<"dedicated" | "container", Record<"generations" | "edits", Schema.Decoder<unknown>>>> = {
  dedicated: { generations: Core.DedicatedImageGenerationBody, edits: Core.DedicatedImageEditBody },
  container: { generations: Core.ContainerImageGenerationBody, edits: Core.ContainerImageEditBody },
}

/** The answer of an image generation or edit request, or the issues that make it a 422. */
export const imagesBody = (body: unknown, deployment: "dedicated" | "container", op: "generations" | "edits"): Read => {
  const c = new Checker<ImageFields>(body, SCHEMAS[deployment][op] as Schema.Decoder<ImageFields>)
  if (c.issues.length > 0) return { ok: false, issues: c.issues }
  if (deployment === "container") return { ok: true, body: { image: MOCK_PNG_BASE64 } }
  const seed = c.request.seed ?? hashString(c.request.prompt ?? "") % 1_000_000
  const format = c.request.response_format ?? "url"
  return {
    ok: true,
    body: {
      data: [
        format === "url"
          ? { seed, response_format: format, url: `data:image/png;base64,${MOCK_PNG_BASE64}` }
          : { seed, response_format: format, b64_json: MOCK_PNG_BASE64 },
      ],
    },
  }
}
