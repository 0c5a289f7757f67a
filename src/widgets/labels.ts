/** Every text a widget shows or announces. Give a `labels` property (any subset) for other languages. */
export interface Labels {
  idle: string;
  loading: string;
  listening: string;
  transcribing: string;
  thinking: string;
  speaking: string;
  paused: string;
  stopped: string;
  noSpeech: string;
  inserted: string;
  micDenied: string;
  micMissing: string;
  micUnavailable: string;
  noModel: string;
  engineError: string;
  dictate: string;
  stopDictating: string;
  play: string;
  pause: string;
  resume: string;
  stop: string;
  send: string;
  message: string;
  conversation: string;
  you: string;
  assistant: string;
  talk: string;
  holdToTalk: string;
  endConversation: string;
  listen: string;
  nothingToRead: string;
  latency: string;
  tokensPerSecond: string;
  /** The download consent: `{size}` and `{use}` (one of the `for…` labels) are filled in. */
  downloadAsk: string;
  /** `{time}`: the expected download time (~7 min). */
  downloadTime: string;
  forChat: string;
  forTranscription: string;
  forSpeech: string;
  forOther: string;
  sizeUnknown: string;
  download: string;
  useServer: string;
  notNow: string;
}

const en: Labels = {
  idle: 'Ready',
  loading: 'Loading…',
  listening: 'Listening…',
  transcribing: 'Transcribing…',
  thinking: 'Thinking…',
  speaking: 'Speaking…',
  paused: 'Paused',
  stopped: 'Stopped',
  noSpeech: 'No speech heard',
  inserted: 'Text inserted',
  micDenied: 'Microphone blocked: allow it in the site settings',
  micMissing: 'No microphone found',
  micUnavailable: 'Microphone needs a secure (https) page',
  noModel: 'Model files not found',
  engineError: 'Error',
  dictate: 'Dictate',
  stopDictating: 'Stop dictating',
  play: 'Read aloud',
  pause: 'Pause',
  resume: 'Resume',
  stop: 'Stop',
  send: 'Send',
  message: 'Message',
  conversation: 'Conversation',
  you: 'You',
  assistant: 'Assistant',
  talk: 'Start talking',
  holdToTalk: 'Hold to talk',
  endConversation: 'End conversation',
  listen: 'Listen',
  nothingToRead: 'Nothing to read',
  latency: 'First audio after',
  tokensPerSecond: 'tok/s',
  downloadAsk: 'Download {size} for {use}?',
  downloadTime: '{time} on this connection',
  forChat: 'offline chat',
  forTranscription: 'offline speech recognition',
  forSpeech: 'offline speech',
  forOther: 'offline use',
  sizeUnknown: 'a model of unknown size',
  download: 'Download',
  useServer: 'Use the server',
  notNow: 'Not now',
};

const hi: Labels = {
  idle: 'तैयार',
  loading: 'लोड हो रहा है…',
  listening: 'सुन रहा है…',
  transcribing: 'लिख रहा है…',
  thinking: 'सोच रहा है…',
  speaking: 'बोल रहा है…',
  paused: 'रुका हुआ',
  stopped: 'रोका गया',
  noSpeech: 'कोई आवाज़ नहीं सुनी',
  inserted: 'पाठ जोड़ा गया',
  micDenied: 'माइक्रोफ़ोन की अनुमति नहीं: साइट सेटिंग में अनुमति दें',
  micMissing: 'कोई माइक्रोफ़ोन नहीं मिला',
  micUnavailable: 'माइक्रोफ़ोन के लिए सुरक्षित (https) पेज चाहिए',
  noModel: 'मॉडल फ़ाइलें नहीं मिलीं',
  engineError: 'त्रुटि',
  dictate: 'बोलकर लिखें',
  stopDictating: 'बोलकर लिखना बंद करें',
  play: 'पढ़कर सुनाएँ',
  pause: 'रोकें',
  resume: 'जारी रखें',
  stop: 'बंद करें',
  send: 'भेजें',
  message: 'संदेश',
  conversation: 'बातचीत',
  you: 'आप',
  assistant: 'सहायक',
  talk: 'बात शुरू करें',
  holdToTalk: 'बोलने के लिए दबाए रखें',
  endConversation: 'बातचीत समाप्त करें',
  listen: 'सुनें',
  nothingToRead: 'पढ़ने को कुछ नहीं',
  latency: 'पहली आवाज़',
  tokensPerSecond: 'टोकन/से',
  downloadAsk: '{use} के लिए {size} डाउनलोड करें?',
  downloadTime: 'इस कनेक्शन पर {time}',
  forChat: 'ऑफ़लाइन चैट',
  forTranscription: 'ऑफ़लाइन बोलकर लिखने',
  forSpeech: 'ऑफ़लाइन आवाज़',
  forOther: 'ऑफ़लाइन उपयोग',
  sizeUnknown: 'अज्ञात आकार का मॉडल',
  download: 'डाउनलोड करें',
  useServer: 'सर्वर का उपयोग करें',
  notNow: 'अभी नहीं',
};

export const LABELS: Record<string, Labels> = { en, hi };

/** The labels for a BCP 47 language tag (its primary subtag), English when there are none. */
export const labelsFor = (lang: string | undefined): Labels => LABELS[(lang ?? '').split('-')[0]!.toLowerCase()] ?? en;
