/**
 * `@friendli-stream/core`: the Friendli streaming API as types, Effect Schemas and compiled validators.
 *
 * For each component schema `X` of `openapi/friendli.yaml` (derived from Friendli's published API description) and
 * `openapi/compatible.yaml` (our compatible-mode and error schemas) there is an Effect Schema `X`, its decoded type
 * `X`, its wire type `XEncoded` and a compiled guard `isX` (a value it accepts is already the decoded `X`).
 *
 * @since 0.1.0
 */
import "./internal/requireNode.ts"

/**
 * Deployment kinds and their base URLs.
 *
 * @since 0.1.0
 */
export * from "./Deployment.ts"
/**
 * The generated Schemas, guards and types (see `openapi/friendli.yaml`).
 *
 * @since 0.1.0
 */
export * from "./generated/index.ts"
