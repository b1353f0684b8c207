// The mock served by Bun.serve on a real socket.
import { serveBun } from "../../src/Bun.ts"
import { serveSuite } from "../support/serveSuite.ts"

serveSuite("serveBun", serveBun)
