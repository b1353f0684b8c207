// The workerd suite of the package in the working directory, for a package whose Worker needs no options.
import { workerdConfig } from "./src/config.ts"

export default workerdConfig()
