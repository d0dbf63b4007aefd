/** Placeholder until the package lands. */
export const PACKAGE_PENDING = true;
