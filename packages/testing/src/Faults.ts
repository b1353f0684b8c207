/**
 * Fault switches: parse and document the specs that make one request misbehave.
 *
 * @since 0.1.0
 */
export type { FaultPlan } from "./internal/faults.ts"
export {
  FAULT_HEADER,
  FAULT_PATH_PREFIX,
  FAULT_QUERY,
  FAULT_SWITCHES,
  FaultSpecError,
  parseFaultSpec,
} from "./internal/faults.ts"

/**
 * A fault spec that paces a stream like a live model server: 150 ms to the first byte, then 25 ms between events.
 * The demos use it so that tokens are seen arriving.
 *
 * @example
 * const mock = createMockFriendli({ faults: LIVE_PACING })
 *
 * @since 0.1.0
 */
export const LIVE_PACING = "delay-first:150,delay:25"
