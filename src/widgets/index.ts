import { VaaniChat } from './chat';
import { VaaniDictate } from './dictate';
import { VaaniSpeak } from './speak';
import { VaaniVoiceAssistant } from './voice-assistant';

export { use, type WidgetOptions } from './config';
export { VaaniElement, type ErrorDetail, type StateDetail, type WidgetState } from './base';
export { LABELS, type Labels } from './labels';
export { WidgetError } from './service';
export type { ChatMessage, ChatResult } from './chat';
export type { DictationResult } from './dictate';
export type { SpeakResult } from './speak';
export type { AssistantTurn } from './voice-assistant';
export { VaaniChat, VaaniDictate, VaaniSpeak, VaaniVoiceAssistant };

export const ELEMENTS = {
  'vaani-dictate': VaaniDictate,
  'vaani-speak': VaaniSpeak,
  'vaani-chat': VaaniChat,
  'vaani-voice-assistant': VaaniVoiceAssistant,
} as const;

/** Registers the elements (importing this module does it; a second copy of the library leaves the first's in place). */
export function define(): void {
  for (const [name, element] of Object.entries(ELEMENTS))
    if (!customElements.get(name)) customElements.define(name, element);
}

define();

declare global {
  interface HTMLElementTagNameMap {
    'vaani-dictate': VaaniDictate;
    'vaani-speak': VaaniSpeak;
    'vaani-chat': VaaniChat;
    'vaani-voice-assistant': VaaniVoiceAssistant;
  }
}
