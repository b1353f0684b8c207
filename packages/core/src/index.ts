/**
 * `@friendli-stream/core`: the Friendli streaming API as types, Effect Schemas and compiled validators.
 *
 * @since 0.1.0
 */
export * from "./Deployment.ts"
