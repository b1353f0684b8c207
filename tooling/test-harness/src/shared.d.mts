/** The absolute path of `shared/<relative>` (the folder beside the repository), whether or not it exists. */
export declare const sharedPath: (relative: string) => string
/** `shared/<relative>` when it exists; absent: throws in CI, else logs the skip and returns undefined. */
export declare const requireShared: (relative: string) => string | undefined
