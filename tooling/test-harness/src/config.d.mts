import type { ViteUserConfig } from "vitest/config"

export interface PackageTestSettings {
  /** Default test and hook timeout in milliseconds on vitest (default 5000). */
  readonly testTimeout?: number
  /** Extra `@cloudflare/vitest-pool-workers` options for the workerd suite. */
  readonly workerd?: {
    readonly main?: string
    readonly wrangler?: { readonly configPath?: string; readonly environment?: string }
    readonly miniflare?: Record<string, unknown> & { readonly compatibilityFlags?: ReadonlyArray<string> }
    /** A vitest global setup file (run in Node before the pool starts), relative to the package. */
    readonly globalSetup?: string
    /** Names of values the global setup `provide`s that become string bindings of the Worker (`env.NAME`). */
    readonly injectBindings?: ReadonlyArray<string>
  }
}

export declare const COMPATIBILITY_DATE: string
export declare const packageSettings: (packageDir: string) => PackageTestSettings
export declare const nodeConfig: (options?: { readonly root?: string }) => ViteUserConfig
export declare const workerdConfig: (options?: { readonly root?: string }) => Promise<ViteUserConfig>
