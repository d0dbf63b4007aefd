export const PACKAGE_PENDING = true;
