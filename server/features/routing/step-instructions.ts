// Words for OSRM maneuvers in the languages Radar offers, through osrm-text-instructions (the text is its
// translations; the choice of phrase per maneuver is ours): the step's instruction, a banner for the
// maneuver, and the spoken announcements leading to the next one.
import osrmTextInstructions from 'osrm-text-instructions';
import phrasesDe from 'osrm-text-instructions/languages/translations/de.json';
import phrasesEn from 'osrm-text-instructions/languages/translations/en.json';
import phrasesEs from 'osrm-text-instructions/languages/translations/es.json';
import phrasesFr from 'osrm-text-instructions/languages/translations/fr.json';
import phrasesJa from 'osrm-text-instructions/languages/translations/ja.json';
import phrasesKo from 'osrm-text-instructions/languages/translations/ko.json';
import phrasesPt from 'osrm-text-instructions/languages/translations/pt-BR.json';
import phrasesRu from 'osrm-text-instructions/languages/translations/ru.json';
import type { OsrmStep } from '../../../ports/router';

export const LANGUAGES = ['de', 'en', 'es', 'fr', 'ja', 'ko', 'pt', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Radar's `pt` is Brazilian Portuguese in osrm-text-instructions' catalogue. */
const CATALOGUE_CODE: Record<Language, string> = { de: 'de', en: 'en', es: 'es', fr: 'fr', ja: 'ja', ko: 'ko', pt: 'pt-BR', ru: 'ru' };

const PHRASES: Record<Language, { v5: { phrase: Record<string, string> } }> = {
  de: phrasesDe, en: phrasesEn, es: phrasesEs, fr: phrasesFr, ja: phrasesJa, ko: phrasesKo, pt: phrasesPt, ru: phrasesRu,
};

/** Scripts without a sentence-ending period after an instruction. */
const NO_PERIOD = new Set<Language>(['ja', 'ko']);

/** The maneuver types osrm-text-instructions has words for; anything newer is read as a turn (OSRM's rule). */
const KNOWN_TYPES = new Set([
  'depart', 'arrive', 'turn', 'new name', 'continue', 'merge', 'on ramp', 'off ramp', 'fork', 'end of road',
  'roundabout', 'rotary', 'roundabout turn', 'exit roundabout', 'exit rotary', 'notification', 'use lane',
]);

const compiler = osrmTextInstructions('v5');

export interface StepText {
  instruction: string;
  banner: BannerInstruction[];
  voice: VoiceInstruction[];
}

export interface BannerInstruction {
  /** Metres before the maneuver at which the banner shows: from the start of the step leading to it. */
  distanceAlongGeometry: number;
  primary: { text: string; type: string; modifier?: string };
}

export interface VoiceInstruction {
  /** Metres before the end of the step at which to speak. */
  distanceAlongGeometry: number;
  announcement: string;
}

/** The step as osrm-text-instructions wants it: a known type, and a modifier wherever one is required. */
function normalized(step: OsrmStep): OsrmStep {
  // "use lane" needs the intersection's lanes; without them the library throws, so it reads as continue.
  const lanes = (step as { intersections?: Array<{ lanes?: unknown }> }).intersections?.[0]?.lanes;
  const known = KNOWN_TYPES.has(step.maneuver.type) && (step.maneuver.type !== 'use lane' || lanes !== undefined);
  const type = known ? step.maneuver.type : step.maneuver.type === 'use lane' ? 'continue' : 'turn';
  const needsModifier = type !== 'depart' && type !== 'arrive';
  const modifier = step.maneuver.modifier ?? (needsModifier ? 'straight' : undefined);
  // The library throws on a bearing outside 0–360 (a depart heading "Degree … invalid").
  const bearing = step.maneuver.bearing_after;
  const bearingAfter = Number.isFinite(bearing) ? ((bearing % 360) + 360) % 360 : 0;
  if (known && modifier === step.maneuver.modifier && bearingAfter === bearing) return step;
  return { ...step, maneuver: { ...step.maneuver, type, modifier, bearing_after: bearingAfter } };
}

export function instructionText(step: OsrmStep, lang: Language, legIndex: number, legCount: number): string {
  const text = compiler.compile(CATALOGUE_CODE[lang], normalized(step), { legIndex, legCount });
  return NO_PERIOD.has(lang) || /[.!?。]$/.test(text) ? text : `${text}.`;
}

function bare(instruction: string): string {
  return instruction.replace(/\.$/, '');
}

function lowerFirst(text: string, lang: Language): string {
  // German nouns keep their capital; the other Latin-script languages start mid-sentence in lower case.
  if (lang === 'de' || NO_PERIOD.has(lang)) return text;
  return text.charAt(0).toLocaleLowerCase(lang) + text.slice(1);
}

function phrase(lang: Language, key: string, tokens: Record<string, string>): string {
  const template = PHRASES[lang].v5.phrase[key];
  return compiler.tokenize(CATALOGUE_CODE[lang], template, tokens);
}

/**
 * Instruction, banner and announcements of each step of a leg. Announcements on a step speak of the next
 * maneuver: one as the step begins ("…, then, in 400 m, turn left"), one shortly before the maneuver
 * when the step is long enough for both.
 */
export function legTexts(steps: readonly OsrmStep[], lang: Language, legIndex: number, legCount: number, spokenDistance: (metres: number) => string): StepText[] {
  const instructions = steps.map((s) => instructionText(s, lang, legIndex, legCount));
  return steps.map((step, i) => {
    const instruction = instructions[i];
    const next = i + 1 < steps.length ? instructions[i + 1] : undefined;
    const banner: BannerInstruction[] = [{
      distanceAlongGeometry: step.distance,
      primary: { text: bare(next ?? instruction), type: (next ? steps[i + 1] : step).maneuver.type, modifier: (next ? steps[i + 1] : step).maneuver.modifier },
    }];
    const voice: VoiceInstruction[] = [];
    if (!next) {
      voice.push({ distanceAlongGeometry: step.distance, announcement: instruction });
    } else {
      voice.push({
        distanceAlongGeometry: step.distance,
        announcement: `${phrase(lang, 'two linked by distance', {
          instruction_one: bare(instruction), distance: spokenDistance(step.distance), instruction_two: lowerFirst(bare(next), lang),
        })}${NO_PERIOD.has(lang) ? '' : '.'}`,
      });
      const warnAt = step.distance > 400 ? 200 : undefined;
      if (warnAt !== undefined) {
        voice.push({
          distanceAlongGeometry: warnAt,
          announcement: `${phrase(lang, 'one in distance', { instruction_one: lowerFirst(bare(next), lang), distance: spokenDistance(warnAt) })}${NO_PERIOD.has(lang) ? '' : '.'}`,
        });
      }
    }
    return { instruction, banner, voice };
  });
}
