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
