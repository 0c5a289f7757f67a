import { transcribe } from './_transcribe';

export const POST = transcribe('transcribe');
