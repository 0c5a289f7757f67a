/**
 * How the speech request's speed, stability and style become eSpeak settings, clause by clause.
 *
 * - speed 0.5–2 scales the speaking rate (175 words/min at 1.0) and the pauses between clauses.
 * - style 0–1 sets the pitch range within a clause: 20 + 80 × style on eSpeak's 0–100 scale
 *   (0.35 → 48, eSpeak's normal 50; 0 → nearly flat; 1 → the widest, most emphatic contour).
 * - stability 0–1 sets how much each clause's base pitch and range wander from the voice's own:
 *   clauses alternate above and below it by (0.5–1) × (1 − stability) × 28 pitch units (up to about
 *   ±6 semitones) and ±(1 − stability) × 40 % range, drawn from a generator seeded by the text, so
 *   the same request always sounds the same. A single clause keeps its pitch.
 */

import { CLAUSE_MARKS, SENTENCE_MARKS } from '../../common/speech-text/marks';

export const BASE_RATE = 175;
const MIN_RATE = 80;
const MAX_RATE = 450;
const BASE_PITCH = 50;
const PITCH_WANDER = 28;
const RANGE_WANDER = 0.4;

/** Pauses after a clause, in ms at speed 1. */
const COMMA_PAUSE_MS = 180;
const SENTENCE_PAUSE_MS = 380;

export interface ProsodyParams {
  speed: number;
  stability: number;
  style: number;
}

export interface Clause {
  text: string;
  rate: number;
  pitch: number;
  range: number;
  /** Silence after the clause, in ms. */
  pauseMs: number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

export const speakingRate = (speed: number) => Math.round(clamp(BASE_RATE * speed, MIN_RATE, MAX_RATE));
export const pitchRange = (style: number) => Math.round(20 + 80 * clamp(style, 0, 1));

const MARKS = `${CLAUSE_MARKS}${SENTENCE_MARKS}\n`;
const CLAUSE = new RegExp(`[^${MARKS}]+(?:[${MARKS}]+|$)`, 'gu');
const SENTENCE_END = new RegExp(`[${SENTENCE_MARKS}]$`, 'u');

/** Text split after clause punctuation (Latin, the danda, Arabic-script, Ol Chiki and Meetei Mayek marks). */
export function splitClauses(text: string): string[] {
  const parts = text.match(CLAUSE) ?? [];
  return parts.map((part) => part.trim()).filter((part) => /[\p{L}\p{N}]/u.test(part));
}

function seededRandom(text: string): () => number {
  let seed = 2166136261;
  for (let i = 0; i < text.length; i++) seed = Math.imul(seed ^ text.charCodeAt(i), 16777619);
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const endsSentence = (clause: string) => SENTENCE_END.test(clause);

/** The clauses of `text` with the eSpeak settings each is spoken with. */
export function planClauses(text: string, params: ProsodyParams): Clause[] {
  const random = seededRandom(text);
  const wander = 1 - clamp(params.stability, 0, 1);
  const rate = speakingRate(params.speed);
  const range = pitchRange(params.style);
  const clauses = splitClauses(text);
  const firstSign = random() < 0.5 ? -1 : 1;
  return clauses.map((clause, i) => {
    const sign = clauses.length > 1 ? firstSign * (i % 2 === 0 ? 1 : -1) : 0;
    const pitchOffset = sign * (0.5 + 0.5 * random()) * wander * PITCH_WANDER;
    const rangeFactor = 1 + (random() * 2 - 1) * wander * RANGE_WANDER;
    return {
      text: clause,
      rate,
      pitch: Math.round(clamp(BASE_PITCH + pitchOffset, 0, 99)),
      range: Math.round(clamp(range * rangeFactor, 0, 100)),
      pauseMs: Math.round((endsSentence(clause) ? SENTENCE_PAUSE_MS : COMMA_PAUSE_MS) / params.speed),
    };
  });
}
