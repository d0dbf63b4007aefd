import { type FileReport, formatReports, REPORT_FORMATS, type ReportFormat } from "./report.js";
import { ValidateInputError } from "./validate-error.js";
import type { ValidationReport } from "./validate-paths.js";

/**
 * Writes a report as `raw validate` does: `"text"` (one `file:line:col  code  message` line per issue, hints under
 * them), `"json"` (the report, two-space indented) or `"github"` (`::error file=…,line=…,col=…,title=…::message`
 * workflow annotations). Every untrusted string is escaped once for display (amendment A1); the GitHub format also
 * encodes `%`, CR and LF, and `:` and `,` in properties.
 */
export function formatReport(report: ValidationReport, format: ReportFormat = "text"): string {
  if (!REPORT_FORMATS.includes(format)) {
    throw new ValidateInputError(
      "invalid_format",
      `formatReport: format must be one of ${REPORT_FORMATS.join(", ")}`,
    );
  }
  if (typeof report !== "object" || report === null || !Array.isArray(report.files)) {
    throw new ValidateInputError(
      "invalid_report",
      "formatReport: report must be what validatePaths resolved to",
    );
  }
  return formatReports(report.files as FileReport[], format);
}
