/**
 * `@friendli-stream/core`: the Friendli streaming API as types, Effect Schemas and compiled validators.
 *
 * For each component schema `X` of `openapi/friendli.yaml` there is an Effect Schema `X`, its decoded type
 * `X`, its wire type `XEncoded`, a compiled guard `isX` and an in-place normalizer `normalizeX`.
 *
 * @since 0.1.0
 */
/**
 * Deployment kinds and their base URLs.
 *
 * @since 0.1.0
 */
export * from "./Deployment.ts"
/**
 * The generated Schemas, guards, normalizers and types (see `openapi/friendli.yaml`).
 *
 * @since 0.1.0
 */
export * from "./generated/index.ts"
