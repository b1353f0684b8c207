/**
 * The image model: `generateImage` through the client's `images.generate` (`/v1/images/generations`), or, when the
 * prompt has images, `images.edit` (`/v1/images/edits`, each image a URL or a base64 `data:` URL), on a dedicated
 * endpoint or a container (on serverless the client fails with `InvalidRequestError`, nothing sent). Friendli makes
 * one image per request and takes no size, aspect ratio or mask: those are warnings. A dedicated endpoint is asked
 * for `png` (base64 in the answer) unless `providerOptions.friendli.responseFormat` says otherwise; a `url` answer
 * is downloaded through the provider's `fetch`.
 */
import {
  APICallError,
  type ImageModelV4,
  type ImageModelV4CallOptions,
  type ImageModelV4Result,
  type SharedV4ProviderOptions,
  type SharedV4Warning,
} from "@ai-sdk/provider"
import type { FriendliClient } from "@friendli-stream/client"
import { resolveForCall, runCreate } from "./call.ts"
import type { ModelConfig } from "./embedding.ts"
import { checkProviderOptions, type Fields, isNumber } from "./options.ts"

/**
 * `providerOptions.friendli` of `generateImage`: Friendli's image fields the AI SDK's call options do not cover.
 *
 * @since 0.3.0
 */
export interface FriendliImageOptions {
  /** `num_inference_steps`, 1 to 50 (Friendli's default 20). @since 0.3.0 */
  readonly numInferenceSteps?: number | undefined
  /** `guidance_scale`: how closely the image follows the prompt. @since 0.3.0 */
  readonly guidanceScale?: number | undefined
  /**
   * `response_format`: a dedicated endpoint's `url`, `raw`, `png` (the provider's default), `jpeg`, `jpg`; a
   * container's `raw` or `jpeg` (its default). @since 0.3.0
   */
  readonly responseFormat?: "url" | "raw" | "png" | "jpeg" | "jpg" | undefined
}

const FORMATS = ["url", "raw", "png", "jpeg", "jpg"]

const FIELDS: Fields<FriendliImageOptions> = {
  numInferenceSteps: { check: (u) => Number.isInteger(u) && (u as number) >= 1, expected: "an integer from 1 to 50" },
  guidanceScale: { check: isNumber, expected: "a number" },
  responseFormat: { check: (u) => FORMATS.includes(u as string), expected: FORMATS.map((f) => `"${f}"`).join(", ") },
}

const readImageOptions = (
  providerOptions: SharedV4ProviderOptions | undefined,
  warnings: Array<SharedV4Warning>,
): FriendliImageOptions => checkProviderOptions(providerOptions, FIELDS, warnings)

const base64Of = (bytes: Uint8Array): string => {
  let binary = ""
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

/** An AI SDK file as Friendli's `ImageInput`: its URL, or its bytes as a base64 `data:` URL. */
const imageInputOf = (file: NonNullable<ImageModelV4CallOptions["files"]>[number]): { image: string } =>
  file.type === "url"
    ? { image: file.url }
    : {
        image: `data:${file.mediaType};base64,${typeof file.data === "string" ? file.data : base64Of(file.data)}`,
      }

/** A Friendli image model of the AI SDK's specification v4. */
export class FriendliImageModel implements ImageModelV4 {
  readonly specificationVersion = "v4"
  readonly modelId: string
  /** Friendli answers one image per request (its bodies have no `n`). */
  readonly maxImagesPerCall = 1
  readonly supportsFileInputs = true
  readonly supportsMaskInputs = false
  private readonly config: ModelConfig

  constructor(modelId: string, config: ModelConfig) {
    this.modelId = modelId
    this.config = config
  }

  get provider(): string {
    return `${this.config.provider}.image`
  }

  async doGenerate(options: ImageModelV4CallOptions): Promise<ImageModelV4Result> {
    const warnings: Array<SharedV4Warning> = []
    const friendli = readImageOptions(options.providerOptions, warnings)
    for (const [feature, given] of [
      ["size", options.size],
      ["aspectRatio", options.aspectRatio],
      ["mask", options.mask],
    ] as const) {
      if (given !== undefined) {
        warnings.push({ type: "unsupported", feature, details: `Friendli's image API takes no ${feature}.` })
      }
    }
    const resolved = resolveForCall(this.config.settings, options.headers)
    const container = resolved.deployment === "container"
    const responseFormat = friendli.responseFormat ?? (container ? undefined : "png")
    const fields = {
      ...(container && this.modelId === "" ? {} : { model: this.modelId }),
      prompt: options.prompt ?? "",
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(friendli.numInferenceSteps === undefined ? {} : { num_inference_steps: friendli.numInferenceSteps }),
      ...(friendli.guidanceScale === undefined ? {} : { guidance_scale: friendli.guidanceScale }),
      ...(responseFormat === undefined ? {} : { response_format: responseFormat }),
    }
    const files = options.files ?? []
    const edit = files.length > 0
    const body = edit ? { ...fields, image: files.map(imageInputOf) } : fields
    const path = edit ? "/v1/images/edits" : "/v1/images/generations"
    const call = { http: this.config.http(), options: resolved, path, body, signal: options.abortSignal }
    const { value, headers } = edit
      ? await runCreate(call, (client) => client.images.edit(body as FriendliClient.ImageEditRequest))
      : await runCreate(call, (client) => client.images.generate(body as FriendliClient.ImageGenerationRequest))
    const timestamp = new Date()
    const response = { timestamp, modelId: this.modelId, headers }
    if ("image" in value) {
      return { images: [value.image], warnings, response, providerMetadata: { friendli: { images: [{}] } } }
    }
    const images = await Promise.all(
      value.data.map((item) => ("b64_json" in item ? item.b64_json : this.download(item.url, options.abortSignal))),
    )
    return {
      images,
      warnings,
      response,
      providerMetadata: {
        friendli: { images: value.data.map((item) => ({ seed: item.seed, responseFormat: item.response_format })) },
      },
    }
  }

  /** The image at a `url` answer as base64, through the provider's `fetch` (a `data:` URL is read the same way). */
  private async download(url: string, signal: AbortSignal | undefined): Promise<string> {
    const fetch = (this.config.settings.fetch ?? globalThis.fetch) as typeof globalThis.fetch
    const response = await fetch(url, signal === undefined ? {} : { signal })
    if (!response.ok) {
      throw new APICallError({
        message: `Friendli answered with the image's URL, and downloading it failed with status ${response.status}.`,
        url,
        requestBodyValues: {},
        statusCode: response.status,
        isRetryable: response.status >= 500,
      })
    }
    return base64Of(new Uint8Array(await response.arrayBuffer()))
  }
}
