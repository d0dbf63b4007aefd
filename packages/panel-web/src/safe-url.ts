/** URL schemes a link in panel markdown may use; anything else is shown as text, never as a live link. */
export const ALLOWED_LINK_SCHEMES: readonly string[] = Object.freeze(["https:", "http:", "mailto:"]);

/**
 * Whether a link target from an untrusted document may become a live link: an absolute URL with an allowed
 * scheme (`javascript:`, `data:`, `vbscript:`, `file:` and relative targets are refused). Control characters and
 * whitespace that browsers strip before parsing a scheme are refused outright.
 */
export function isAllowedLink(target: string): boolean {
  if (/[\u0000-\u0020\u007f-\u009f]/u.test(target)) return false;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return false;
  }
  return ALLOWED_LINK_SCHEMES.includes(url.protocol);
}
