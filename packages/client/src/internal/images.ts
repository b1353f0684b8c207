/**
 * Image generation and edits, the client's half: `POST /v1/images/generations` and `/v1/images/edits` on a
 * dedicated endpoint or a container, each checked with its deployment's Schema; JSON bodies (an edit's images are
 * URLs or base64 `data:` URLs, as Friendli's description says), request/response only.
 */
import * as Core from "@friendli-stream/core"
import * as Schema from "effect/Schema"
import type { ResponseSpec } from "./engine.ts"
import { type Endpoint, jsonEndpoint } from "./request.ts"

/** The image endpoints of one deployment kind. */
export interface ImageEndpoints {
  readonly imageGenerations: Endpoint
  readonly imageEdits: Endpoint
}

const dedicated: ImageEndpoints = {
  imageGenerations: jsonEndpoint(
    "image generation",
    "/v1/images/generations",
    Core.isDedicatedImageGenerationBody,
    Core.DedicatedImageGenerationBody,
    false,
  ),
  imageEdits: jsonEndpoint(
    "image edit",
    "/v1/images/edits",
    Core.isDedicatedImageEditBody,
    Core.DedicatedImageEditBody,
    false,
  ),
}

const container: ImageEndpoints = {
  imageGenerations: jsonEndpoint(
    "image generation",
    "/v1/images/generations",
    Core.isContainerImageGenerationBody,
    Core.ContainerImageGenerationBody,
    false,
  ),
  imageEdits: jsonEndpoint(
    "image edit",
    "/v1/images/edits",
    Core.isContainerImageEditBody,
    Core.ContainerImageEditBody,
    false,
  ),
}

/** The image endpoints of a deployment kind (serverless has none: its calls fail before they are sent). */
export const imageEndpointsFor = (kind: Core.DeploymentKind): ImageEndpoints =>
  kind === "container" ? container : dedicated

/** The check of an image answer: a dedicated endpoint's `{data: [...]}` or a container's `{image}`. */
export const imagesResponse: ResponseSpec<Core.DedicatedImageGenerateSuccess | Core.ContainerImageGenerateSuccess> = {
  guard: (u) => Core.isDedicatedImageGenerateSuccess(u) || Core.isContainerImageGenerateSuccess(u),
  schema: Schema.Union([Core.DedicatedImageGenerateSuccess, Core.ContainerImageGenerateSuccess]),
}

/** The deployment kinds that serve images, and what a call elsewhere is told. */
export const IMAGES_DEPLOYMENTS = {
  kinds: ["dedicated", "container"],
  needs: "images need a dedicated endpoint or a Friendli Container (serverless has no image API)",
} as const
