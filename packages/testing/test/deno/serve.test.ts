// The mock served by Deno.serve on a real socket.
import { serveDeno } from "../../src/Deno.ts"
import { serveSuite } from "../support/serveSuite.ts"

serveSuite("serveDeno", serveDeno)
