// Normative sentences of the description (see ../model.ts): filled section by section.
import type { SentenceSection } from '../model.ts';

export const WALLET_SECTIONS: readonly SentenceSection[] = [];
