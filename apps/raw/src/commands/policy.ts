import { resolve } from "node:path";
import { compactJson } from "@raw/host";
import { stringifyForDisplay } from "@raw/schema";
import { createPolicy, type PolicyExplanation } from "@raw/tool-api";
import type { ExpectedDecision, PolicyCase } from "@raw/validate";
import {
  displayPath,
  type FileReport,
  formatText,
  locate,
  placeIssue,
  readJsonFile,
  validateCasesValue,
} from "@raw/validate";
import { jsonOption, type ParsedCommand, parseCommand, stringOption } from "../support/args.js";
import { loadRulesFile, type RulesInput, ruleAt } from "../support/inputs.js";
import { type CliIo, cwdOf, EXIT_FAILURE, EXIT_OK } from "../support/io.js";
import { displayLine } from "../support/present.js";

/** The deciding rule of an explanation as written in the rules file, with its location. */
function decidingRule(rules: RulesInput, explanation: PolicyExplanation) {
  if (explanation.ruleIndex === null) return { rule: null, location: null };
  const found = ruleAt(rules, explanation.ruleIndex);
  return { rule: found?.rule ?? null, location: found?.location ?? null };
}

function ruleText(rules: RulesInput, explanation: PolicyExplanation): string {
  if (explanation.ruleIndex === null) return "no rule applies (the default is allow)";
  const { rule, location } = decidingRule(rules, explanation);
  return `rule ${explanation.ruleIndex} at ${displayLine(String(location))}: ${compactJson(rule)}`;
}

async function explainCommand(args: ParsedCommand, io: CliIo): Promise<number> {
  const usage = args.usage;
  const format = stringOption(args, "format") as "text" | "json";
  const rulesPath = stringOption(args, "rules") as string;
  const cwd = cwdOf(io);
  const argsValue = stringOption(args, "args");
  const effectsValue = stringOption(args, "effects");
  const callArgs = argsValue === undefined ? undefined : await jsonOption(argsValue, "args", cwd, usage);
  const effects =
    effectsValue === undefined ? undefined : await jsonOption(effectsValue, "effects", cwd, usage);
  const loaded = await loadRulesFile(rulesPath, cwd);
  if (!loaded.ok) {
    io.stderr.write(formatText([loaded.report]));
    return EXIT_FAILURE;
  }
  const rules = loaded.input;
  const identity = args.positionals[0] as string;
  const explanation =
    callArgs === undefined && effects === undefined
      ? createPolicy(rules.rules).explain(identity)
      : createPolicy(rules.rules).explain(identity, callArgs ?? {}, effects);
  if (format === "json") {
    const body = { identity, ...explanation, ...decidingRule(rules, explanation) };
    io.stdout.write(`${stringifyForDisplay(body, 2)}\n`);
  } else {
    io.stdout.write(
      `${displayLine(identity)}\n  decision  ${explanation.decision}\n  hidden    ${explanation.hidden}\n  decided   ${ruleText(rules, explanation)}\n`,
    );
  }
  return EXIT_OK;
}

function matches(expect: ExpectedDecision, explanation: PolicyExplanation): boolean {
  if (expect === "hidden") return explanation.hidden;
  return explanation.decision === expect;
}

function actualOf(explanation: PolicyExplanation): ExpectedDecision {
  return explanation.hidden ? "hidden" : explanation.decision;
}

async function testCommand(args: ParsedCommand, io: CliIo): Promise<number> {
  const format = stringOption(args, "format") as "text" | "json";
  const cwd = cwdOf(io);
  const [rulesPath, casesPath] = args.positionals as [string, string];
  const loaded = await loadRulesFile(rulesPath, cwd);
  const casesAbsolute = resolve(cwd, casesPath);
  const casesFile = displayPath(casesAbsolute, cwd);
  const read = await readJsonFile(casesAbsolute, casesFile);
  const reports: FileReport[] = [];
  if (!loaded.ok) reports.push(loaded.report);
  if (!read.ok) {
    reports.push({
      file: casesFile,
      kind: "cases",
      ok: false,
      issues: [locate({ code: read.code, message: read.detail }, read.position)],
      warnings: [],
    });
  } else {
    const issues = await validateCasesValue(read.value);
    if (issues.length > 0) {
      const located = issues.map((issue) => placeIssue(issue, read.source));
      reports.push({ file: casesFile, kind: "cases", ok: false, issues: located, warnings: [] });
    }
  }
  if (reports.length > 0 || !loaded.ok || !read.ok) {
    io.stderr.write(formatText(reports));
    return EXIT_FAILURE;
  }
  const rules = loaded.input;
  const policy = createPolicy(rules.rules);
  const cases = (read.value as { cases: PolicyCase[] }).cases;
  const outcomes = cases.map((entry, index) => {
    const explanation =
      entry.arguments === undefined && entry.effects === undefined
        ? policy.explain(entry.identity)
        : policy.explain(entry.identity, entry.arguments ?? {}, entry.effects);
    const at = read.source.positionOf(`/cases/${index}`);
    const decided = decidingRule(rules, explanation);
    return {
      index,
      name: entry.name ?? null,
      identity: entry.identity,
      expect: entry.expect,
      actual: actualOf(explanation),
      ok: matches(entry.expect, explanation),
      explanation,
      caseLocation: `${casesFile}:${at.line}:${at.column}`,
      rule: decided.rule,
      ruleLocation: decided.location,
    };
  });
  const failed = outcomes.filter((o) => !o.ok).length;
  if (format === "json") {
    const body = {
      ok: failed === 0,
      summary: { passed: outcomes.length - failed, failed },
      cases: outcomes.map((o) => ({
        index: o.index,
        name: o.name,
        identity: o.identity,
        expect: o.expect,
        actual: o.actual,
        ok: o.ok,
        decision: o.explanation.decision,
        ruleIndex: o.explanation.ruleIndex,
        hidden: o.explanation.hidden,
        rule: o.rule,
        ruleLocation: o.ruleLocation,
        caseLocation: o.caseLocation,
      })),
    };
    io.stdout.write(`${stringifyForDisplay(body, 2)}\n`);
  } else {
    const lines: string[] = [];
    for (const o of outcomes) {
      const identity = displayLine(o.identity);
      const label = o.name === null ? identity : `${displayLine(o.name)} (${identity})`;
      const at = displayLine(o.caseLocation);
      if (o.ok) {
        lines.push(`ok    ${at}  ${label}: ${o.actual}`);
      } else {
        lines.push(`FAIL  ${at}  ${label}: expected ${o.expect}, got ${o.actual}`);
        lines.push(`      decided by ${ruleText(rules, o.explanation)}`);
      }
    }
    lines.push("", `${outcomes.length - failed} passed, ${failed} failed`);
    io.stdout.write(`${lines.join("\n")}\n`);
  }
  return failed === 0 ? EXIT_OK : EXIT_FAILURE;
}

/** `raw policy explain ...` and `raw policy test <rules.json> <cases.json>`. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parseCommand("policy", argv);
  return args.sub === "explain" ? explainCommand(args, io) : testCommand(args, io);
}
