// The workerd suite of the package in the working directory. run-suite.mjs passes this file as --config.
import { workerdConfig } from "./src/config.ts"

export default workerdConfig()
