/** Largest serialized effects value, in UTF-8 bytes (effects.md §4 step 4): 65,536 passes, 65,537 fails. */
export const MAX_EFFECTS_BYTES = 65_536;

/** Largest patch text, in UTF-8 bytes (effects.md §7.1). */
export const MAX_PATCH_BYTES = 1_048_576;

/** Most targets (sources plus Move destinations) one patch may name (effects.md §7.5); the 65th fails. */
export const MAX_PATCH_TARGETS = 64;

/** Line visits hunk matching may spend across one whole patch (effects.md §8.3.1). */
export const MAX_MATCHING_VISITS = 8_000_000;

/** Most lines a patch source or a staged content may have (effects.md §8.3.1). */
export const MAX_STAGED_LINES = 200_000;

/** Largest patch source file, in bytes (effects.md §8.3.1). */
export const MAX_SOURCE_BYTES = 16_777_216;

/** Most bytes (sources plus new contents) one patch may stage (effects.md §8.3.1). */
export const MAX_STAGED_BYTES = 67_108_864;
