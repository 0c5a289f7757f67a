/** Encoder plug-ins: names and URLs only, so the page imports nothing of the encoders themselves. */

/** `createVaani({ models: { lamejs: { baseURL } } })` says where the optional MP3 plug-in's lamejs.js is served. */
export const LAME_KEY = 'lamejs';
/** The plug-in's package (LGPL-3.0): its dist/ folder holds lamejs.js, an ES module. */
export const LAME_PACKAGE = '@breezystack/lamejs';
export const LAME_FILE = 'lamejs.js';
/** How to turn the plug-in on, for error messages. */
export const LAME_HOWTO = `npm install ${LAME_PACKAGE}, serve its dist/ folder and pass createVaani({ models: { ${LAME_KEY}: { baseURL } } })`;
