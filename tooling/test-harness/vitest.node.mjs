// The Node suite of the package in the working directory. run-suite.mjs passes this file as --config.
import { nodeConfig } from "./src/config.ts"

export default nodeConfig()
