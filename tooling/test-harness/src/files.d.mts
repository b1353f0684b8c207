export declare const RUNTIMES: readonly ["node22", "node24", "deno", "bun", "workerd"]
export type Runtime = (typeof RUNTIMES)[number]
export declare const RUNTIME_DIRS: { readonly [R in Runtime]: "node" | "deno" | "bun" | "workerd" }
export declare const testFiles: (packageDir: string, runtime: Runtime) => Array<string>
