import { ContractError } from "@raw/schema";

/** A coded store failure: `<code>: <text>`, never a driver's message or stack. */
export function storeError(code: string, text: string): ContractError {
  return new ContractError(code, `${code}: ${text}`);
}

/** The SQLite error code of a driver error (`SQLITE_NOTADB`, ...), if any. */
export function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}
