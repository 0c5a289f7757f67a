import { getJson, type VoiceInfo, type VoiceList } from '../api';
import type { Service } from '../service';
import { fillSelect } from '../ui';

/** GET /v1/voices, once per service start. */
export async function loadVoices(service: Service): Promise<VoiceList> {
  return getJson<VoiceList>(`${service.ai.baseURL}/voices`, service.key);
}

const licenceLabel = (v: VoiceInfo) =>
  v.license ? ` · ${v.license}${v.commercial === false ? ' (not for commercial use)' : ''}` : '';

/**
 * A language picker and a voice picker that shows the chosen language's voices with their licence;
 * `credit`, when given, shows the chosen voice's credit line (CC-BY voices ask for one).
 */
export function voicePickers(
  language: HTMLSelectElement,
  voice: HTMLSelectElement,
  voices: VoiceInfo[],
  credit?: HTMLElement,
): void {
  const showCredit = () => {
    if (credit) credit.textContent = voices.find((v) => v.id === voice.value)?.attribution ?? '';
  };
  voice.onchange = showCredit;
  const languages = [...new Map(voices.map((v) => [v.languageCode, v.language])).entries()];
  fillSelect(
    language,
    languages.map(([code, name]) => ({ value: code, label: `${name} (${code})` })),
  );
  const showVoices = () =>
    fillSelect(
      voice,
      voices
        .filter((v) => v.languageCode === language.value)
        .map((v) => ({ value: v.id, label: `${v.name} · ${v.gender}${licenceLabel(v)}` })),
    );
  language.onchange = () => {
    showVoices();
    showCredit();
  };
  showVoices();
  showCredit();
}
