// The files of a run's report directory, every one rendered from the report and passed through the run's
// scrubber, so that no secret the run knows reaches a file whatever quoted it.
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeAllureResults } from './allure-results.ts';
import { renderCoverageMarkdown } from './coverage.ts';
import { renderHtml } from './html.ts';
import { renderJunit } from './junit.ts';
import { UsageError } from '../runner/usage-error.ts';
import type { ConformanceReport } from './model.ts';

/** The report directory took no files (full disk, permissions): the user's to fix, exit 2. */
export class ReportWriteError extends UsageError {}

/** The files every run writes to its report directory (and allure-results/ when asked). */
export const REPORT_FILES = ['report.json', 'junit.xml', 'report.html', 'coverage.md'] as const;

/**
 * Writes report.json, junit.xml, report.html, coverage.md (and allure-results/); returns what was written beside
 * report.json, and `files`: every file written, relative to `dir`.
 */
export async function writeReports(
  dir: string,
  report: ConformanceReport,
  scrub: (text: string) => string,
  options: { allure?: boolean; say?: (line: string) => void } = {},
): Promise<{ file: string; outputs: string[]; files: string[] }> {
  const file = join(dir, 'report.json');
  try {
    await writeFile(file, scrub(JSON.stringify(report, null, 2)) + '\n');
    await writeFile(join(dir, 'junit.xml'), scrub(renderJunit(report)));
    await writeFile(join(dir, 'report.html'), scrub(renderHtml(report)));
    await writeFile(join(dir, 'coverage.md'), scrub(renderCoverageMarkdown(report.coverage, report.channels)));
  } catch (error) {
    throw new ReportWriteError(`cannot write the reports to ${dir}: ${(error as Error).message}`);
  }
  const outputs = REPORT_FILES.slice(1) as string[];
  const files: string[] = [...REPORT_FILES];
  if (options.allure) {
    // Replayed from the written (scrubbed) report.json.
    const allure = await writeAllureResults(file, join(dir, 'allure-results'));
    if ('files' in allure) {
      outputs.push(`allure-results/ (${allure.files} results)`);
      files.push(...(await readdir(join(dir, 'allure-results'))).sort().map((f) => `allure-results/${f}`));
    } else options.say?.(`Allure results not written: ${allure.error}`);
  }
  return { file, outputs, files };
}
