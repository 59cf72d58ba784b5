// Normative sentences of the description (see ../model.ts): filled section by section.
import type { SentenceSection } from '../model.ts';

export const CROSS_CUTTING_SECTIONS: readonly SentenceSection[] = [];
