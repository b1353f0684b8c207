/** Character codes the parsers compare against. */
export const LF = 0x0a
export const CR = 0x0d
export const SPACE = 0x20
export const COLON = 0x3a
export const LOWER_A = 0x61
export const LOWER_D = 0x64
export const LOWER_T = 0x74
