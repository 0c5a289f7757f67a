import { transform } from './_transform';

export const POST = transform('speechToSpeech');
