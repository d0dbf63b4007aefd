/**
 * The conservative coverage check of tool-api.md §9.6: true when glob `g`'s tokens (`*`, `?`, literal code points)
 * can consume glob `f`'s token sequence. A literal of `g` consumes the same literal of `f`; a `?` of `g` consumes one
 * literal or one `?` of `f`; a `*` of `g` consumes any run of `f`'s tokens (possibly empty, `*` included); a `*` of
 * `f` is consumed only by a `*` of `g`. When it is true, `g` matches every identity `f` matches.
 */
export function globCovers(g: string, f: string): boolean {
  const gt = Array.from(g);
  const ft = Array.from(f);
  const n = ft.length;
  // row[j]: g's tokens so far can consume exactly f's first j tokens.
  let row: boolean[] = new Array<boolean>(n + 1).fill(false);
  row[0] = true;
  for (const token of gt) {
    const next: boolean[] = new Array<boolean>(n + 1).fill(false);
    if (token === "*") {
      let reachable = false;
      for (let j = 0; j <= n; j++) {
        reachable ||= row[j] === true;
        next[j] = reachable;
      }
    } else {
      for (let j = 1; j <= n; j++) {
        if (row[j - 1] !== true) continue;
        const other = ft[j - 1];
        next[j] = token === "?" ? other !== "*" : other === token;
      }
    }
    row = next;
  }
  return row[n] === true;
}
