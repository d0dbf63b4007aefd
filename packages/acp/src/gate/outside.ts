/** Escapes one character for an RE2 pattern (outside and inside a character class). */
function literal(char: string): string {
  return /[\\^$.|?*+()[\]{}-]/.test(char) ? `\\${char}` : char;
}

/**
 * An RE2 pattern (`predicates.md`) that matches an absolute path **outside** `folder` (anything but the folder and
 * paths under it): for a conditional `ask` rule on `files[*].path`, which cannot negate a prefix otherwise. `folder`
 * is absolute, without a trailing `/`.
 */
export function outsideFolderPattern(folder: string): string {
  const chars = [...`${folder.replace(/\/+$/, "")}/`];
  let inner = `[^${literal(chars[chars.length - 1] as string)}]`;
  for (let i = chars.length - 2; i >= 0; i--) {
    const c = literal(chars[i] as string);
    inner = `(?:[^${c}]|$|${c}${inner})`;
  }
  return `^${inner}`;
}
