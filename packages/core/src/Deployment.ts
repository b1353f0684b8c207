/**
 * Where a Friendli model is served, and the base URL of each kind.
 *
 * @since 0.1.0
 */

/**
 * The three kinds of Friendli deployment.
 *
 * - `serverless`: shared models at `https://api.friendli.ai/serverless`.
 * - `dedicated`: your own endpoint at `https://api.friendli.ai/dedicated`; `model` is the endpoint id.
 * - `container`: a self-hosted Friendli Container, by default at `http://localhost:8000`.
 *
 * @since 0.1.0
 */
export type DeploymentKind = "serverless" | "dedicated" | "container"

/**
 * Every deployment kind, in a stable order.
 *
 * @since 0.1.0
 */
export const deploymentKinds: ReadonlyArray<DeploymentKind> = ["serverless", "dedicated", "container"]

/**
 * The default base URL of each deployment kind, without the `/v1` path.
 *
 * @since 0.1.0
 */
export const defaultBaseUrls: Readonly<Record<DeploymentKind, string>> = {
  serverless: "https://api.friendli.ai/serverless",
  dedicated: "https://api.friendli.ai/dedicated",
  container: "http://localhost:8000",
}

/**
 * The streaming endpoints, relative to a base URL.
 *
 * @since 0.1.0
 */
export type EndpointPath = "/v1/completions" | "/v1/chat/completions" | "/tools/v1/chat/completions"

/**
 * Tells whether a string names a deployment kind.
 *
 * @since 0.1.0
 */
export const isDeploymentKind = (u: unknown): u is DeploymentKind =>
  u === "serverless" || u === "dedicated" || u === "container"

/**
 * Joins a base URL (default: the deployment kind's) and an endpoint path, with exactly one slash between.
 *
 * @example
 * endpointUrl("dedicated", "/v1/completions") // "https://api.friendli.ai/dedicated/v1/completions"
 * endpointUrl("container", "/v1/completions", "http://gpu-box:8000/") // "http://gpu-box:8000/v1/completions"
 *
 * @since 0.1.0
 */
export const endpointUrl = (kind: DeploymentKind, path: EndpointPath, baseUrl?: string): string => {
  const base = baseUrl ?? defaultBaseUrls[kind]
  return base.replace(/\/+$/, "") + path
}
