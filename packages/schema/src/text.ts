/** The length of the UTF-8 encoding of `s` in bytes (a lone surrogate counts as the 3 bytes of U+FFFD). */
export function utf8Bytes(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** The number of Unicode code points in `s` (a lone surrogate counts as one). */
export function codePoints(s: string): number {
  let count = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** The longest prefix of `s` made of whole code points whose UTF-8 length is at most `maxBytes`. */
export function truncateUtf8(s: string, maxBytes: number): string {
  if (maxBytes <= 0) return "";
  if (s.length * 3 <= maxBytes) return s;
  let bytes = 0;
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    let width = 1;
    let units = 1;
    if (c >= 0x80 && c < 0x800) width = 2;
    else if (c >= 0x800) {
      width = 3;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
        const d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          width = 4;
          units = 2;
        }
      }
    }
    if (bytes + width > maxBytes) break;
    bytes += width;
    i += units;
  }
  return s.slice(0, i);
}
