// The Node suite (Node 22 and 24) of the package in the working directory: `vitest run --config <this>`.
import { nodeConfig } from "./src/config.ts"

export default nodeConfig()
