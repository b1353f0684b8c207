/** The folder of the shared data: FRIENDLI_SHARED_DIR when set, else `shared/` beside the repository. */
export declare const sharedRoot: () => string
/** The absolute path of `<shared root>/<relative>`, whether or not it exists. */
export declare const sharedPath: (relative: string) => string
/** Why a test that reads `<shared root>/<relative>` cannot run here (for `it.skipIf`), or undefined when it can. */
export declare const sharedSkip: (relative: string) => string | undefined
/** The path of `<shared root>/<relative>`; throws an error that says what is missing when it is absent. */
export declare const requireShared: (relative: string) => string
