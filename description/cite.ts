// What a requirement record quotes of the sentences it cites by number: their texts and their sections'
// headings. The record states neither by hand, so each sentence is written once, here in description/.
import type { Sentence } from './model.ts';
import { SENTENCE_SECTIONS } from './index.ts';

const BY_NUMBER: ReadonlyMap<string, Sentence & { heading: string }> = new Map(
  SENTENCE_SECTIONS.flatMap((section) => section.sentences.map((s) => [s.n, { ...s, heading: section.heading }] as const)),
);

/** The numbers among `numbers` that no sentence of the description has. */
export const unknownSentences = (numbers: readonly string[]): string[] => numbers.filter((n) => !BY_NUMBER.has(n));

/**
 * The cited sentences (known numbers only, see `unknownSentences`), in the order cited: their texts one after
 * another (a clause without its own full stop is closed with a semicolon) and their sections' headings, each once.
 */
export function quote(numbers: readonly string[]): { section: string; sentence: string } {
  const cited = numbers.map((n) => BY_NUMBER.get(n)!);
  return {
    section: [...new Set(cited.map((s) => s.heading))].join('; '),
    sentence: cited.map((s, i) => (i < cited.length - 1 && !/[.!?]$/.test(s.text) ? `${s.text};` : s.text)).join(' '),
  };
}
